"""``ApswLedger``: the ``SyncLedger`` port over an open SQLite index — source states and the
atomic batches sync writes.

One writer at a time (``BEGIN IMMEDIATE`` per batch). Invariant: a ``documents_fts`` row exists
exactly for each active document, with rowid = ``documents.id``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from gno_adapters.sqlite import journal, lexical
from gno_adapters.sqlite.carry import carry_vectors
from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.ledger_entries import (
    SNAP_COLUMNS,
    collection_renamed,
    inactivated,
    snapshot,
    upserted,
)
from gno_adapters.sqlite.link_writes import (
    mark_keys_pending,
    mark_links_of_pending,
    mark_names_pending,
    replace_document_names,
    write_links,
)
from gno_adapters.sqlite.memory import replace_document_fact
from gno_adapters.sqlite.metadata_values import write_metadata_values
from gno_adapters.sqlite.rows import Rows
from gno_core.domain import (
    Chunk,
    ExtractedLink,
    IndexedDocument,
    IngestFailure,
    SourceState,
    SyncBatch,
)
from gno_core.errors import DuplicateError
from gno_core.journal.entries import PendingEntry, build_entry
from gno_core.journal.structure import Structure, structure_of
from gno_core.metadata.extract import metadata_json
from gno_core.ports.clock import Clock
from gno_core.text.cjk import segment_for_index
from gno_core.text.dates import iso_from_ns, parse_document_date


def _failure_row(f: IngestFailure, now: str) -> tuple[object, ...]:
    return (f.collection, f.rel_path, f.code, f.message, f.size, f.mtime_ns, f.source_hash, now)


def _chunk_row(mirror_hash: str, c: Chunk) -> tuple[object, ...]:
    return (mirror_hash, c.seq, c.pos, c.text, c.start_line, c.end_line, c.language, c.token_count)


class ApswLedger:
    """What sync reads (source states) and writes (batches, collection moves). ``journal``:
    whether index changes write the change journal; always, but for the journal benchmark,
    which turns it off to measure what the journal costs (``benchmarks/journal.py``)."""

    def __init__(self, rows: Rows, clock: Clock, *, journal: bool = True) -> None:
        self._db = rows
        self._conn = rows.conn
        self._clock = clock
        self._journal = journal

    def source_states(self, collection: str) -> dict[str, SourceState]:
        out = {
            r[0]: SourceState(
                r[0],
                r[1],
                r[2],
                r[3],
                bool(r[4]),
                r[5],
                converter_id=r[6],
                converter_version=r[7],
                chunking=r[8],
            )
            for r in self._db.rows(
                "reading source states",
                "SELECT rel_path, source_hash, source_size, source_mtime_ns, active, "
                "ingest_version, converter_id, converter_version, chunking FROM documents "
                "WHERE collection = ?",
                (collection,),
            )
        }
        for rel, source_hash, size, mtime_ns, code in self._db.rows(
            "reading ingest failures",
            "SELECT rel_path, source_hash, size, mtime_ns, code FROM ingest_errors "
            "WHERE collection = ?",
            (collection,),
        ):
            known = out.get(rel)
            out[rel] = SourceState(
                rel_path=rel,
                source_hash=source_hash or (known.source_hash if known else ""),
                size=size,
                mtime_ns=mtime_ns,
                active=known.active if known else False,
                ingest_version=known.ingest_version if known else 0,
                failed=True,
                failure_code=code,
                converter_id=known.converter_id if known else "",
                converter_version=known.converter_version if known else "",
                chunking=known.chunking if known else None,
            )
        return out

    def failures(self, collection: str) -> list[IngestFailure]:
        return [
            IngestFailure(collection, r[0], r[1], r[2], r[3], r[4], r[5])
            for r in self._db.rows(
                "reading ingest failures",
                "SELECT rel_path, code, message, source_hash, size, mtime_ns FROM ingest_errors "
                "WHERE collection = ? ORDER BY rel_path",
                (collection,),
            )
        ]

    def apply_batch(self, batch: SyncBatch) -> None:
        now_ns = self._clock.now_ns()
        now = iso_from_ns(now_ns)
        with translate_errors("applying a sync batch"), write_transaction(self._conn):
            entries: list[PendingEntry] = []
            moved = self._rename_sources(batch)
            # the old paths of moves whose new path this batch indexes (one ``rename`` each)
            indexed = {u.rel_path for u in batch.upserts} if moved else set()
            went = {str(row[1]) for new, row in moved.items() if new in indexed}
            orphans: set[str] = set()
            # Links and pending marks of the whole batch, written after its documents.
            links: list[tuple[int, Sequence[ExtractedLink], bool]] = []
            marks: set[str] = set()
            for item in batch.upserts:
                old_mirror = self._upsert(item, now, links, marks, entries, moved)
                if old_mirror is not None and old_mirror != item.mirror_hash:
                    orphans.add(old_mirror)
            write_links(self._conn, links)
            mark_keys_pending(self._conn, marks)
            for state in batch.touched:
                self._touch(batch.collection, state, entries)
            for rel_path in batch.deactivate:
                for row in self._conn.execute(
                    "UPDATE documents SET active = 0 WHERE collection = ? AND rel_path = ? "
                    f"AND active = 1 RETURNING {SNAP_COLUMNS}",
                    (batch.collection, rel_path),
                ).fetchall():
                    doc_id = int(str(row[7]))
                    self._conn.execute("DELETE FROM documents_fts WHERE rowid = ?", (doc_id,))
                    mark_names_pending(self._conn, doc_id)
                    if self._journal and rel_path not in went:
                        entries.append(inactivated(row))
            self._conn.executemany(
                "DELETE FROM ingest_errors WHERE collection = ? AND rel_path = ?",
                [(batch.collection, rel_path) for rel_path in batch.forget_failures],
            )
            self._conn.executemany(
                "INSERT OR REPLACE INTO ingest_errors(collection, rel_path, code, message, size, "
                "mtime_ns, source_hash, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [_failure_row(f, now) for f in batch.failures],
            )
            for mirror in orphans:
                self._conn.execute(
                    "DELETE FROM content WHERE mirror_hash = ? AND NOT EXISTS "
                    "(SELECT 1 FROM documents WHERE mirror_hash = ?)",
                    (mirror, mirror),
                )
            journal.append(self._conn, entries, now_ns)

    def _rename_sources(self, batch: SyncBatch) -> dict[str, tuple[object, ...]]:
        """The active rows of ``batch.renamed`` sources (new path -> row), read before the batch
        changes them: each move is journaled as one ``rename`` entry, not an inactivate and a
        create."""
        if not self._journal:
            return {}
        out: dict[str, tuple[object, ...]] = {}
        for old_path, new_path in batch.renamed:
            row = self._conn.execute(
                f"SELECT {SNAP_COLUMNS} FROM documents WHERE collection = ? AND rel_path = ? "
                "AND active = 1",
                (batch.collection, old_path),
            ).fetchone()
            if row is not None:
                out[new_path] = tuple(row)
        return out

    def _upsert(
        self,
        item: IndexedDocument,
        now: str,
        links: list[tuple[int, Sequence[ExtractedLink], bool]],
        marks: set[str],
        entries: list[PendingEntry],
        moved: dict[str, tuple[object, ...]],
    ) -> str | None:
        """Write one document (its links added to ``links``, the names whose links are
        resolved again to ``marks``); returns the mirror hash it had before (None if new)."""
        conn = self._conn
        old = conn.execute(
            "SELECT id, mirror_hash, active, title, collection, rel_path, source_hash, structure "
            "FROM documents WHERE collection = ? AND rel_path = ?",
            (item.collection, item.rel_path),
        ).fetchone()
        structure = structure_of(item) if self._journal else None
        conn.execute(
            "INSERT INTO content(mirror_hash, markdown) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (item.mirror_hash, item.markdown),
        )
        chunk_rows = [_chunk_row(item.mirror_hash, c) for c in item.chunks]
        stored = conn.execute(
            "SELECT mirror_hash, seq, pos, text, start_line, end_line, language, token_count "
            "FROM chunks WHERE mirror_hash = ? ORDER BY seq",
            (item.mirror_hash,),
        ).fetchall()
        if stored != chunk_rows:  # rewriting identical chunks would drop their vectors
            conn.execute("DELETE FROM chunks WHERE mirror_hash = ?", (item.mirror_hash,))
            conn.executemany(
                "INSERT INTO chunks(mirror_hash, seq, pos, text, start_line, end_line, language, "
                "token_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                chunk_rows,
            )
            if old is not None and old[1] != item.mirror_hash:
                carry_vectors(
                    conn, (old[1], old[3]), (item.mirror_hash, item.meta.title), item.chunks
                )
        meta = item.meta
        values = (
            item.abs_path,
            item.source_hash,
            item.source_mime,
            item.source_ext,
            item.source_size,
            item.source_mtime_ns,
            item.mirror_hash,
            meta.title,
            meta.content_type,
            json.dumps(list(meta.categories), ensure_ascii=False),
            meta.author,
            meta.date,
            parse_document_date(meta.date) or item.source_mtime_ns,
            meta.language,
            json.dumps(list(meta.tags), ensure_ascii=False),
            item.converter_id,
            item.converter_version,
            json.dumps(list(item.converter_warnings), ensure_ascii=False),
            item.ingest_version,
            now,
            item.chunking,
            item.metadata.state,
            metadata_json(item.metadata.values),
            item.metadata.error,
            structure.to_json() if structure is not None else None,
        )
        settings = (
            "abs_path = ?, source_hash = ?, source_mime = ?, source_ext = ?, source_size = ?, "
            "source_mtime_ns = ?, mirror_hash = ?, title = ?, content_type = ?, categories = ?, "
            "author = ?, date = ?, date_ns = ?, language = ?, tags = ?, converter_id = ?, "
            "converter_version = ?, converter_warnings = ?, ingest_version = ?, indexed_at = ?, "
            "chunking = ?, metadata_state = ?, metadata = ?, metadata_error = ?, structure = ?, "
            "active = 1"
        )
        if old is not None:
            doc_id = old[0]
            conn.execute(f"UPDATE documents SET {settings} WHERE id = ?", (*values, doc_id))
            conn.execute("DELETE FROM doc_tags WHERE doc_id = ?", (doc_id,))
            if old[2]:
                conn.execute("DELETE FROM documents_fts WHERE rowid = ?", (doc_id,))
        else:
            conn.execute(
                "INSERT INTO documents(collection, rel_path, abs_path, source_hash, source_mime, "
                "source_ext, source_size, source_mtime_ns, mirror_hash, title, content_type, "
                "categories, author, date, date_ns, language, tags, converter_id, "
                "converter_version, converter_warnings, ingest_version, indexed_at, chunking, "
                "metadata_state, metadata, metadata_error, structure, active) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (item.collection, item.rel_path, *values),
            )
            doc_id = conn.last_insert_rowid()
        if structure is not None:
            entry = upserted(item, old, structure, moved)
            if entry is not None:
                entries.append(entry)
        was_active = bool(old is not None and old[2])
        replace_document_names(conn, doc_id, item.names, was_active, marks, new=old is None)
        links.append((doc_id, item.links, old is None))
        replace_document_fact(conn, doc_id, item.fact)
        if old is None:  # an update's rows follow its metadata columns (a trigger)
            write_metadata_values(conn, doc_id, item.metadata)
        tags = {lexical.normalize_tag(t) for t in meta.tags if t.strip()}
        conn.executemany(
            "INSERT INTO doc_tags(doc_id, tag) VALUES (?, ?)", [(doc_id, t) for t in tags]
        )
        self._index_text(doc_id, item.rel_path, meta.title, item.markdown)
        conn.execute(
            "DELETE FROM ingest_errors WHERE collection = ? AND rel_path = ?",
            (item.collection, item.rel_path),
        )
        return None if old is None else str(old[1])

    def _index_text(self, doc_id: int, rel_path: str, title: str | None, markdown: str) -> None:
        self._conn.execute(
            "INSERT INTO documents_fts(rowid, path, title, body) VALUES (?, ?, ?, ?)",
            (
                doc_id,
                segment_for_index(rel_path),
                segment_for_index(title or ""),
                segment_for_index(markdown),
            ),
        )

    def _touch(self, collection: str, state: SourceState, entries: list[PendingEntry]) -> None:
        row = self._conn.execute(
            "SELECT d.id, d.date, d.active, d.rel_path, d.title, c.markdown, d.source_hash, "
            "d.mirror_hash, d.structure FROM documents d "
            "JOIN content c ON c.mirror_hash = d.mirror_hash "
            "WHERE d.collection = ? AND d.rel_path = ?",
            (collection, state.rel_path),
        ).fetchone()
        if row is None:
            return
        doc_id, date, active, rel_path, title, markdown, source_hash, mirror_hash, stored = row
        reactivate = state.active and not active
        self._conn.execute(
            "UPDATE documents SET source_size = ?, source_mtime_ns = ?, date_ns = ?, "
            "active = ? WHERE id = ?",
            (
                state.size,
                state.mtime_ns,
                parse_document_date(date) or state.mtime_ns,
                1 if (active or reactivate) else 0,
                doc_id,
            ),
        )
        if reactivate:
            if self._journal:
                snap = (collection, rel_path, source_hash, mirror_hash, False, title)
                before = Structure.from_json(stored)
                entries.append(
                    build_entry(
                        "reactivate",
                        snapshot(snap),
                        snapshot(snap, active=True),
                        before,
                        before,
                        previous_known=before is not None,
                    )
                )
            self._index_text(doc_id, rel_path, title, markdown)
            mark_names_pending(self._conn, doc_id)
            mark_links_of_pending(self._conn, doc_id)

    def deactivate_collection(self, collection: str) -> int:
        now_ns = self._clock.now_ns()
        with translate_errors("deactivating a collection"), write_transaction(self._conn):
            rows = self._conn.execute(
                f"UPDATE documents SET active = 0 WHERE collection = ? AND active = 1 "
                f"RETURNING {SNAP_COLUMNS}",
                (collection,),
            ).fetchall()
            ids = [int(str(r[7])) for r in rows]
            if self._journal:
                journal.append(
                    self._conn,
                    [inactivated(r) for r in sorted(rows, key=lambda r: str(r[1]))],
                    now_ns,
                )
            self._conn.executemany("DELETE FROM documents_fts WHERE rowid = ?", [(i,) for i in ids])
            for doc_id in ids:
                mark_names_pending(self._conn, doc_id)
        return len(ids)

    def rename_collection(self, old: str, new: str) -> None:
        """Move every row of ``old`` to ``new``; each active document (its URI changes) is
        journaled as one ``rename``, in the same transaction."""
        if old == new:
            return
        now_ns = self._clock.now_ns()
        with translate_errors("renaming a collection"), write_transaction(self._conn):
            taken = self._conn.execute(
                "SELECT 1 FROM documents WHERE collection = ? AND active = 1 LIMIT 1", (new,)
            ).fetchone()
            if taken:
                raise DuplicateError(
                    f"Collection {new!r} already has indexed documents", details={"name": new}
                )
            # Inactive rows of the target are stale leftovers of a removed collection.
            self._conn.execute("DELETE FROM documents WHERE collection = ?", (new,))
            self._conn.execute("DELETE FROM ingest_errors WHERE collection = ?", (new,))
            moved = self._conn.execute(
                f"UPDATE documents SET collection = ? WHERE collection = ? RETURNING {SNAP_COLUMNS}",
                (new, old),
            ).fetchall()
            if self._journal:
                journal.append(
                    self._conn,
                    [
                        collection_renamed(r, old)
                        for r in sorted(moved, key=lambda r: str(r[1]))
                        if r[4]
                    ],
                    now_ns,
                )
            self._conn.execute(
                "UPDATE ingest_errors SET collection = ? WHERE collection = ?", (new, old)
            )
            # Collection-qualified links name collections: everything is resolved again.
            self._conn.execute(
                "UPDATE doc_links SET state = 'pending' WHERE state NOT IN "
                "('pending', 'external') AND keys != '[]'"
            )
            self._conn.execute(
                "DELETE FROM content WHERE NOT EXISTS "
                "(SELECT 1 FROM documents d WHERE d.mirror_hash = content.mirror_hash)"
            )
