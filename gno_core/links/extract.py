"""Link extraction from a canonical Markdown mirror: a pure, linear-time parser.

Body forms: ``[[target]]``, ``[[target|alias]]``, ``[[target#heading]]``, ``[[target#^block]]``,
embeds ``![[x]]``, ``[[collection:target]]``, inline links and images ``[text](dest)`` /
``![alt](dest)`` (relative or root-relative, ``#anchor``, percent-encoded and ``<angle>`` forms,
optional title), reference-style ``[text][label]``, ``[label][]`` and ``[label]`` (each at its
own place, to the destination of the label's first definition) and the ``[label]: dest``
definitions themselves (each a link from its line), and autolinks ``<scheme:...>``. Nothing is taken from fenced or
indented code, inline code, HTML comments or math (``$...$``, ``$$`` blocks); links to another
part of the same document (``[[#h]]``, ``(#h)``) are not links between documents and are left
out. Destinations with a scheme (``http:``, ``mailto:`` ...) are kept as external.
Frontmatter gives typed edges: ``relations: {works_at: "[[Acme]]"}`` (or a list of
``{type, target}``) and any other key whose value holds ``[[wiki links]]``; the key, in
``snake_case``, is the edge type.

Bounded on hostile input: every search for a closing delimiter is cached or stops at the end of
its line, so an unclosed ``[[`` or 10,000 links on one line cost time linear in the line;
at most ``MAX_LINKS`` links are kept per document (``limit``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from gno_core.domain import FRONTMATTER_RELATION, ExtractedLink
from gno_core.links.blocks import MASK, prose_lines
from gno_core.links.inline import definition_link, line_links
from gno_core.links.names import link_keys
from gno_core.links.typed_edges import frontmatter_links, snake_case

__all__ = ["MAX_LINKS", "extract_edited", "extract_links", "snake_case"]

_set = object.__setattr__
#: Links kept per document; the rest of a hostile file is ignored.
MAX_LINKS = 20_000


def extract_links(
    markdown: str,
    source_rel_path: str,
    front: Mapping[str, Any] | None = None,
    body_start_line: int = 1,
    limit: int = MAX_LINKS,
) -> tuple[ExtractedLink, ...]:
    """Every link of the mirror ``markdown`` of the document at ``source_rel_path``, in order
    (frontmatter edges first), each with its lookup keys, the first ``limit`` of them (ingest
    keeps ``MAX_LINKS``; a refactor reads further, ``gno_core.refactors.reading``).
    ``body_start_line`` is the first line after the frontmatter block (1 without one);
    ``front`` the parsed frontmatter."""
    text = markdown.replace(MASK, "\ufffd") if MASK in markdown else markdown
    if not front and "[" not in text and "<" not in text:
        return ()  # no link syntax at all: most of a large vault of prose
    lines = text.split("\n")
    out: list[ExtractedLink] = []
    if front:
        out.extend(frontmatter_links(front, lines[: body_start_line - 1]))
    prose, definitions, defined = prose_lines(lines, body_start_line)
    for lineno, line, masked in prose:
        for link in _line(lineno, line, masked, definitions, defined):
            out.append(link)
            if len(out) >= limit:
                break
        if len(out) >= limit:
            break
    links = out[:limit]
    for seq, link in enumerate(links):
        # Each link was made by this call and nothing else holds it yet: its number and keys
        # are set in place (a second instance per link cost a tenth of the parser's time).
        _set(link, "seq", seq)
        _set(link, "keys", link_keys(link, source_rel_path))
    return tuple(links)


def extract_edited(
    previous: tuple[ExtractedLink, ...],
    old: str,
    new: str,
    edited: Collection[int],
    source_rel_path: str,
    body_start_line: int,
) -> tuple[ExtractedLink, ...] | None:
    """``extract_links(new, source_rel_path, front, body_start_line)`` when ``previous`` is
    ``extract_links(old, source_rel_path, front, body_start_line)`` and the two texts have the
    same frontmatter (its parse and its lines before ``body_start_line``), parsing only the
    ``edited`` lines (1-based) of ``new``: every other line must be equal in both. None when
    that cannot be shown to give the same answer (a line outside ``edited`` differs, an edit is
    in the frontmatter, the edit changed which lines are prose, their masking or the reference
    definitions, the link limit is near): the caller extracts the whole text.

    Sound because a prose line's links are a function of its number, its text, its masked
    text, the definitions and which lines are definitions alone: when ``prose_lines`` gives the same for every other line,
    their links are the ones ``previous`` holds for them."""
    if not edited or min(edited) < body_start_line or len(previous) >= MAX_LINKS:
        return None
    if MASK in old or MASK in new:
        return None
    old_lines, new_lines = old.split("\n"), new.split("\n")
    if len(old_lines) != len(new_lines) or max(edited) > len(new_lines):
        return None
    patched = list(old_lines)
    for number in edited:
        patched[number - 1] = new_lines[number - 1]
    if patched != new_lines:
        return None
    old_prose, old_definitions, old_defined = prose_lines(old_lines, body_start_line)
    new_prose, definitions, defined = prose_lines(new_lines, body_start_line)
    if old_definitions != definitions or old_defined != defined:
        return None
    if len(old_prose) != len(new_prose):
        return None
    head = 0
    while head < len(previous) and previous[head].edge_source == FRONTMATTER_RELATION:
        head += 1
    by_line: dict[int, list[ExtractedLink]] = {}
    for link in previous[head:]:
        by_line.setdefault(link.start_line, []).append(link)
    out: list[tuple[ExtractedLink, bool]] = [(link, False) for link in previous[:head]]
    for before, (lineno, line, masked) in zip(old_prose, new_prose, strict=True):
        kept = by_line.pop(lineno, [])
        if before[0] != lineno:
            return None
        if lineno in edited:
            fresh = _line(lineno, line, masked, definitions, defined)
            out.extend((link, True) for link in fresh)
        elif before[1:] == (line, masked):
            out.extend((link, False) for link in kept)
        else:
            return None
    if by_line or len(out) >= MAX_LINKS:
        return None  # links ``previous`` has on no prose line: not the extraction of ``old``
    return tuple(
        _numbered(link, seq, link_keys(link, source_rel_path))
        if fresh
        else (link if link.seq == seq else _numbered(link, seq, link.keys))
        for seq, (link, fresh) in enumerate(out)
    )


def _line(
    lineno: int, line: str, masked: str, definitions: dict[str, str], defined: set[int]
) -> Iterator[ExtractedLink]:
    """The links of one line ``prose_lines`` gave: a definition's link, or a prose line's."""
    if lineno in defined:
        link = definition_link(lineno, line, masked)
        if link is not None:
            yield link
        return
    yield from line_links(lineno, line, masked, definitions)


def _numbered(k: ExtractedLink, seq: int, keys: tuple[str, ...]) -> ExtractedLink:
    # Spelled out: ``dataclasses.replace`` costs twice as much, once per link of a vault.
    return ExtractedLink(
        seq,
        k.link_type,
        k.edge_source,
        k.relation,
        k.target_ref,
        k.target_anchor,
        k.target_collection,
        k.link_text,
        k.start_line,
        k.start_col,
        k.end_line,
        k.end_col,
        k.alias,
        k.external,
        k.embed,
        k.context,
        keys,
    )
