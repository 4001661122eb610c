"""``ApswLinks``: the ``LinkStore`` port over an open SQLite index. Its graph reads are in
``link_graph``, resolution in ``link_resolution``; the writes the ledger makes in its batches
(a document's links and names, pending marks) in ``link_writes``.

Tables (migration 0004): ``doc_links`` (one row per link, ``state`` pending | resolved |
ambiguous | unresolved | external), ``link_keys`` (link -> lookup names, indexed by name),
``link_targets`` (link -> resolved documents, indexed by target) and ``doc_names``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import partial

from gno_adapters.sqlite import link_graph, link_resolution
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.link_rows import BATCH, DECODER, LINK_COLUMNS, stored_link
from gno_adapters.sqlite.rows import Rows
from gno_core.domain import (
    AMBIGUOUS,
    DocRef,
    Edge,
    ExtractedLink,
    LinkCounts,
    LinkGraph,
    LinkRecord,
    LinkTarget,
    Mention,
    NameHit,
    PendingLink,
)
from gno_core.ports.links import BatchResolver, DocumentLinks

__all__ = ["ApswLinks"]

#: A backlink row (its 15 columns in ``Mention``'s field order) made a ``Mention`` in C:
#: ``Mention._make`` is a Python call per row, a fifth of the read of a hub's 2,500.
_MENTION = partial(tuple.__new__, Mention)


def _backlinks_to(
    collection: str, rel_path: str, source_collection: str | None
) -> tuple[str, tuple[object, ...]]:
    """The FROM .. ORDER BY of a backlink read (``s`` the linking document, ``l`` its link,
    ``t`` the resolution, ``d`` the linked one) and its parameters: the links of active
    documents, of ``source_collection`` only when given, to the active document at ``rel_path``."""
    sql = (
        "FROM documents d JOIN link_targets t ON t.dst_doc_id = d.id "
        "JOIN doc_links l ON l.id = t.link_id JOIN documents s ON s.id = l.doc_id "
        "WHERE d.collection = ? AND d.rel_path = ? AND d.active = 1 AND s.active = 1"
    )
    order = " ORDER BY s.collection, s.rel_path, l.seq"
    if source_collection is None:
        return sql + order, (collection, rel_path)
    return f"{sql} AND s.collection = ?{order}", (collection, rel_path, source_collection)


class ApswLinks:
    """Links of active documents, their resolutions and the resolution work queue."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows
        self._conn = rows.conn

    def outgoing(self, collection: str, rel_path: str) -> list[LinkRecord]:
        rows = self._db.rows(
            "reading links",
            f"SELECT l.id, d.collection, d.rel_path, d.title, d.source_hash, l.state, "
            f"{LINK_COLUMNS} FROM documents d JOIN doc_links l ON l.doc_id = d.id "
            "WHERE d.collection = ? AND d.rel_path = ? AND d.active = 1 ORDER BY l.seq",
            (collection, rel_path),
        )
        targets = self._targets([r[0] for r in rows])
        return [
            LinkRecord(
                source=DocRef(r[1], r[2], r[3], r[4]),
                link=stored_link(r[6:]),
                targets=targets.get(r[0], ()),
                state=r[5],
            )
            for r in rows
        ]

    def document_links(
        self, documents: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], DocumentLinks]:
        paths: dict[str, list[str]] = {}
        for collection, rel_path in dict.fromkeys(documents):
            paths.setdefault(collection, []).append(rel_path)
        found: dict[tuple[str, str], tuple[str, str, list[ExtractedLink]]] = {}
        decode = DECODER.decode
        for collection, wanted in paths.items():
            for start in range(0, len(wanted), BATCH):
                # One statement per batch: a document and its links are read together.
                for r in self._db.rows(
                    "reading links",
                    f"SELECT d.rel_path, d.source_hash, d.mirror_hash, l.keys, {LINK_COLUMNS} "
                    "FROM documents d LEFT JOIN doc_links l ON l.doc_id = d.id "
                    "WHERE d.collection = ? AND d.rel_path IN (SELECT value FROM json_each(?)) "
                    "AND d.active = 1 ORDER BY d.id, l.seq",
                    (collection, json.dumps(wanted[start : start + BATCH])),
                ):
                    entry = found.get((collection, r[0]))
                    if entry is None:
                        entry = found[(collection, r[0])] = (r[1], r[2], [])
                    if r[3] is not None:
                        entry[2].append(stored_link(r[4:], tuple(decode(r[3]))))
        return {
            key: DocumentLinks(source_hash, mirror, tuple(links))
            for key, (source_hash, mirror, links) in found.items()
        }

    def _targets(self, link_ids: list[int]) -> dict[int, tuple[LinkTarget, ...]]:
        out: dict[int, list[LinkTarget]] = {}
        for start in range(0, len(link_ids), BATCH):
            batch = link_ids[start : start + BATCH]
            marks = ",".join("?" * len(batch))
            for link_id, coll, rel, title, source_hash, confidence, method in self._db.rows(
                "reading link targets",
                # CROSS JOIN keeps the link ids as the outer loop (the planner would otherwise
                # scan documents on a large index).
                "SELECT t.link_id, d.collection, d.rel_path, d.title, d.source_hash, "
                "t.confidence, t.method FROM link_targets t CROSS JOIN documents d ON d.id = "
                f"t.dst_doc_id WHERE t.link_id IN ({marks}) AND d.active = 1 "
                "ORDER BY t.link_id, d.collection, d.rel_path",
                tuple(batch),
            ):
                out.setdefault(link_id, []).append(
                    LinkTarget(DocRef(coll, rel, title, source_hash), confidence, method)
                )
        return {k: tuple(v) for k, v in out.items()}

    def incoming(
        self, collection: str, rel_path: str, source_collection: str | None = None
    ) -> list[LinkRecord]:
        tail, params = _backlinks_to(collection, rel_path, source_collection)
        rows = self._db.rows(
            "reading backlinks",
            "SELECT s.collection, s.rel_path, s.title, s.source_hash, l.state, "
            f"{LINK_COLUMNS}, t.confidence, t.method, d.title, d.source_hash {tail}",
            params,
        )
        if not rows:
            return []
        target = DocRef(collection, rel_path, rows[0][-2], rows[0][-1])
        # A hub has thousands of backlinks and a handful of distinct resolutions.
        resolutions: dict[tuple[str, str], tuple[LinkTarget, ...]] = {}
        out: list[LinkRecord] = []
        for r in rows:
            how = (r[21], r[22])
            targets = resolutions.get(how)
            if targets is None:
                targets = resolutions[how] = (LinkTarget(target, r[21], r[22]),)
            out.append(
                LinkRecord(DocRef(r[0], r[1], r[2], r[3]), stored_link(r[5:21]), targets, r[4])
            )
        return out

    def mentions(
        self, collection: str, rel_path: str, source_collection: str | None = None
    ) -> list[Mention]:
        tail, params = _backlinks_to(collection, rel_path, source_collection)
        # Only the columns a backlink shows, each row made a ``Mention`` as it comes.
        with translate_errors("reading backlinks"):
            rows = self._conn.cursor().execute(
                "SELECT s.collection, s.rel_path, s.title, s.source_hash, l.link_text, "
                "l.link_type, l.edge_source, l.relation, l.target_anchor, l.start_line, "
                f"l.start_col, l.end_line, l.end_col, t.confidence, l.context {tail}",
                params,
            )
            return list(map(_MENTION, rows))

    def unresolved(self, collection: str | None = None, limit: int = 100) -> list[LinkRecord]:
        where, params = ("AND s.collection = ?", (collection,)) if collection else ("", ())
        rows = self._db.rows(
            "reading unresolved links",
            f"SELECT s.collection, s.rel_path, s.title, s.source_hash, l.state, {LINK_COLUMNS} "
            "FROM doc_links l JOIN documents s ON s.id = l.doc_id "
            f"WHERE s.active = 1 AND l.state = 'unresolved' {where} "
            "ORDER BY s.collection, s.rel_path, l.seq LIMIT ?",
            (*params, max(limit, 0)),
        )
        return [
            LinkRecord(DocRef(r[0], r[1], r[2], r[3]), stored_link(r[5:]), (), r[4]) for r in rows
        ]

    def crowded(self, count: int) -> list[tuple[str, str]]:
        # One probe of the (doc_id, seq) index per active document: no scan of the links.
        rows = self._db.rows(
            "finding crowded documents",
            "SELECT d.collection, d.rel_path FROM documents d WHERE d.active = 1 AND EXISTS "
            "(SELECT 1 FROM doc_links l WHERE l.doc_id = d.id AND l.seq >= ?) "
            "ORDER BY d.collection, d.rel_path",
            (max(count, 1) - 1,),
        )
        return [(r[0], r[1]) for r in rows]

    def counts(self, collection: str | None = None) -> LinkCounts:
        where, params = ("AND s.collection = ?", (collection,)) if collection else ("", ())
        states = dict(
            self._db.rows(
                "counting links",
                "SELECT l.state, COUNT(*) FROM doc_links l JOIN documents s ON s.id = l.doc_id "
                f"WHERE s.active = 1 {where} GROUP BY l.state",
                params,
            )
        )
        relations = self._db.rows(
            "counting edge types",
            "SELECT l.relation, COUNT(*) FROM doc_links l JOIN documents s ON s.id = l.doc_id "
            f"WHERE s.active = 1 AND l.state IN ('resolved', 'ambiguous') {where} "
            "GROUP BY l.relation ORDER BY 2 DESC, 1",
            params,
        )
        # Each link's surest target (ambiguous links under their own name), counted inside
        # SQLite: one row per confidence level, not one per link.
        by_confidence: dict[str, int] = dict(
            self._db.rows(
                "counting confidence",
                "SELECT level, COUNT(*) FROM (SELECT CASE WHEN l.state = 'ambiguous' THEN ? "
                "ELSE MIN(t.confidence) END AS level FROM doc_links l JOIN documents s "
                "ON s.id = l.doc_id JOIN link_targets t ON t.link_id = l.id WHERE s.active = 1 "
                f"AND l.state IN ('resolved', 'ambiguous') {where} GROUP BY l.id) GROUP BY level",
                (AMBIGUOUS, *params),
            )
        )
        return LinkCounts(
            links=sum(states.values()),
            resolved=states.get("resolved", 0),
            ambiguous=states.get("ambiguous", 0),
            unresolved=states.get("unresolved", 0),
            external=states.get("external", 0),
            pending=states.get("pending", 0),
            edge_types=tuple((str(r), int(n)) for r, n in relations),
            confidence=tuple(sorted(by_confidence.items(), key=lambda kv: (-kv[1], kv[0]))),
        )

    def pending(self, limit: int) -> list[PendingLink]:
        rows = self._db.rows(
            "reading pending links",
            f"SELECT l.id, d.collection, d.rel_path, d.title, d.source_hash, l.keys, "
            # CROSS JOIN: the pending links in id order (their partial index) drive the read;
            # the planner would otherwise read and sort every link of every active document
            # once per batch.
            f"{LINK_COLUMNS} FROM doc_links l CROSS JOIN documents d ON d.id = l.doc_id "
            "WHERE l.state = 'pending' AND d.active = 1 ORDER BY l.id LIMIT ?",
            (max(limit, 0),),
        )
        # A document's links come together: one ``DocRef`` each, and one decoder call per link.
        refs: dict[tuple[str, str], DocRef] = {}
        decode = DECODER.decode
        out: list[PendingLink] = []
        for r in rows:
            source = refs.get((r[1], r[2]))
            if source is None:
                source = refs[(r[1], r[2])] = DocRef(r[1], r[2], r[3], r[4])
            out.append(PendingLink(r[0], source, stored_link(r[6:], tuple(decode(r[5])))))
        return out

    def candidates(self, collection: str, keys: Sequence[str]) -> list[NameHit]:
        wanted = sorted(set(keys))
        out: list[NameHit] = []
        for start in range(0, len(wanted), BATCH):
            batch = wanted[start : start + BATCH]
            marks = ",".join("?" * len(batch))
            for kind, key, coll, rel, title, source_hash in self._db.rows(
                "reading document names",
                # CROSS JOIN keeps the names (found by their key index) as the outer loop:
                # the planner would otherwise walk every active document of the index once
                # per statement.
                "SELECT n.kind, n.key, d.collection, d.rel_path, d.title, d.source_hash "
                "FROM doc_names n CROSS JOIN documents d ON d.id = n.doc_id "
                f"WHERE n.key IN ({marks}) AND d.collection = ? AND d.active = 1",
                (*batch, collection),
            ):
                out.append(NameHit(DocRef(coll, rel, title, source_hash), kind, key))
        return out

    def resolve_pending(self, resolve: BatchResolver, batch: int) -> int:
        return link_resolution.resolve_pending(self._conn, resolve, batch)

    def edges(self, collection: str | None = None, relation: str | None = None) -> Iterator[Edge]:
        return link_graph.edges(self._db, collection, relation)

    def graph(self, collection: str | None = None) -> LinkGraph:
        return link_graph.graph(self._db, collection)

    def adjacent(
        self, documents: Sequence[tuple[str, str]], relation: str | None = None
    ) -> list[Edge]:
        return link_graph.adjacent(self._db, documents, relation)

    def degrees(
        self, documents: Sequence[tuple[str, str]], collection: str | None = None
    ) -> dict[tuple[str, str], int]:
        return link_graph.degrees(self._db, documents, collection)
