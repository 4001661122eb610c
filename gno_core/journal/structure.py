"""A document's structure as the change journal compares it: headings, links, typed edges and
dates, each a set of short strings; and the capped delta between two structures.

The journal never keeps a body: it keeps this structure (beside the document row) so the next
change of the same document can say which headings, links, edges and dates came and went.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from gno_core.domain import IndexedDocument

__all__ = [
    "MAX_ITEMS_PER_SIDE",
    "MAX_VALUE_BYTES",
    "Structure",
    "StructureDelta",
    "delta",
    "structure_of",
]

#: At most this many values on each side (added, removed) of each set of a delta.
MAX_ITEMS_PER_SIDE = 16
#: Each value is cut to this many UTF-8 bytes (on a character boundary).
MAX_VALUE_BYTES = 256
#: The four sets a structure has, in wire order.
FIELDS = ("headings", "links", "edges", "dates")
#: Values kept per set in a stored structure (a note with more lists the first ones).
MAX_STORED_PER_SET = 512
_FRONTMATTER = "frontmatter-relation"


def _cut(value: str) -> str:
    if len(value) <= MAX_VALUE_BYTES // 4:  # at most 4 bytes a character: fits
        return value
    data = value.encode("utf-8")
    if len(data) <= MAX_VALUE_BYTES:
        return value
    return data[:MAX_VALUE_BYTES].decode("utf-8", errors="ignore")


@dataclass(frozen=True, slots=True)
class Structure:
    """The sets a change is compared on (each sorted, values cut to ``MAX_VALUE_BYTES``)."""

    headings: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    edges: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps(
            [self.headings, self.links, self.edges, self.dates],
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str | None) -> Structure | None:
        """The stored structure, or None when none was stored (indexed before the journal)."""
        if not text:
            return None
        try:
            h, li, e, d = json.loads(text)
        except (ValueError, TypeError):
            return None
        return Structure(tuple(h), tuple(li), tuple(e), tuple(d))


_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)


def _headings(markdown: str) -> list[str]:
    if "#" not in markdown:
        return []
    if "```" not in markdown and "~~~" not in markdown:  # no fence: one pass of the regex
        return [f"{m[1]} {m[2].strip()}" for m in _ATX.finditer(markdown) if m[2].strip()]
    out: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            mark = stripped[:3]
            fence = None if fence == mark else (fence or mark)
            continue
        if fence is not None or not stripped.startswith("#") or len(line) - len(stripped) > 3:
            continue
        level = len(stripped) - len(stripped.lstrip("#"))
        rest = stripped[level:]
        if level > 6 or (rest and not rest[0].isspace()):
            continue
        text = rest.strip().rstrip("#").strip()
        if text:
            out.append(f"{'#' * level} {text}")
    return out


def _bounded(values: set[str]) -> tuple[str, ...]:
    if len(values) < 2:
        return tuple(_cut(v) for v in values)
    return tuple(sorted(_cut(v) for v in values)[:MAX_STORED_PER_SET])


def structure_of(doc: IndexedDocument) -> Structure:
    """The structure of a document as sync indexed it (from its mirror, links and meta)."""
    links: set[str] = set()
    edges: set[str] = set()
    for link in doc.links:
        target = (
            link.target_ref
            if link.target_collection is None
            else (f"{link.target_collection}:{link.target_ref}")
        )
        if link.edge_source == _FRONTMATTER:
            edges.add(f"{link.relation} -> {target}")
        else:
            links.add(target)
    dates = {doc.meta.date} if doc.meta.date else set()
    return Structure(
        headings=_bounded(set(_headings(doc.markdown))),
        links=_bounded(links),
        edges=_bounded(edges),
        dates=_bounded(dates),
    )


@dataclass(frozen=True, slots=True)
class SetDelta:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


_NONE = SetDelta()


@dataclass(frozen=True, slots=True)
class StructureDelta:
    """What came and went in each set; ``truncated`` when a side had more than the cap (or the
    prior structure was not known, ``previous_known`` False: the delta then lists the current
    structure as added)."""

    headings: SetDelta = SetDelta()
    links: SetDelta = SetDelta()
    edges: SetDelta = SetDelta()
    dates: SetDelta = SetDelta()
    truncated: bool = False
    previous_known: bool = True

    def to_store(self) -> dict[str, object]:
        """The stored form: only the sets that changed (``h``, ``l``, ``e``, ``d``: [added,
        removed]), ``t`` when truncated, ``u`` when the prior structure was unknown."""
        out: dict[str, object] = {}
        for key, part in zip(
            "hled", (self.headings, self.links, self.edges, self.dates), strict=True
        ):
            if part.added or part.removed:
                out[key] = [part.added, part.removed]
        if self.truncated:
            out["t"] = 1
        if not self.previous_known:
            out["u"] = 1
        return out

    @staticmethod
    def from_store(data: dict[str, Any]) -> StructureDelta:
        parts = [
            SetDelta(tuple(data[k][0]), tuple(data[k][1])) if k in data else _NONE for k in "hled"
        ]
        return StructureDelta(
            parts[0],
            parts[1],
            parts[2],
            parts[3],
            truncated=bool(data.get("t")),
            previous_known=not data.get("u"),
        )

    @property
    def empty(self) -> bool:
        return not any(
            s.added or s.removed for s in (self.headings, self.links, self.edges, self.dates)
        )


def delta(
    old: Structure | None, new: Structure | None, *, previous_known: bool = True
) -> StructureDelta:
    """The capped delta from ``old`` to ``new`` (None: no document on that side). A document
    whose prior structure is not known (``previous_known`` False: indexed before the journal)
    gets a truncated delta listing its current structure as added."""
    truncated = not previous_known
    sets: list[SetDelta] = []
    for name in FIELDS:
        before: tuple[str, ...] = getattr(old, name) if old is not None else ()
        after: tuple[str, ...] = getattr(new, name) if new is not None else ()
        if before == after:
            sets.append(_NONE)
            continue
        if not before:  # stored sets are sorted already
            added, removed = list(after), []
        elif not after:
            added, removed = [], list(before)
        else:
            b, a = set(before), set(after)
            added, removed = sorted(a - b), sorted(b - a)
        if len(added) > MAX_ITEMS_PER_SIDE or len(removed) > MAX_ITEMS_PER_SIDE:
            truncated = True
        sets.append(
            SetDelta(tuple(added[:MAX_ITEMS_PER_SIDE]), tuple(removed[:MAX_ITEMS_PER_SIDE]))
        )
    return StructureDelta(
        sets[0], sets[1], sets[2], sets[3], truncated=truncated, previous_known=previous_known
    )
