"""``ApswStats``: the ``IndexStats`` port over an open SQLite index."""

from __future__ import annotations

from gno_adapters.sqlite.rows import Rows
from gno_core.domain import ChunkLayouts, FailureRecord, IndexCounts, IngestFailure


class ApswStats:
    """Counts per collection, recent ingest failures and the last write time."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows

    def counts(self, fingerprint: str | None = None) -> list[IndexCounts]:
        per: dict[str, list[int]] = {}

        def slot(name: str) -> list[int]:
            return per.setdefault(name, [0, 0, 0, 0, 0])

        for name, active, inactive in self._db.rows(
            "counting documents",
            "SELECT collection, SUM(active), SUM(1 - active) FROM documents GROUP BY collection",
        ):
            slot(name)[0:2] = [active, inactive]
        for name, n in self._db.rows(
            "counting chunks",
            "SELECT d.collection, COUNT(*) FROM documents d JOIN chunks c "
            "ON c.mirror_hash = d.mirror_hash WHERE d.active = 1 GROUP BY d.collection",
        ):
            slot(name)[2] = n
        if fingerprint is not None:
            for name, n in self._db.rows(
                "counting embedded chunks",
                "SELECT d.collection, COUNT(*) FROM documents d JOIN content_vectors v "
                "ON v.mirror_hash = d.mirror_hash WHERE d.active = 1 AND v.fingerprint = ? "
                "GROUP BY d.collection",
                (fingerprint,),
            ):
                slot(name)[3] = n
        for name, n in self._db.rows(
            "counting failures",
            "SELECT collection, COUNT(*) FROM ingest_errors GROUP BY collection",
        ):
            slot(name)[4] = n
        return [IndexCounts(name, *per[name]) for name in sorted(per)]

    def recent_failures(self, limit: int) -> list[FailureRecord]:
        return [
            FailureRecord(IngestFailure(r[0], r[1], r[2], r[3], r[4], r[5], r[6]), r[7])
            for r in self._db.rows(
                "reading ingest failures",
                "SELECT collection, rel_path, code, message, source_hash, size, mtime_ns, "
                "occurred_at FROM ingest_errors ORDER BY occurred_at DESC, id DESC LIMIT ?",
                (max(limit, 0),),
            )
        ]

    def chunk_layouts(self, current: str, legacy: str) -> ChunkLayouts:
        documents: dict[str | None, int] = {
            policy: n
            for policy, n in self._db.rows(
                "counting chunk layouts",
                "SELECT chunking, COUNT(*) FROM documents WHERE active = 1 GROUP BY chunking",
            )
        }
        rows = self._db.rows(
            "counting pending mirrors",
            "SELECT COUNT(DISTINCT mirror_hash) FROM documents "
            "WHERE active = 1 AND COALESCE(chunking, ?) != ?",
            (legacy, current),
        )
        return ChunkLayouts(documents, int(rows[0][0]) if rows else 0)

    def unsettled_metadata(self, collections: tuple[str, ...] | None = None) -> dict[str, int]:
        # the partial index ``documents_metadata_unsettled`` holds only these rows: cheap
        # enough for every filtered search
        sql = (
            "SELECT metadata_state, COUNT(*) FROM documents "
            "INDEXED BY documents_metadata_unsettled "
            "WHERE metadata_state != 'valid' AND active = 1"
        )
        params: tuple[str, ...] = ()
        if collections:
            sql += f" AND collection IN ({', '.join('?' * len(collections))})"
            params = collections
        rows = self._db.rows("counting metadata states", sql + " GROUP BY metadata_state", params)
        return {str(state): int(n) for state, n in rows if n}

    def last_indexed_at(self) -> str | None:
        rows = self._db.rows("reading the index time", "SELECT max(indexed_at) FROM documents")
        return rows[0][0] if rows and rows[0][0] is not None else None
