"""Inline ``#tags`` of a Markdown body (``#recipe``, ``#project/alpha``), the way vault editors
(Obsidian, Foam, Logseq) read them: a ``#`` at the start of a line or after whitespace, then
letters, digits, ``_``, ``-``, ``/`` and ``.`` (Dendron's ``#role.seeder``; a trailing ``.``
ends the sentence, not the tag), with at least one letter. Nothing is read from code (fenced,
indented or inline), comments, math, link reference definitions, link texts and targets
(``[a #b](c)``, ``[[note#heading]]``), URLs, HTML tags and attribute lists (``{ #anchor }``
after a heading, ``style="color: #ccc"``), CSS colours (``#fff;``), or headings' markers
(``# Title`` has a space after its ``#``). A hex colour with a digit (``#43B02A``) is not a
tag either. Tags are normalised like
frontmatter tags (``gno_core.text.frontmatter.normalize_tag``) and merged with them."""

from __future__ import annotations

import re

from gno_core.links.blocks import iter_prose
from gno_core.text.frontmatter import normalize_tag

__all__ = ["MAX_INLINE_TAGS", "inline_tags"]

#: Distinct inline tags kept per document; the rest of a hostile file is ignored.
MAX_INLINE_TAGS = 256
#: Characters of one tag are bounded too (a 1 MB ``#aaaa...`` is not a tag).
_MAX_TAG_CHARS = 128
#: ``#`` words examined per document, and the longest line read for tags: a hostile file of
#: ``#a #a #a ...`` or of one 2 MB line costs milliseconds, not seconds.
_MAX_CANDIDATES = 4096
_MAX_LINE_CHARS = 32_768

_ANY = re.compile(r"(?:^|\s)#[^\s#]")
# One pass over a line visits only the characters that open or close a span and the ``#`` that
# start a word; the regexes are linear (no nested quantifier), so a hostile line costs its length.
_MARKS = re.compile(r"[\[\]()<>{}]|(?<!\S)#")
_TAG = re.compile(r"[\w/.-]+")
_CSS_END = frozenset(";\"'),")
_COLOUR = re.compile(r"(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})", re.IGNORECASE)


def inline_tags(markdown: str, body_start_line: int) -> tuple[str, ...]:
    """The normalised inline tags of ``markdown`` from line ``body_start_line`` on (after the
    frontmatter), in order of first appearance, at most ``MAX_INLINE_TAGS``."""
    if "#" not in markdown or _ANY.search(markdown) is None:
        return ()
    lines = markdown.split("\n")
    prose = iter_prose(lines, body_start_line, "#", {})
    out: dict[str, None] = {}
    budget = _MAX_CANDIDATES
    for _lineno, _line, masked in prose:
        if "#" not in masked or len(masked) > _MAX_LINE_CHARS:
            continue
        tags, budget = _line_tags(masked, budget)
        for tag in tags:
            if tag not in out:
                out[tag] = None
                if len(out) >= MAX_INLINE_TAGS:
                    return tuple(out)
        if budget <= 0:
            break
    return tuple(out)


def _line_tags(text: str, budget: int) -> tuple[list[str], int]:
    """Tags of one masked prose line: a ``#`` that starts a word outside brackets (link texts,
    wiki links), a link's parenthesised target, an HTML tag and a ``{...}`` attribute list; and
    what is left of ``budget`` (``#`` words examined)."""
    found: list[str] = []
    square = paren = 0
    in_angle = in_brace = False
    for mark in _MARKS.finditer(text):
        ch = mark.group()
        pos = mark.start()
        if ch == "#":
            budget -= 1
            if budget < 0:
                break
            if square or paren or in_angle or in_brace:
                continue
            word = _TAG.match(text, pos + 1)
            if word is None:
                continue
            raw = word.group().strip("/-.")
            if len(raw) > _MAX_TAG_CHARS or not any(c.isalpha() for c in raw):
                continue
            if _COLOUR.fullmatch(raw) and (
                any(c.isdigit() for c in raw) or text[word.end() : word.end() + 1] in _CSS_END
            ):
                continue  # #43B02A in a table, #ccc; in CSS
            tag = normalize_tag(raw)
            if tag:
                found.append(tag)
        elif ch == "[":
            square += 1
        elif ch == "]":
            square = max(0, square - 1)
        elif ch == "(":
            # a link's target: "](" (or nested parentheses inside one)
            if paren or (pos and text[pos - 1] == "]"):
                paren += 1
        elif ch == ")":
            paren = max(0, paren - 1)
        elif ch == "<":
            in_angle = pos + 1 < len(text) and (text[pos + 1].isalpha() or text[pos + 1] == "/")
        elif ch == ">":
            in_angle = False
        elif ch == "{":
            in_brace = True
        else:  # "}"
            in_brace = False
    return found, budget
