"""Typed edges from frontmatter: ``relations: {works_at: "[[Acme]]"}`` (or a list of
``{type, target}``) and any other key whose value holds ``[[wiki links]]``; the key, in
``snake_case``, is the edge type. A ``gno://collection/path`` value is an exact path in that
collection."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import unquote

from gno_core.domain import FRONTMATTER_RELATION, WIKI, ExtractedLink
from gno_core.links.inline import CONTEXT_CHARS, GNO_URI, make_link, wiki

__all__ = ["frontmatter_links", "snake_case"]

_WIKI_IN_TEXT = re.compile(r"\[\[([^\[\]\n]{1,1000})\]\]")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[\W_]+")
#: Frontmatter keys that are never edges, even when their value holds ``[[...]]``.
_META_KEYS = frozenset({"title", "aliases", "alias", "tags", "tag", "id", "desc", "description"})


def snake_case(key: str) -> str | None:
    """``worksAt``, ``works-at`` and ``Works At`` are all ``works_at``; None when empty."""
    text = _NON_WORD.sub("_", _CAMEL.sub(r"\1_\2", key)).strip("_").lower()
    return text or None


def frontmatter_links(front: Mapping[str, Any], head: list[str]) -> Iterator[ExtractedLink]:
    relations = front.get("relations")
    if isinstance(relations, Mapping):
        for key, value in relations.items():
            relation = snake_case(str(key))
            if relation:
                for target in _targets(value, bare=True):
                    yield _typed(relation, target, head, str(key), "relations")
    elif isinstance(relations, list):
        for item in relations:
            if not isinstance(item, Mapping):
                continue
            kind = item.get("type", item.get("relation"))
            relation = snake_case(str(kind)) if kind is not None else None
            value = item.get("target", item.get("to"))
            if relation and value is not None:
                for target in _targets(value, bare=True):
                    yield _typed(relation, target, head, "relations", None)
    for key, value in front.items():
        if key == "relations" or str(key).lower() in _META_KEYS:
            continue
        relation = snake_case(str(key))
        if relation:
            for target in _targets(value, bare=False):
                yield _typed(relation, target, head, str(key), None)


def _targets(value: object, *, bare: bool) -> Iterator[str]:
    """Wiki targets in a frontmatter value: ``[[x]]`` inside strings, unquoted ``[[x]]`` (which
    YAML reads as a list in a list) and, when ``bare``, plain names."""
    if isinstance(value, str):
        matches = _WIKI_IN_TEXT.findall(value)
        if matches:
            yield from matches
        elif bare and value.strip():
            yield value.strip()
    elif isinstance(value, list):
        for item in value[:1000]:
            if isinstance(item, list) and len(item) == 1 and isinstance(item[0], str):
                yield item[0]
            elif isinstance(item, str | list):
                yield from _targets(item, bare=bare)


def _typed(
    relation: str, inner: str, head: list[str], key: str, parent: str | None
) -> ExtractedLink:
    lineno = _key_line(head, key, parent)
    gno = GNO_URI.match(inner.strip())
    link: ExtractedLink | None
    if gno is not None:
        # A ``gno://collection/path`` value (memory facts name what they supersede so) is an
        # exact path in that collection, not an external link.
        path, _, anchor = unquote(gno.group(2)).partition("#")
        collection = unquote(gno.group(1)).lower()
        link = make_link(lineno, "", 0, 0, WIKI, "/" + path, anchor or None, collection, inner)
    else:
        link = wiki(lineno, head[lineno - 1] if lineno <= len(head) else "", 0, 0, inner, False)
    target = link or make_link(lineno, "", 0, 0, WIKI, inner, None, None, inner)
    line = head[lineno - 1] if 0 < lineno <= len(head) else ""
    return replace(
        target,
        edge_source=FRONTMATTER_RELATION,
        relation=relation,
        start_col=1,
        end_col=max(1, len(line)),
        context=line.strip()[:CONTEXT_CHARS],
    )


def _key_line(head: list[str], key: str, parent: str | None) -> int:
    """1-based line of ``key:`` in the frontmatter (under ``parent:`` when given)."""
    begin = 0
    if parent is not None:
        begin = next((i + 1 for i, line in enumerate(head) if line.startswith(parent + ":")), 0)
    for i in range(begin, len(head)):
        if head[i].lstrip().startswith((key + ":", f'"{key}":', f"'{key}':")):
            return i + 1
    return max(1, begin)
