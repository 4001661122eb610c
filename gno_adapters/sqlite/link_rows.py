"""How a link lies in the SQLite index's rows: the ``doc_links`` columns a link is written to
and read back from, and the ``Edge`` of a graph read's row (shared by ``links``,
``link_graph``, ``link_resolution`` and ``link_writes``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from gno_core.domain import DocRef, Edge, ExtractedLink

__all__ = [
    "BATCH",
    "DECODER",
    "EDGE_COLUMNS",
    "LINK_COLUMNS",
    "LINK_FIELDS",
    "link_values",
    "read_edge",
    "stored_link",
]

#: The fields of ``ExtractedLink`` before ``keys``, in order: the ``doc_links`` columns a link
#: is written to (``write_links``) and read back from (``LINK_COLUMNS``, then ``stored_link``).
LINK_FIELDS = (
    "seq",
    "link_type",
    "edge_source",
    "relation",
    "target_ref",
    "target_anchor",
    "target_collection",
    "link_text",
    "start_line",
    "start_col",
    "end_line",
    "end_col",
    "alias",
    "external",
    "embed",
    "context",
)
LINK_COLUMNS = ", ".join(f"l.{name}" for name in LINK_FIELDS)
#: A link's ``LINK_FIELDS`` as one tuple made in C (``external`` and ``embed`` are bools,
#: which SQLite stores as the integers 1 and 0).
link_values = attrgetter(*LINK_FIELDS)
#: A graph link's columns (``read_edge`` makes the ``Edge``): its source and target documents
#: (``s``, ``d``) and the link (``l``) with its resolution (``t``).
EDGE_COLUMNS = (
    "s.id, s.collection, s.rel_path, s.title, s.source_hash, d.id, d.collection, "
    "d.rel_path, d.title, d.source_hash, l.relation, l.link_type, l.edge_source, t.confidence"
)
DECODER = json.JSONDecoder()
#: Names per statement: well under SQLite's bound-parameter limit.
BATCH = 500


def stored_link(row: Sequence[Any], keys: tuple[str, ...] = ()) -> ExtractedLink:
    # ``LINK_COLUMNS`` are the fields of ``ExtractedLink`` in order: built positionally
    # (keyword arguments cost twice as much, once per row of a hub's backlinks).
    return ExtractedLink(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        row[8],
        row[9],
        row[10],
        row[11],
        row[12],
        bool(row[13]),
        bool(row[14]),
        row[15],
        keys,
    )


def read_edge(row: Sequence[Any], refs: dict[int, DocRef]) -> Edge:
    """The ``Edge`` of a row of ``EDGE_COLUMNS``; ``refs`` keeps each document's ``DocRef``,
    built once however many edges it has."""
    return Edge(
        _doc_ref(refs, row[0], row[1:5]),
        _doc_ref(refs, row[5], row[6:10]),
        row[10],
        row[11],
        row[12],
        row[13],
    )


def _doc_ref(refs: dict[int, DocRef], doc_id: int, row: Sequence[Any]) -> DocRef:
    found = refs.get(doc_id)
    if found is None:
        found = refs[doc_id] = DocRef(row[0], row[1], row[2], row[3])
    return found
