"""The read side of ``ApswStore``: document lookups, listings, counts, tags and BM25 search."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import apsw

from gno_adapters.sqlite import lexical
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.migrations import FTS_TOKENIZER
from gno_core.domain import (
    Chunk,
    DocumentMeta,
    FailureRecord,
    IndexCounts,
    IngestFailure,
    LexicalHit,
    SearchFilters,
    SourceState,
    StoredDocument,
)
from gno_core.identity import make_docid
from gno_core.retrieval.query import LexicalQuery
from gno_core.text.cjk import SEGMENTER_ID

DOC_COLUMNS = (
    "d.collection, d.rel_path, d.abs_path, d.source_hash, d.source_mime, d.source_ext, "
    "d.source_size, d.source_mtime_ns, d.mirror_hash, d.title, d.content_type, d.categories, "
    "d.author, d.date, d.language, d.tags, d.converter_id, d.converter_version, d.active, "
    "d.indexed_at"
)
_HEX = re.compile(r"^[0-9a-f]{1,64}$")


def to_document(row: tuple[Any, ...]) -> StoredDocument:
    """A ``DOC_COLUMNS`` row as a ``StoredDocument``."""
    meta = DocumentMeta(
        title=row[9],
        tags=tuple(json.loads(row[15])),
        content_type=row[10],
        categories=tuple(json.loads(row[11])),
        author=row[12],
        date=row[13],
        language=row[14],
    )
    return StoredDocument(
        collection=row[0],
        rel_path=row[1],
        abs_path=row[2],
        docid=make_docid(row[3]),
        source_hash=row[3],
        source_mime=row[4],
        source_ext=row[5],
        source_size=row[6],
        source_mtime_ns=row[7],
        mirror_hash=row[8],
        meta=meta,
        converter_id=row[16],
        converter_version=row[17],
        active=bool(row[18]),
        indexed_at=row[19],
    )


class StoreReads:
    """Queries over an open index connection (mixed into ``ApswStore``)."""

    _conn: apsw.Connection

    def _rows(self, action: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with translate_errors(action):
            return list(self._conn.execute(sql, params))

    def _documents(
        self, action: str, where: str, params: tuple[Any, ...] = ()
    ) -> list[StoredDocument]:
        sql = f"SELECT {DOC_COLUMNS} FROM documents d WHERE {where}"
        return [to_document(r) for r in self._rows(action, sql, params)]

    def source_states(self, collection: str) -> dict[str, SourceState]:
        out = {
            r[0]: SourceState(r[0], r[1], r[2], r[3], bool(r[4]), r[5])
            for r in self._rows(
                "reading source states",
                "SELECT rel_path, source_hash, source_size, source_mtime_ns, active, "
                "ingest_version FROM documents WHERE collection = ?",
                (collection,),
            )
        }
        for rel, source_hash, size, mtime_ns in self._rows(
            "reading ingest failures",
            "SELECT rel_path, source_hash, size, mtime_ns FROM ingest_errors WHERE collection = ?",
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
            )
        return out

    def get_document(self, collection: str, rel_path: str) -> StoredDocument | None:
        docs = self._documents(
            "reading a document",
            "d.collection = ? AND d.rel_path = ? AND d.active = 1",
            (collection, rel_path),
        )
        return docs[0] if docs else None

    def find_by_docid(self, prefix: str) -> list[StoredDocument]:
        prefix = prefix.lower().lstrip("#")
        if not _HEX.match(prefix):
            return []
        # A range on the indexed hash: every hex string starting with prefix sorts below prefix+"g".
        return self._documents(
            "looking up a docid",
            "d.source_hash >= ? AND d.source_hash < ? AND d.active = 1 "
            "ORDER BY d.collection, d.rel_path",
            (prefix, prefix + "g"),
        )

    def get_documents(self, keys: list[tuple[str, str]]) -> list[StoredDocument]:
        found = (self.get_document(c, r) for c, r in keys)
        return [d for d in found if d is not None]

    def markdown(self, mirror_hash: str) -> str | None:
        rows = self._rows(
            "reading a mirror", "SELECT markdown FROM content WHERE mirror_hash = ?", (mirror_hash,)
        )
        return str(rows[0][0]) if rows else None

    def chunks(self, mirror_hash: str) -> tuple[Chunk, ...]:
        return tuple(
            Chunk(*r)
            for r in self._rows(
                "reading chunks",
                "SELECT seq, pos, text, start_line, end_line, language, token_count FROM chunks "
                "WHERE mirror_hash = ? ORDER BY seq",
                (mirror_hash,),
            )
        )

    def chunks_for(self, mirror_hashes: Sequence[str]) -> dict[str, tuple[Chunk, ...]]:
        wanted = list(dict.fromkeys(mirror_hashes))
        found: dict[str, list[Chunk]] = {}
        # Bounded batches keep each statement well under SQLite's bound-parameter limit.
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            for row in self._rows(
                "reading chunks",
                "SELECT mirror_hash, seq, pos, text, start_line, end_line, language, token_count "
                f"FROM chunks WHERE mirror_hash IN ({marks}) ORDER BY mirror_hash, seq",
                tuple(batch),
            ):
                found.setdefault(row[0], []).append(Chunk(*row[1:]))
        return {mirror: tuple(chunks) for mirror, chunks in found.items()}

    def list_documents(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> list[StoredDocument]:
        where: list[str] = ["d.active = 1"]
        params: list[object] = []
        if collection is not None:
            where.append("d.collection = ?")
            params.append(collection)
        if prefix:
            where.append("substr(d.rel_path, 1, ?) = ?")
            params.extend((len(prefix), prefix))
        sql = " AND ".join(where) + " ORDER BY d.collection, d.rel_path"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(limit, 0))
        return self._documents("listing documents", sql, tuple(params))

    def recent_documents(self, limit: int) -> list[StoredDocument]:
        return self._documents(
            "listing recent documents",
            "d.active = 1 ORDER BY d.source_mtime_ns DESC, d.collection, d.rel_path LIMIT ?",
            (max(limit, 0),),
        )

    def counts(self, fingerprint: str | None = None) -> list[IndexCounts]:
        per: dict[str, list[int]] = {}

        def slot(name: str) -> list[int]:
            return per.setdefault(name, [0, 0, 0, 0, 0])

        for name, active, inactive in self._rows(
            "counting documents",
            "SELECT collection, SUM(active), SUM(1 - active) FROM documents GROUP BY collection",
        ):
            slot(name)[0:2] = [active, inactive]
        for name, n in self._rows(
            "counting chunks",
            "SELECT d.collection, COUNT(*) FROM documents d JOIN chunks c "
            "ON c.mirror_hash = d.mirror_hash WHERE d.active = 1 GROUP BY d.collection",
        ):
            slot(name)[2] = n
        if fingerprint is not None:
            for name, n in self._rows(
                "counting embedded chunks",
                "SELECT d.collection, COUNT(*) FROM documents d JOIN content_vectors v "
                "ON v.mirror_hash = d.mirror_hash WHERE d.active = 1 AND v.fingerprint = ? "
                "GROUP BY d.collection",
                (fingerprint,),
            ):
                slot(name)[3] = n
        for name, n in self._rows(
            "counting failures",
            "SELECT collection, COUNT(*) FROM ingest_errors GROUP BY collection",
        ):
            slot(name)[4] = n
        return [IndexCounts(name, *per[name]) for name in sorted(per)]

    def recent_failures(self, limit: int) -> list[FailureRecord]:
        return [
            FailureRecord(IngestFailure(r[0], r[1], r[2], r[3], r[4], r[5], r[6]), r[7])
            for r in self._rows(
                "reading ingest failures",
                "SELECT collection, rel_path, code, message, source_hash, size, mtime_ns, "
                "occurred_at FROM ingest_errors ORDER BY occurred_at DESC, id DESC LIMIT ?",
                (max(limit, 0),),
            )
        ]

    def tag_counts(self, collection: str | None, prefix: str | None) -> list[tuple[str, int]]:
        where: list[str] = ["d.active = 1"]
        params: list[object] = []
        if collection is not None:
            where.append("d.collection = ?")
            params.append(collection)
        if prefix:
            want = lexical.normalize_tag(prefix)
            where.append("substr(t.tag, 1, ?) = ?")
            params.extend((len(want), want))
        sql = (
            "SELECT t.tag, COUNT(*) FROM doc_tags t JOIN documents d ON d.id = t.doc_id "
            f"WHERE {' AND '.join(where)} GROUP BY t.tag ORDER BY 2 DESC, 1"
        )
        return [(str(t), int(n)) for t, n in self._rows("counting tags", sql, tuple(params))]

    def last_indexed_at(self) -> str | None:
        rows = self._rows("reading the index time", "SELECT max(indexed_at) FROM documents")
        return rows[0][0] if rows and rows[0][0] is not None else None

    @property
    def tokenizer(self) -> str:
        return f"{FTS_TOKENIZER} + {SEGMENTER_ID}"

    def search(self, query: LexicalQuery, filters: SearchFilters, limit: int) -> list[LexicalHit]:
        expr = lexical.match_expression(query, filters.exclude_terms)
        if expr is None or limit <= 0:
            return []
        where = lexical.filter_sql(filters)
        if not where.params and where.where == "d.active = 1":
            ranked = self._top_hits(expr, limit)
            if ranked is not None:
                return ranked
        sql = lexical.search_sql(DOC_COLUMNS, where)
        rows = self._rows("searching", sql, (expr, *where.params, limit))
        return [LexicalHit(to_document(r[:-1]), float(r[-1])) for r in rows]

    def _top_hits(self, expr: str, limit: int) -> list[LexicalHit] | None:
        """Unfiltered search without joining every match: rank inside FTS5, join only a window
        of the best ids, and prove the answer equals the full query's. None (run the full
        query) when the window could hide a hit: inactive documents took too many of its
        places, or a document outside it ties with the last one kept."""
        window = max(4 * limit, 40)
        rows = self._rows("searching", lexical.top_search_sql(DOC_COLUMNS), (expr, window, limit))
        if not rows:
            return []
        seen, worst = int(rows[0][-2]), float(rows[0][-1])
        if seen == window and (len(rows) < limit or -float(rows[-1][-3]) >= worst):
            return None
        return [LexicalHit(to_document(r[:-3]), float(r[-3])) for r in rows]
