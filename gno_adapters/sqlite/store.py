"""``ApswStore``: the SQLite index (APSW + FTS5 + sqlite-vec) as a ``DocumentStore``,
``LexicalIndex`` and ``VectorIndex``.

One file per index, WAL mode, one writer at a time (``BEGIN IMMEDIATE`` per batch), readers
concurrent. Every public method translates SQLite failures into ``RUNTIME`` at this edge.
Invariant: a ``documents_fts`` row exists exactly for each active document, with rowid =
``documents.id``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import TracebackType
from typing import Self

import apsw

from gno_adapters.fsutil import ensure_private_file
from gno_adapters.sqlite import lexical
from gno_adapters.sqlite.connection import connect, load_vector_extension, write_transaction
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.migrations import migrate
from gno_adapters.sqlite.vectors import StoreVectors
from gno_core.domain import Chunk, IndexedDocument, IngestFailure, SourceState, SyncBatch
from gno_core.errors import DuplicateError, RuntimeFailure
from gno_core.ports.clock import Clock
from gno_core.retrieval.dates import iso_from_ns, parse_document_date
from gno_core.text.cjk import segment_for_index


def _failure_row(f: IngestFailure, now: str) -> tuple[object, ...]:
    return (f.collection, f.rel_path, f.code, f.message, f.size, f.mtime_ns, f.source_hash, now)


def _chunk_row(mirror_hash: str, c: Chunk) -> tuple[object, ...]:
    return (mirror_hash, c.seq, c.pos, c.text, c.start_line, c.end_line, c.language, c.token_count)


def _private_files(path: str) -> None:
    if path == ":memory:" or path.startswith("file:"):
        return
    try:
        ensure_private_file(Path(path))
        for suffix in ("-wal", "-shm"):
            side = Path(path + suffix)
            if side.exists():
                ensure_private_file(side)
    except OSError as exc:
        raise RuntimeFailure(
            f"Cannot create or secure the index file {path}: {exc.strerror or exc}",
            details={"path": path},
        ) from exc


class _SystemClock:
    def now_ns(self) -> int:
        return time.time_ns()


class ApswStore(StoreVectors):
    """The document store, BM25 index and vector index of one SQLite index file."""

    def __init__(
        self, conn: apsw.Connection, clock: Clock | None = None, vec_version: str | None = None
    ) -> None:
        self._conn = conn
        self._clock: Clock = clock or _SystemClock()
        self._vec_version = vec_version
        self._closed = False

    @classmethod
    def open(
        cls, path: str, clock: Clock | None = None, *, vector_extension: bool = True
    ) -> ApswStore:
        """Open (creating and migrating when needed) the index at ``path``. sqlite-vec is
        loaded when ``vector_extension`` is set and it can be; without it vector search is
        exact (same results, slower on large indexes). The database file and its -wal/-shm
        files are owner-only (0600): SQLite gives the latter the mode of the former, and files
        left looser by an older gno are tightened here."""
        _private_files(path)
        with translate_errors(f"opening the index {path}"):
            conn = connect(path)
            try:
                migrate(conn)
                vec_version = load_vector_extension(conn) if vector_extension else None
            except BaseException:
                conn.close()
                raise
        return cls(conn, clock, vec_version)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            with translate_errors("closing the index"):
                self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- writes --------------------------------------------------------------------------------

    def apply_batch(self, batch: SyncBatch) -> None:
        now = iso_from_ns(self._clock.now_ns())
        with translate_errors("applying a sync batch"), write_transaction(self._conn):
            orphans: set[str] = set()
            for item in batch.upserts:
                old_mirror = self._upsert(item, now)
                if old_mirror is not None and old_mirror != item.mirror_hash:
                    orphans.add(old_mirror)
            for state in batch.touched:
                self._touch(batch.collection, state)
            for rel_path in batch.deactivate:
                for (doc_id,) in self._conn.execute(
                    "UPDATE documents SET active = 0 WHERE collection = ? AND rel_path = ? "
                    "AND active = 1 RETURNING id",
                    (batch.collection, rel_path),
                ):
                    self._conn.execute("DELETE FROM documents_fts WHERE rowid = ?", (doc_id,))
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

    def _upsert(self, item: IndexedDocument, now: str) -> str | None:
        """Write one document; returns the mirror hash it had before (None if new)."""
        conn = self._conn
        old = conn.execute(
            "SELECT id, mirror_hash, active FROM documents WHERE collection = ? AND rel_path = ?",
            (item.collection, item.rel_path),
        ).fetchone()
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
            item.ingest_version,
            now,
        )
        settings = (
            "abs_path = ?, source_hash = ?, source_mime = ?, source_ext = ?, source_size = ?, "
            "source_mtime_ns = ?, mirror_hash = ?, title = ?, content_type = ?, categories = ?, "
            "author = ?, date = ?, date_ns = ?, language = ?, tags = ?, converter_id = ?, "
            "converter_version = ?, ingest_version = ?, indexed_at = ?, active = 1"
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
                "converter_version, ingest_version, indexed_at, active) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (item.collection, item.rel_path, *values),
            )
            doc_id = conn.last_insert_rowid()
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

    def _touch(self, collection: str, state: SourceState) -> None:
        row = self._conn.execute(
            "SELECT d.id, d.date, d.active, d.rel_path, d.title, c.markdown FROM documents d "
            "JOIN content c ON c.mirror_hash = d.mirror_hash "
            "WHERE d.collection = ? AND d.rel_path = ?",
            (collection, state.rel_path),
        ).fetchone()
        if row is None:
            return
        doc_id, date, active, rel_path, title, markdown = row
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
            self._index_text(doc_id, rel_path, title, markdown)

    def deactivate_collection(self, collection: str) -> int:
        with translate_errors("deactivating a collection"), write_transaction(self._conn):
            ids = [
                r[0]
                for r in self._conn.execute(
                    "UPDATE documents SET active = 0 WHERE collection = ? AND active = 1 "
                    "RETURNING id",
                    (collection,),
                )
            ]
            self._conn.executemany("DELETE FROM documents_fts WHERE rowid = ?", [(i,) for i in ids])
        return len(ids)

    def rename_collection(self, old: str, new: str) -> None:
        if old == new:
            return
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
            self._conn.execute(
                "UPDATE documents SET collection = ? WHERE collection = ?", (new, old)
            )
            self._conn.execute(
                "UPDATE ingest_errors SET collection = ? WHERE collection = ?", (new, old)
            )
            self._conn.execute(
                "DELETE FROM content WHERE NOT EXISTS "
                "(SELECT 1 FROM documents d WHERE d.mirror_hash = content.mirror_hash)"
            )
