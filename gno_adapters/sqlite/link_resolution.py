"""Link resolution in the SQLite index (``ApswLinks.resolve_pending``): the links SQL can
settle by rules 1-2 of ``gno_core.links.resolve`` settled in bulk inside SQLite, then the rest
read in batches with the names their keys hit, handed to the shared rules, and their answers
recorded."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import Any

import apsw

from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.link_rows import BATCH, DECODER
from gno_core.ports.links import BatchResolver, NamedDoc, NameRow, PendingRow, Resolution
from gno_core.text.names import strip_markdown_extension

__all__ = ["resolve_pending"]


def resolve_pending(conn: apsw.Connection, resolve: BatchResolver, batch: int) -> int:
    """``LinkStore.resolve_pending``: the bulk step, then the rules over the rest."""
    done = settle_in_bulk(conn)
    while pending := pending_rows(conn, batch):
        wanted: dict[str, set[str]] = {}
        for row in pending:
            wanted.setdefault(row.scope, set()).update(row.keys)
        names: list[NameRow] = []
        for scope, keys in wanted.items():
            names.extend(name_rows(conn, scope, sorted(keys)))
        record_targets(conn, resolve(pending, names))
        done += len(pending)
    return done


#: The pending wiki links ``[[Name]]`` whose only lookup key is their target lowercased: no
#: alias, collection, ``/`` or Markdown extension, nothing that folding changes beyond ASCII
#: case (``plain`` rows: link id, source collection, target, key). For these the path the
#: rules try is the target itself, so rules 1-2 are two joins (``settle_in_bulk``).
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


def pending_rows(conn: apsw.Connection, limit: int) -> list[PendingRow]:
    """Up to ``limit`` pending links of active documents, in link order."""
    # ``raw_decode``: the column holds one JSON list this module wrote, nothing around it.
    decode = DECODER.raw_decode
    with translate_errors("reading pending links"):
        return [
            PendingRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], tuple(decode(r[7])[0]))
            for r in conn.cursor().execute(
                "SELECT l.id, d.collection, d.rel_path, l.link_type, l.target_ref, l.alias, "
                # CROSS JOIN: as in ``ApswLinks.pending``.
                "l.target_collection, l.keys FROM doc_links l CROSS JOIN documents d "
                "ON d.id = l.doc_id WHERE l.state = 'pending' AND d.active = 1 "
                "ORDER BY l.id LIMIT ?",
                (max(limit, 0),),
            )
        ]


def name_rows(conn: apsw.Connection, collection: str, keys: Sequence[str]) -> list[NameRow]:
    """The names among ``keys`` of the active documents of ``collection``."""
    wanted = sorted(set(keys))
    out: list[NameRow] = []
    with translate_errors("reading document names"):
        for start in range(0, len(wanted), BATCH):
            batch = wanted[start : start + BATCH]
            marks = ",".join("?" * len(batch))
            out.extend(
                (kind, key, NamedDoc(doc_id, coll, rel))
                for kind, key, doc_id, coll, rel in conn.cursor().execute(
                    # CROSS JOIN: as in ``ApswLinks.candidates``.
                    "SELECT n.kind, n.key, d.id, d.collection, d.rel_path FROM doc_names n "
                    f"CROSS JOIN documents d ON d.id = n.doc_id WHERE n.key IN ({marks}) "
                    "AND d.collection = ? AND d.active = 1",
                    (*batch, collection),
                )
            )
    return out


def settle_in_bulk(conn: apsw.Connection) -> int:
    """Settle inside SQLite the pending links whose answer rules 1-2 give from the target as
    written, with that answer: the ``[[Name]]`` links of ``_PLAIN`` (a document at that path,
    else with that file name in the same case) and the links of ``_PATHS`` that rule 1 settles
    (a document at that path); returns how many. The rest stay pending for the rules."""
    with translate_errors("resolving links"), write_transaction(conn):
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


def record_targets(conn: apsw.Connection, results: Sequence[Resolution]) -> None:
    """Store what each pending link resolves to (its targets replaced, its state set), a few
    statements for the whole batch, in one transaction."""
    if not results:
        return
    # The links' targets replaced and their states set, a few statements for all.
    by_state: dict[str, list[int]] = {"resolved": [], "ambiguous": [], "unresolved": []}
    for link_id, targets in results:
        n = len(targets)
        by_state["unresolved" if not n else "ambiguous" if n > 1 else "resolved"].append(link_id)
    ids = [i for i, _ in results]
    with translate_errors("recording link resolutions"), write_transaction(conn):
        for start in range(0, len(ids), BATCH):
            batch = ids[start : start + BATCH]
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
            for start in range(0, len(links), BATCH):
                batch = links[start : start + BATCH]
                marks = ",".join("?" * len(batch))
                conn.execute(
                    f"UPDATE doc_links SET state = ? WHERE id IN ({marks})", (state, *batch)
                )
