"""``ApswLinks``: the ``LinkStore`` port over an open SQLite index, and the writes the ledger
makes in its batches (a document's links and names, and the pending marks of links whose
candidate targets changed).

Tables (migration 0004): ``doc_links`` (one row per link, ``state`` pending | resolved |
ambiguous | unresolved | external), ``link_keys`` (link -> lookup names, indexed by name),
``link_targets`` (link -> resolved documents, indexed by target) and ``doc_names``.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from operator import attrgetter, itemgetter
from typing import Any

import apsw

from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.errors import translate_errors
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
    NameKey,
    PendingLink,
)
from gno_core.links.names import strip_markdown_extension
from gno_core.ports.links import DocumentLinks, NamedDoc, PendingRow

__all__ = [
    "ApswLinks",
    "mark_keys_pending",
    "mark_links_of_pending",
    "replace_document_names",
    "write_links",
]

#: The fields of ``ExtractedLink`` before ``keys``, in order: the ``doc_links`` columns a link
#: is written to (``write_links``) and read back from (``_LINK_COLUMNS``, then ``_link``).
_LINK_FIELDS = (
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
_LINK_COLUMNS = ", ".join(f"l.{name}" for name in _LINK_FIELDS)
#: A link's ``_LINK_FIELDS`` as one tuple made in C (``external`` and ``embed`` are bools,
#: which SQLite stores as the integers 1 and 0).
_link_values = attrgetter(*_LINK_FIELDS)
#: A graph link's columns (``_edge`` makes the ``Edge``): its source and target documents
#: (``s``, ``d``) and the link (``l``) with its resolution (``t``).
_EDGE_COLUMNS = (
    "s.id, s.collection, s.rel_path, s.title, s.source_hash, d.id, d.collection, "
    "d.rel_path, d.title, d.source_hash, l.relation, l.link_type, l.edge_source, t.confidence"
)
_DECODER = json.JSONDecoder()
#: ``json.dumps(keys, ensure_ascii=False)`` without building an encoder per link.
_KEYS_JSON = json.JSONEncoder(ensure_ascii=False)
#: Names per statement: well under SQLite's bound-parameter limit.
_BATCH = 500
#: A backlink row (its 15 columns in ``Mention``'s field order) made a ``Mention`` in C:
#: ``Mention._make`` is a Python call per row, a fifth of the read of a hub's 2,500.
_MENTION = partial(tuple.__new__, Mention)
#: ``(link_id, key)`` rows of ``link_keys`` by their key.
_by_key = itemgetter(1)


def _link(row: Sequence[Any], keys: tuple[str, ...] = ()) -> ExtractedLink:
    # ``_LINK_COLUMNS`` are the fields of ``ExtractedLink`` in order: built positionally
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


def _edge(row: Sequence[Any], refs: dict[int, DocRef]) -> Edge:
    """The ``Edge`` of a row of ``_EDGE_COLUMNS``; ``refs`` keeps each document's ``DocRef``,
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


def _keys_json(keys: tuple[str, ...], encode: Any = _KEYS_JSON.encode) -> str:
    """``json.dumps(list(keys), ensure_ascii=False)``; written by hand when no key needs an
    escape (a quote, a backslash, a control character): once per link of a sync."""
    plain = "".join(keys)
    if '"' in plain or "\\" in plain or not plain.isprintable():
        return str(encode(list(keys)))
    return '["' + '", "'.join(keys) + '"]' if keys else "[]"


#: The pending wiki links ``[[Name]]`` whose only lookup key is their target lowercased: no
#: alias, collection, ``/`` or Markdown extension, nothing that folding changes beyond ASCII
#: case (``plain`` rows: link id, source collection, target, key). For these the path the
#: rules try is the target itself, so rules 1-2 are two joins (``resolve_plain_names``).
_PLAIN = (
    "WITH plain(id, scope, target, key) AS (SELECT l.id, d.collection, l.target_ref, "
    "lower(l.target_ref) FROM doc_links l CROSS JOIN documents d ON d.id = l.doc_id "
    "WHERE l.state = 'pending' AND d.active = 1 AND l.link_type = 'wiki' AND l.external = 0 "
    "AND l.alias IS NULL AND l.target_collection IS NULL AND l.target_ref != '' "
    "AND instr(l.target_ref, '/') = 0 AND l.keys = '[\"' || lower(l.target_ref) || '\"]')"
)


