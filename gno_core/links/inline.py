"""Inline links of one prose line of a Markdown mirror: wiki links ``[[target|alias]]`` (with
``#heading``, ``#^block``, embeds ``![[x]]`` and ``[[collection:target]]``), inline links and
images ``[text](dest)`` / ``![alt](dest)``, reference-style links resolved against the
document's definitions, and autolinks ``<scheme:...>``; each with its 1-based position and a
snippet of its line as context. Destinations with a scheme are kept as external."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from gno_core.domain import (
    EMBEDS,
    LINKS_TO,
    MARKDOWN,
    MARKDOWN_LINK,
    WIKI,
    WIKILINK,
    ExtractedLink,
)
from gno_core.links.blocks import MASK, REF_DEF, escaped, normal_label
from gno_core.links.names import label_first_target

__all__ = ["CONTEXT_CHARS", "GNO_URI", "definition_link", "line_links", "make_link", "wiki"]

#: Characters of the source line kept around a link as its context.
CONTEXT_CHARS = 160

_DEST = re.compile(
    r"[ \t]*(?:<([^<>\n\x00]*)>|((?:[^\s()\\\x00]|\\.|\((?:[^\s()\\\x00]|\\.)*\))*))"
    r"(?:[ \t]+(?:\"[^\"\n\x00]*\"|'[^'\n\x00]*'|\([^()\n\x00]*\)))?[ \t]*\)"
)
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00]*)>")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]{1,31}):")
_QUALIFIED = re.compile(r"^([a-z0-9][a-z0-9_-]{0,63}):(?!//)(.+)$")
_DENDRON_URI = re.compile(r"^dendron://[^/]*/(.*)$")
GNO_URI = re.compile(r"^gno://([^/?#]+)/([^?#]*)")
_BRACKET = re.compile(r"[\[\]]")


def line_links(
    lineno: int, line: str, masked: str, definitions: dict[str, str]
) -> Iterator[ExtractedLink]:
    found: list[tuple[int, ExtractedLink]] = []
    if "[[" in masked:
        masked = _wiki_links(lineno, line, masked, found)
    if "[" in masked:
        _markdown_links(lineno, line, masked, definitions, found)
    if "<" in masked and ":" in masked:
        for match in _AUTOLINK.finditer(masked):
            dest = match.group(1)
            found.append(
                (
                    match.start(),
                    make_link(
                        lineno,
                        line,
                        match.start(),
                        match.end() - 1,
                        MARKDOWN,
                        dest,
                        None,
                        None,
                        dest,
                        external=True,
                    ),
                )
            )
    found.sort(key=lambda item: item[0])
    for _, link in found:
        yield link


def definition_link(lineno: int, line: str, masked: str) -> ExtractedLink | None:
    """The link a reference definition ``[label]: dest "title"`` on ``line`` makes to its
    destination: a Markdown link spanning the definition from ``[`` to its last character,
    its text the label (every definition, not only the first of its label: each is a link a
    reader sees; the uses ``[text][label]`` are links too, at their own place)."""
    match = REF_DEF.match(masked)
    if match is None:
        return None
    dest = line[match.start(2) : match.end(2)]
    if dest.startswith("<"):
        dest = dest[1:-1]
    start = match.start(1) - 1
    end = len(line[: match.end()].rstrip()) - 1
    return _markdown(lineno, line, start, end, dest, line[match.start(1) : match.end(1)], False)


def _wiki_links(lineno: int, line: str, masked: str, found: list[tuple[int, ExtractedLink]]) -> str:
    """Append the wiki links of ``masked``; returns it with their spans masked too."""
    spans: list[tuple[int, int]] = []
    close = -2
    i = masked.find("[[")
    while i >= 0:
        if close < i + 2:
            close = masked.find("]]", i + 2)
            if close < 0:
                break
        # ``[[a [[b]]``: the innermost opener starts the link
        i = max(i, masked.rfind("[[", i + 2, close))
        inner = masked[i + 2 : close]
        # Inline code inside the brackets is part of the label (``[[`cmd`|note]]``).
        if escaped(masked, i) or not inner.strip():
            i = masked.find("[[", i + 2)
            continue
        embed = i > 0 and masked[i - 1] == "!" and not escaped(masked, i - 1)
        start = i - 1 if embed else i
        link = wiki(lineno, line, start, close + 1, line[i + 2 : close], embed)
        if link is not None:
            found.append((start, link))
        spans.append((start, close + 2))
        i = masked.find("[[", close + 2)
    if not spans:
        return masked
    parts: list[str] = []
    last = 0
    for begin, end in spans:
        parts.append(masked[last:begin])
        parts.append(MASK * (end - begin))
        last = end
    parts.append(masked[last:])
    return "".join(parts)


def wiki(
    lineno: int, line: str, start: int, end: int, inner: str, embed: bool
) -> ExtractedLink | None:
    inner = inner.replace("\\|", "|")  # inside Markdown tables the pipe is escaped
    target, bar, alias = inner.partition("|")
    target, _, anchor = target.partition("#")
    target = target.strip()
    collection: str | None = None
    external = False
    dendron = _DENDRON_URI.match(target)
    if dendron:
        target = dendron.group(1)
    elif _SCHEME.match(target) and (
        "://" in target or target.lower().startswith(("mailto:", "tel:"))
    ):
        external = True
    else:
        qualified = _QUALIFIED.match(target)
        if qualified:
            collection, target = qualified.group(1), qualified.group(2).strip()
    if not target and not (bar and label_first_target(alias)):
        return None  # ``[[#heading]]``: a place in this document
    if bar and alias.strip().startswith("#") and not target.startswith("#"):
        return None  # ``[[label|#heading]]``, Dendron's order: a place in this document
    return make_link(
        lineno,
        line,
        start,
        end,
        WIKI,
        target,
        anchor.strip() or None,
        collection,
        (alias.strip() if bar else inner.strip()) or None,
        alias=alias.strip() or None if bar else None,
        external=external,
        embed=embed,
    )


def _brackets(masked: str) -> dict[int, int]:
    """Matching ``]`` of each unescaped ``[`` on the line, in one pass with a stack."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for found in _BRACKET.finditer(masked):
        pos = found.start()
        ch = masked[pos]
        if ch == "[":
            if not escaped(masked, pos):
                stack.append(pos)
        elif ch == "]" and stack and not escaped(masked, pos):
            pairs[stack.pop()] = pos
    return pairs


def _markdown_links(
    lineno: int,
    line: str,
    masked: str,
    definitions: dict[str, str],
    found: list[tuple[int, ExtractedLink]],
) -> None:
    pairs = _brackets(masked)
    dest_start = dest_end = -1
    consumed_labels: set[int] = set()
    for open_at in sorted(pairs):
        close = pairs[open_at]
        if dest_start <= open_at <= dest_end or open_at in consumed_labels:
            continue
        image = open_at > 0 and masked[open_at - 1] == "!" and not escaped(masked, open_at - 1)
        start = open_at - 1 if image else open_at
        text = line[open_at + 1 : close].strip() or None
        after = close + 1
        dest: str | None = None
        end = close
        if after < len(masked) and masked[after] == "(":
            match = _DEST.match(masked, after + 1)
            if match is None:
                continue
            raw = match.group(1) if match.group(1) is not None else match.group(2)
            dest = line[match.start(1) : match.end(1)] if match.group(1) is not None else raw
            end = match.end() - 1
            dest_start, dest_end = after, end
        else:
            label: str | None = None
            if after < len(masked) and masked[after] == "[" and after in pairs:
                label = normal_label(masked[after + 1 : pairs[after]]) or normal_label(text or "")
                consumed_labels.add(after)
                end = pairs[after]
            elif "[" not in masked[open_at + 1 : close]:
                label = normal_label(masked[open_at + 1 : close])
            if not label or label not in definitions:
                continue
            dest = definitions[label]
        link = _markdown(lineno, line, start, end, dest, text, image)
        if link is not None:
            found.append((start, link))


def _markdown(
    lineno: int, line: str, start: int, end: int, dest: str, text: str | None, image: bool
) -> ExtractedLink | None:
    dest = _unescape(dest.strip())
    if not dest:
        return None
    scheme = _SCHEME.match(dest)
    collection: str | None = None
    if scheme:
        gno = GNO_URI.match(dest)
        if gno is None:
            return make_link(
                lineno, line, start, end, MARKDOWN, dest, None, None, text, external=True
            )
        collection = unquote(gno.group(1)).lower()
        dest = "/" + gno.group(2) + dest[gno.end() :]
    elif dest.startswith("//"):
        return make_link(lineno, line, start, end, MARKDOWN, dest, None, None, text, external=True)
    path, _, anchor = dest.partition("#")
    path = path.partition("?")[0]
    if not path:
        return None  # ``(#heading)``: a place in this document
    return make_link(
        lineno,
        line,
        start,
        end,
        MARKDOWN,
        unquote(path),
        unquote(anchor) or None,
        collection,
        text,
        embed=image,
    )


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def make_link(
    lineno: int,
    line: str,
    start: int,
    end: int,
    link_type: str,
    target: str,
    anchor: str | None,
    collection: str | None,
    text: str | None,
    *,
    alias: str | None = None,
    external: bool = False,
    embed: bool = False,
) -> ExtractedLink:
    # Positional (the fields in order): keyword arguments cost twice as much, once per link.
    return ExtractedLink(
        0,
        link_type,
        WIKILINK if link_type == WIKI else MARKDOWN_LINK,
        EMBEDS if embed else LINKS_TO,
        target,
        anchor,
        collection,
        text,
        lineno,
        start + 1,
        lineno,
        end + 1,
        alias,
        external,
        embed,
        _context(line, start, end),
    )


def _context(line: str, start: int, end: int) -> str:
    if len(line) <= CONTEXT_CHARS:
        return line.strip()
    middle = (start + end) // 2
    left = max(0, min(middle - CONTEXT_CHARS // 2, len(line) - CONTEXT_CHARS))
    snippet = line[left : left + CONTEXT_CHARS].strip()
    return ("…" if left else "") + snippet + ("…" if left + CONTEXT_CHARS < len(line) else "")
