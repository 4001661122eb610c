"""The graph reads of ``ApswLinks``: the resolved-edge stream, the whole graph at once, the
edges around a set of documents and their degrees, over an open SQLite index."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.link_rows import BATCH, EDGE_COLUMNS, read_edge
from gno_adapters.sqlite.rows import Rows
from gno_core.domain import DocRef, Edge, LinkGraph

__all__ = ["adjacent", "degrees", "edges", "graph"]


def edges(db: Rows, collection: str | None = None, relation: str | None = None) -> Iterator[Edge]:
    where, params = ("AND s.collection = ?", (collection,)) if collection else ("", ())
    if relation is not None:
        where, params = where + " AND l.relation = ?", (*params, relation)
    # Driven by doc_links in (doc_id, seq) order (its unique index): no sort, and each
    # document's DocRef is built once however many edges it has.
    sql = (
        f"SELECT {EDGE_COLUMNS} FROM doc_links l CROSS JOIN documents s ON s.id = l.doc_id "
        "CROSS JOIN link_targets t ON t.link_id = l.id "
        "CROSS JOIN documents d ON d.id = t.dst_doc_id "
        f"WHERE s.active = 1 AND d.active = 1 {where} ORDER BY l.doc_id, l.seq, t.dst_doc_id"
    )
    refs: dict[int, DocRef] = {}
    with translate_errors("reading the link graph"):
        for r in db.conn.cursor().execute(sql, params):
            yield read_edge(r, refs)


def graph(db: Rows, collection: str | None = None) -> LinkGraph:
    where, params = ("AND collection = ?", (collection,)) if collection else ("", ())
    rows = db.rows(
        "reading the link graph",
        "SELECT id, collection, rel_path, title, source_hash FROM documents "
        f"WHERE active = 1 {where} ORDER BY collection, rel_path",
        params,
    )
    index = {r[0]: i for i, r in enumerate(rows)}
    position = index.get
    edges: list[tuple[int, int, str, str]] = []
    # Plain rows filtered by the position map (an inactive document or one of another
    # collection has none): no join with documents, no object per edge. Driven by
    # ``doc_links`` with each link's targets from ``link_targets``' own key (the planner
    # chose ``link_targets_dst``, then a key lookup per row for ``confidence``: ~1.8x).
    with translate_errors("reading the link graph"):
        for source, target, link_type, confidence in db.conn.cursor().execute(
            "SELECT l.doc_id, t.dst_doc_id, l.link_type, t.confidence "
            "FROM doc_links l CROSS JOIN link_targets t ON t.link_id = l.id"
        ):
            s = position(source)
            if s is not None:
                t = position(target)
                if t is not None:
                    edges.append((s, t, link_type, confidence))
    return LinkGraph(tuple(DocRef(r[1], r[2], r[3], r[4]) for r in rows), tuple(edges))


def adjacent(
    db: Rows, documents: Sequence[tuple[str, str]], relation: str | None = None
) -> list[Edge]:
    out: list[tuple[tuple[int, int, int], Edge]] = []
    refs: dict[int, DocRef] = {}
    seen: set[tuple[int, int, int]] = set()
    pairs = sorted(set(documents))
    for start in range(0, len(pairs), BATCH):
        for key, edge in _adjacent(db, pairs[start : start + BATCH], relation, refs):
            # An edge between two batches is found by both.
            if key not in seen:
                seen.add(key)
                out.append((key, edge))
    if len(pairs) > BATCH:
        out.sort(key=lambda item: item[0])
    return [edge for _, edge in out]


def degrees(
    db: Rows, documents: Sequence[tuple[str, str]], collection: str | None = None
) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    pairs = sorted(set(documents))
    # With a collection, both ends of a counted link are in it.
    inside, other = "", ""
    extra: tuple[str, ...] = ()
    if collection is not None:
        inside, other = " AND collection = ?", " AND o.collection = ?"
        extra = (collection,)
    for start in range(0, len(pairs), BATCH):
        batch = pairs[start : start + BATCH]
        values = ", ".join("(?, ?)" for _ in batch)
        wanted = [v for pair in batch for v in pair]
        # Each document's links out and in as (document, other end, link type, way):
        # UNION merges them per graph link, each half driven by its own index.
        sql = (
            "WITH wanted(id, collection, rel_path) AS (SELECT id, collection, rel_path "
            f"FROM documents WHERE active = 1 AND (collection, rel_path) IN (VALUES {values})"
            f"{inside}), "
            "touching(doc, other, kind, way) AS ("
            "SELECT l.doc_id, t.dst_doc_id, l.link_type, 0 FROM doc_links l "
            "CROSS JOIN link_targets t ON t.link_id = l.id "
            "WHERE l.doc_id IN (SELECT id FROM wanted) "
            "UNION SELECT t.dst_doc_id, l.doc_id, l.link_type, 1 FROM link_targets t "
            "CROSS JOIN doc_links l ON l.id = t.link_id "
            "WHERE t.dst_doc_id IN (SELECT id FROM wanted)) "
            "SELECT w.collection, w.rel_path, COUNT(*) FROM touching g "
            "JOIN wanted w ON w.id = g.doc JOIN documents o ON o.id = g.other "
            f"WHERE o.active = 1 AND g.other != g.doc{other} GROUP BY g.doc"
        )
        for c, path, count in db.rows("counting graph links", sql, (*wanted, *extra, *extra)):
            out[(c, path)] = int(count)
    return out


def _adjacent(
    db: Rows, pairs: Sequence[tuple[str, str]], relation: str | None, refs: dict[int, DocRef]
) -> list[tuple[tuple[int, int, int], Edge]]:
    values = ", ".join("(?, ?)" for _ in pairs)
    params: list[Any] = [v for pair in pairs for v in pair]
    where = ""
    if relation is not None:
        where = " AND l.relation = ?"
    columns = f"{EDGE_COLUMNS}, l.seq"
    by_source = (
        "FROM doc_links l CROSS JOIN documents s ON s.id = l.doc_id "
        "CROSS JOIN link_targets t ON t.link_id = l.id "
        "CROSS JOIN documents d ON d.id = t.dst_doc_id"
    )
    by_target = (
        "FROM link_targets t CROSS JOIN doc_links l ON l.id = t.link_id "
        "CROSS JOIN documents s ON s.id = l.doc_id "
        "CROSS JOIN documents d ON d.id = t.dst_doc_id"
    )
    # Two halves, each driven by its own index (doc_links by source, link_targets_dst by
    # target; the CROSS JOIN order pins it); UNION drops the rows both halves find. The
    # wanted ids come from the (collection, rel_path) key, activity checked on the rows.
    sql = (
        f"WITH wanted(id) AS (SELECT id FROM documents WHERE "
        f"(collection, rel_path) IN (VALUES {values})) "
        f"SELECT {columns} {by_source} WHERE l.doc_id IN wanted "
        f"AND s.active = 1 AND d.active = 1{where} "
        f"UNION SELECT {columns} {by_target} WHERE t.dst_doc_id IN wanted "
        f"AND s.active = 1 AND d.active = 1{where} "
        "ORDER BY 1, 15, 6"
    )
    if relation is not None:
        params += [relation, relation]

    with translate_errors("reading the link graph"):
        return [
            ((r[0], r[14], r[5]), read_edge(r, refs)) for r in db.conn.cursor().execute(sql, params)
        ]