#: The other pending links whose collection path SQL can spell (``path`` rows: link id, source
#: collection, path, keys JSON), for rule 1 alone: wiki links ``[[folder/Name]]`` and
#: ``[[folder/Name|label]]`` (no collection, no ``.`` in the target; a label without ``#``,
#: ``.`` or ``dendron://``, so the target half is tried first) and Markdown links relative to
#: their note, ``(Name.md)`` / ``(../folder/Name.md)`` (no ``//``, ``./``, trailing ``/`` or
#: ``..`` but one leading ``../``, no leading ``/``). ``path`` is ``collection_path`` of the target
#: for these forms; the link's first lookup key must be it in lower case (so a form spelled
#: otherwise by the rules is left to them, and the key is the fold of an ASCII-case path).
#: Both steps MATERIALIZED: each expression once per link (inlined, ~3x the time).
_PATHS = (
    "WITH linked(id, scope, target, link_type, keys, folder) AS MATERIALIZED (SELECT l.id, d.collection, "
    "l.target_ref, l.link_type, l.keys, rtrim(d.rel_path, replace(d.rel_path, '/', '')) "
    "FROM doc_links l CROSS JOIN documents d ON d.id = l.doc_id "
    "WHERE l.state = 'pending' AND d.active = 1 AND l.external = 0 "
    "AND l.target_collection IS NULL AND l.target_ref != '' "
    "AND substr(l.target_ref, 1, 1) != '/' AND substr(l.target_ref, -1, 1) != '/' "
    "AND instr(l.target_ref, '//') = 0 AND instr(l.target_ref, '/./') = 0 "
    "AND substr(l.target_ref, 1, 2) != './' AND NOT EXISTS "
    "(SELECT 1 FROM temp.plain_links p WHERE p.id = l.id) AND ("
    "(l.link_type = 'wiki' AND instr(l.target_ref, '.') = 0 AND (l.alias IS NULL OR ("
    "instr(l.alias, '#') = 0 AND instr(l.alias, '.') = 0 "
    "AND substr(l.alias, 1, 10) != 'dendron://'))) "
    "OR (l.link_type = 'markdown' AND instr(CASE WHEN substr(l.target_ref, 1, 3) = '../' "
    "THEN substr(l.target_ref, 4) ELSE l.target_ref END, '..') = 0 "
    "AND substr(l.target_ref, -2) != '/.'))), "
    "path(id, scope, path, keys) AS MATERIALIZED (SELECT id, scope, CASE "
    "WHEN link_type = 'wiki' THEN target "
    "WHEN substr(target, 1, 3) != '../' THEN folder || target "
    "WHEN folder = '' THEN NULL "
    "ELSE rtrim(substr(folder, 1, length(folder) - 1), "
    "replace(substr(folder, 1, length(folder) - 1), '/', '')) || substr(target, 4) END, keys "
    "FROM linked) "
    "SELECT id, scope, path, keys FROM path WHERE path IS NOT NULL AND path != '' "
    "AND substr(keys, 1, length(path) + 4) IN ('[\"' || lower(path) || '\"]', "
    "'[\"' || lower(path) || '\",')"
)


def _stem(*args: Any) -> str:
    """``gno_stem(rel_path)``: the file name without its Markdown extension, as rule 2
    compares it."""
    return posixpath.basename(strip_markdown_extension(str(args[0])))


def _initial_state(link: ExtractedLink) -> str:
    if link.external:
        return "external"
    return "pending" if link.keys else "unresolved"


def write_links(
    conn: apsw.Connection, documents: Sequence[tuple[int, Sequence[ExtractedLink], bool]]
) -> None:
    """Replace the links of the ``(doc_id, links, new)`` documents of one batch (``new``: a
    row just inserted, which has none); every new link waits for resolution. Written with a
    few statements for the whole batch: the link ids are given, not read back (the next ids
    after the largest, inside the batch's write transaction)."""
    latest: dict[int, tuple[Sequence[ExtractedLink], bool]] = {}
    for doc_id, links, new in documents:
        # A document written twice in one batch keeps its last links.
        latest[doc_id] = (links, new and doc_id not in latest)
    old = [(doc_id,) for doc_id, (_, new) in latest.items() if not new]
    if old:
        conn.executemany("DELETE FROM doc_links WHERE doc_id = ?", old)
    if not any(links for links, _ in latest.values()):
        return
    row = conn.execute("SELECT MAX(id) FROM doc_links").fetchone()
    next_id = int(row[0] or 0) + 1 if row else 1
    rows: list[tuple[object, ...]] = []
    keys: list[tuple[int, str]] = []
    for doc_id, (links, _) in latest.items():
        for k in links:
            rows.append((next_id, doc_id, *_link_values(k), _keys_json(k.keys), _initial_state(k)))
            keys.extend((next_id, key) for key in dict.fromkeys(k.keys))
            next_id += 1
    conn.executemany(
        f"INSERT INTO doc_links(id, doc_id, {', '.join(_LINK_FIELDS)}, keys, state) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    # In key order: the inserts into the key-ordered index ``link_keys_key`` (about two keys
    # per link, spread over the whole name space) then walk it forward instead of jumping
    # about it once per key.
    keys.sort(key=_by_key)
    conn.executemany("INSERT INTO link_keys(link_id, key) VALUES (?, ?)", keys)


def replace_document_names(
    conn: apsw.Connection,
    doc_id: int,
    names: Sequence[NameKey],
    was_active: bool,
    marks: set[str],
    *,
    new: bool = False,
) -> None:
    """Store the names of a document; when they differ from what an active document had (or
    the document was not active), its old and new names are added to ``marks``: the keys whose
    links the caller marks pending (``mark_keys_pending``, once per batch). ``new``: a row just
    inserted, which has no names yet (two statements fewer per note of a first sync)."""
    old: set[tuple[str, str]] = set()
    if not new:
        old = {
            (kind, key)
            for kind, key in conn.execute(
                "SELECT kind, key FROM doc_names WHERE doc_id = ?", (doc_id,)
            )
        }
    given = {(n.kind, n.key) for n in names}
    if old != given:
        if old:
            conn.execute("DELETE FROM doc_names WHERE doc_id = ?", (doc_id,))
        conn.executemany(
            "INSERT OR IGNORE INTO doc_names(doc_id, kind, key) VALUES (?, ?, ?)",
            [(doc_id, kind, key) for kind, key in given],
        )
    if old != given or not was_active:
        marks.update(key for _, key in old | given)


def mark_keys_pending(conn: apsw.Connection, keys: Iterable[str]) -> None:
    """Mark pending the settled links that carry any of ``keys``."""
    wanted = sorted(set(keys))
    for start in range(0, len(wanted), _BATCH):
        batch = wanted[start : start + _BATCH]
        marks = ",".join("?" * len(batch))
        # Links already pending (every link during a first sync) are left out by their id in
        # the small partial index ``doc_links_pending`` rather than by reading their rows
        # from the table, which a large vault's page cache does not hold.
        conn.execute(
            "UPDATE doc_links SET state = 'pending' WHERE state NOT IN ('pending', 'external') "
            f"AND id IN (SELECT k.link_id FROM link_keys k WHERE k.key IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM doc_links p INDEXED BY doc_links_pending "
            "WHERE p.state = 'pending' AND p.id = k.link_id))",
            tuple(batch),
        )


def mark_names_pending(conn: apsw.Connection, doc_id: int) -> None:
    """A document appeared or went: the links that could name it are resolved again."""
    mark_keys_pending(
        conn, [r[0] for r in conn.execute("SELECT key FROM doc_names WHERE doc_id = ?", (doc_id,))]
    )


def mark_links_of_pending(conn: apsw.Connection, doc_id: int) -> None:
    """The links written in a document are resolved again (it came back after removal)."""
    conn.execute(
        "UPDATE doc_links SET state = 'pending' WHERE doc_id = ? AND state NOT IN "
        "('pending', 'external') AND keys != '[]'",
        (doc_id,),
    )


class ApswLinks:
    """Links of active documents, their resolutions and the resolution work queue."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows
        self._conn = rows.conn

    def outgoing(self, collection: str, rel_path: str) -> list[LinkRecord]:
        rows = self._db.rows(
            "reading links",
            f"SELECT l.id, d.collection, d.rel_path, d.title, d.source_hash, l.state, "
            f"{_LINK_COLUMNS} FROM documents d JOIN doc_links l ON l.doc_id = d.id "
            "WHERE d.collection = ? AND d.rel_path = ? AND d.active = 1 ORDER BY l.seq",
            (collection, rel_path),
        )
        targets = self._targets([r[0] for r in rows])
        return [
            LinkRecord(
                source=DocRef(r[1], r[2], r[3], r[4]),
                link=_link(r[6:]),
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
        decode = _DECODER.decode
        for collection, wanted in paths.items():
            for start in range(0, len(wanted), _BATCH):
                # One statement per batch: a document and its links are read together.
                for r in self._db.rows(
                    "reading links",
                    f"SELECT d.rel_path, d.source_hash, d.mirror_hash, l.keys, {_LINK_COLUMNS} "
                    "FROM documents d LEFT JOIN doc_links l ON l.doc_id = d.id "
                    "WHERE d.collection = ? AND d.rel_path IN (SELECT value FROM json_each(?)) "
                    "AND d.active = 1 ORDER BY d.id, l.seq",
                    (collection, json.dumps(wanted[start : start + _BATCH])),
                ):
                    entry = found.get((collection, r[0]))
                    if entry is None:
                        entry = found[(collection, r[0])] = (r[1], r[2], [])
                    if r[3] is not None:
                        entry[2].append(_link(r[4:], tuple(decode(r[3]))))
        return {
            key: DocumentLinks(source_hash, mirror, tuple(links))
            for key, (source_hash, mirror, links) in found.items()
        }

    def _targets(self, link_ids: list[int]) -> dict[int, tuple[LinkTarget, ...]]:
        out: dict[int, list[LinkTarget]] = {}
        for start in range(0, len(link_ids), _BATCH):
            batch = link_ids[start : start + _BATCH]
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
            f"{_LINK_COLUMNS}, t.confidence, t.method, d.title, d.source_hash {tail}",
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
            out.append(LinkRecord(DocRef(r[0], r[1], r[2], r[3]), _link(r[5:21]), targets, r[4]))
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

    def edges(self, collection: str | None = None, relation: str | None = None) -> Iterator[Edge]:
        where, params = ("AND s.collection = ?", (collection,)) if collection else ("", ())
        if relation is not None:
            where, params = where + " AND l.relation = ?", (*params, relation)
        # Driven by doc_links in (doc_id, seq) order (its unique index): no sort, and each
        # document's DocRef is built once however many edges it has.
        sql = (
            f"SELECT {_EDGE_COLUMNS} FROM doc_links l CROSS JOIN documents s ON s.id = l.doc_id "
            "CROSS JOIN link_targets t ON t.link_id = l.id "
            "CROSS JOIN documents d ON d.id = t.dst_doc_id "
            f"WHERE s.active = 1 AND d.active = 1 {where} ORDER BY l.doc_id, l.seq, t.dst_doc_id"
        )
        refs: dict[int, DocRef] = {}
        with translate_errors("reading the link graph"):
            for r in self._conn.cursor().execute(sql, params):
                yield _edge(r, refs)

    def graph(self, collection: str | None = None) -> LinkGraph:
        where, params = ("AND collection = ?", (collection,)) if collection else ("", ())
        rows = self._db.rows(
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
            for source, target, link_type, confidence in self._conn.cursor().execute(
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
        self, documents: Sequence[tuple[str, str]], relation: str | None = None
    ) -> list[Edge]:
        out: list[tuple[tuple[int, int, int], Edge]] = []
        refs: dict[int, DocRef] = {}
        seen: set[tuple[int, int, int]] = set()
        pairs = sorted(set(documents))
        for start in range(0, len(pairs), _BATCH):
            for key, edge in self._adjacent(pairs[start : start + _BATCH], relation, refs):
                # An edge between two batches is found by both.
                if key not in seen:
                    seen.add(key)
                    out.append((key, edge))
        if len(pairs) > _BATCH:
            out.sort(key=lambda item: item[0])
        return [edge for _, edge in out]

    def degrees(
        self, documents: Sequence[tuple[str, str]], collection: str | None = None
    ) -> dict[tuple[str, str], int]:
        out: dict[tuple[str, str], int] = {}
        pairs = sorted(set(documents))
        # With a collection, both ends of a counted link are in it.
        inside, other = "", ""
        extra: tuple[str, ...] = ()
        if collection is not None:
            inside, other = " AND collection = ?", " AND o.collection = ?"
            extra = (collection,)
        for start in range(0, len(pairs), _BATCH):
            batch = pairs[start : start + _BATCH]
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
            for c, path, count in self._db.rows(
                "counting graph links", sql, (*wanted, *extra, *extra)
            ):
                out[(c, path)] = int(count)
        return out

    def _adjacent(
        self, pairs: Sequence[tuple[str, str]], relation: str | None, refs: dict[int, DocRef]
    ) -> list[tuple[tuple[int, int, int], Edge]]:
        values = ", ".join("(?, ?)" for _ in pairs)
        params: list[Any] = [v for pair in pairs for v in pair]
        where = ""
        if relation is not None:
            where = " AND l.relation = ?"
        columns = f"{_EDGE_COLUMNS}, l.seq"
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
                ((r[0], r[14], r[5]), _edge(r, refs))
                for r in self._conn.cursor().execute(sql, params)
            ]

    def unresolved(self, collection: str | None = None, limit: int = 100) -> list[LinkRecord]:
        where, params = ("AND s.collection = ?", (collection,)) if collection else ("", ())
        rows = self._db.rows(
            "reading unresolved links",
            f"SELECT s.collection, s.rel_path, s.title, s.source_hash, l.state, {_LINK_COLUMNS} "
            "FROM doc_links l JOIN documents s ON s.id = l.doc_id "
            f"WHERE s.active = 1 AND l.state = 'unresolved' {where} "
            "ORDER BY s.collection, s.rel_path, l.seq LIMIT ?",
            (*params, max(limit, 0)),
        )
        return [LinkRecord(DocRef(r[0], r[1], r[2], r[3]), _link(r[5:]), (), r[4]) for r in rows]

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
            f"{_LINK_COLUMNS} FROM doc_links l CROSS JOIN documents d ON d.id = l.doc_id "
            "WHERE l.state = 'pending' AND d.active = 1 ORDER BY l.id LIMIT ?",
            (max(limit, 0),),
        )
        # A document's links come together: one ``DocRef`` each, and one decoder call per link.
        refs: dict[tuple[str, str], DocRef] = {}
        decode = _DECODER.decode
        out: list[PendingLink] = []
        for r in rows:
            source = refs.get((r[1], r[2]))
            if source is None:
                source = refs[(r[1], r[2])] = DocRef(r[1], r[2], r[3], r[4])
            out.append(PendingLink(r[0], source, _link(r[6:], tuple(decode(r[5])))))
        return out

    def candidates(self, collection: str, keys: Sequence[str]) -> list[NameHit]:
        wanted = sorted(set(keys))
        out: list[NameHit] = []
        for start in range(0, len(wanted), _BATCH):
            batch = wanted[start : start + _BATCH]
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

    def pending_rows(self, limit: int) -> list[PendingRow]:
        # ``raw_decode``: the column holds one JSON list this module wrote, nothing around it.
        decode = _DECODER.raw_decode
        with translate_errors("reading pending links"):
            return [
                PendingRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], tuple(decode(r[7])[0]))
                for r in self._conn.cursor().execute(
                    "SELECT l.id, d.collection, d.rel_path, l.link_type, l.target_ref, l.alias, "
                    # CROSS JOIN: as in ``pending``.
                    "l.target_collection, l.keys FROM doc_links l CROSS JOIN documents d "
                    "ON d.id = l.doc_id WHERE l.state = 'pending' AND d.active = 1 "
                    "ORDER BY l.id LIMIT ?",
                    (max(limit, 0),),
                )
            ]

    def name_rows(self, collection: str, keys: Sequence[str]) -> list[tuple[str, str, NamedDoc]]:
        wanted = sorted(set(keys))
        out: list[tuple[str, str, NamedDoc]] = []
        with translate_errors("reading document names"):
            for start in range(0, len(wanted), _BATCH):
                batch = wanted[start : start + _BATCH]
                marks = ",".join("?" * len(batch))
                out.extend(
                    (kind, key, NamedDoc(doc_id, coll, rel))
                    for kind, key, doc_id, coll, rel in self._conn.cursor().execute(
                        # CROSS JOIN: as in ``candidates``.
                        "SELECT n.kind, n.key, d.id, d.collection, d.rel_path FROM doc_names n "
                        f"CROSS JOIN documents d ON d.id = n.doc_id WHERE n.key IN ({marks}) "
                        "AND d.collection = ? AND d.active = 1",
                        (*batch, collection),
                    )
                )
        return out

    def resolve_plain_names(self) -> int:
        with translate_errors("resolving links"), write_transaction(self._conn):
            conn = self._conn
            conn.create_scalar_function("gno_stem", _stem, 1, deterministic=True)
            conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS plain_links(id INTEGER PRIMARY KEY, "
                "scope TEXT NOT NULL, target TEXT NOT NULL, key TEXT NOT NULL); "
                "CREATE TEMP TABLE IF NOT EXISTS plain_found(link_id INTEGER NOT NULL, "
                "doc_id INTEGER NOT NULL, method TEXT NOT NULL); "
                "CREATE INDEX IF NOT EXISTS temp.plain_found_link ON plain_found(link_id); "
                "DELETE FROM temp.plain_found; DELETE FROM temp.plain_links"
            )
            # The plain links, read once from the (large) link table for both rules.
            conn.execute(f"{_PLAIN} INSERT INTO temp.plain_links SELECT * FROM plain")
            # Rule 1: a document at the path, as written or with a Markdown extension (each
            # carries the link's key as its path name; the EXISTS keeps that a fact).
            conn.execute(
                "INSERT INTO temp.plain_found SELECT p.id, t.id, 'path' FROM temp.plain_links p "
                "CROSS JOIN documents t WHERE t.collection = p.scope AND t.rel_path IN "
                "(p.target, p.target || '.md', p.target || '.markdown', p.target || '.mdx') "
                # ``+``: found by (collection, rel_path), not by walking the active documents.
                "AND +t.active = 1 AND EXISTS (SELECT 1 FROM doc_names n WHERE n.doc_id = t.id "
                "AND n.kind = 'path' AND n.key = p.key)"
            )
            # Rule 2, for the links rule 1 did not settle: the file name, same case.
            conn.execute(
                "INSERT INTO temp.plain_found SELECT p.id, t.id, 'name' FROM temp.plain_links p "
                "CROSS JOIN doc_names n CROSS JOIN documents t WHERE n.key = p.key "
                "AND n.kind = 'stem' AND t.id = n.doc_id AND t.collection = p.scope "
                "AND t.active = 1 AND gno_stem(t.rel_path) = p.target AND NOT EXISTS "
                "(SELECT 1 FROM temp.plain_found f WHERE f.link_id = p.id)"
            )
            # Rule 1 for the links whose path SQL spells (``_PATHS``): the first rule the
            # rules try for them; the ones it does not settle stay pending for the rules.
            conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS path_links(id INTEGER PRIMARY KEY, "
                "scope TEXT NOT NULL, path TEXT NOT NULL, keys TEXT NOT NULL); "
                f"DELETE FROM temp.path_links; INSERT INTO temp.path_links {_PATHS}"
            )
            conn.execute(
                "INSERT INTO temp.plain_found SELECT p.id, t.id, 'path' FROM temp.path_links p "
                "CROSS JOIN documents t WHERE t.collection = p.scope AND t.rel_path IN "
                "(p.path, p.path || '.md', p.path || '.markdown', p.path || '.mdx') "
                "AND +t.active = 1 AND EXISTS (SELECT 1 FROM doc_names n WHERE n.doc_id = t.id "
                "AND n.kind = 'path' AND n.key IN (SELECT value FROM json_each(p.keys)))"
            )
            conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS plain_count(link_id INTEGER PRIMARY KEY, "
                "n INTEGER NOT NULL); DELETE FROM temp.plain_count; "
                "INSERT INTO temp.plain_count SELECT link_id, COUNT(*) FROM temp.plain_found "
                "GROUP BY link_id; "
                "DELETE FROM link_targets WHERE link_id IN (SELECT link_id FROM temp.plain_count); "
                # One document: explicit; several: ambiguous, all kept (``resolve._decide``).
                "INSERT OR IGNORE INTO link_targets(link_id, dst_doc_id, confidence, method) "
                "SELECT f.link_id, f.doc_id, CASE WHEN c.n > 1 THEN 'ambiguous' ELSE "
                "'explicit' END, f.method FROM temp.plain_found f CROSS JOIN temp.plain_count c "
                "ON c.link_id = f.link_id ORDER BY f.link_id; "
                "UPDATE doc_links SET state = CASE WHEN (SELECT n FROM temp.plain_count c "
                "WHERE c.link_id = doc_links.id) > 1 THEN 'ambiguous' ELSE 'resolved' END "
                "WHERE id IN (SELECT link_id FROM temp.plain_count)"
            )
            row = conn.execute("SELECT COUNT(*) FROM temp.plain_count").fetchone()
            conn.execute(
                "DELETE FROM temp.plain_found; DELETE FROM temp.plain_count; "
                "DELETE FROM temp.plain_links; DELETE FROM temp.path_links"
            )
        return int(row[0]) if row else 0

    def record_targets(self, results: Sequence[tuple[int, Sequence[tuple[int, str, str]]]]) -> None:
        if not results:
            return
        # The links' targets replaced and their states set, a few statements for all.
        by_state: dict[str, list[int]] = {"resolved": [], "ambiguous": [], "unresolved": []}
        for link_id, targets in results:
            n = len(targets)
            by_state["unresolved" if not n else "ambiguous" if n > 1 else "resolved"].append(
                link_id
            )
        ids = [i for i, _ in results]
        conn = self._conn
        with translate_errors("recording link resolutions"), write_transaction(conn):
            for start in range(0, len(ids), _BATCH):
                batch = ids[start : start + _BATCH]
                conn.execute(
                    f"DELETE FROM link_targets WHERE link_id IN ({','.join('?' * len(batch))})",
                    tuple(batch),
                )
            conn.executemany(
                "INSERT OR IGNORE INTO link_targets(link_id, dst_doc_id, confidence, method) "
                "VALUES (?, ?, ?, ?)",
                [(link_id, *t) for link_id, targets in results for t in targets],
            )
            for state, links in by_state.items():
                for start in range(0, len(links), _BATCH):
                    batch = links[start : start + _BATCH]
                    marks = ",".join("?" * len(batch))
                    conn.execute(
                        f"UPDATE doc_links SET state = ? WHERE id IN ({marks})", (state, *batch)
                    )
