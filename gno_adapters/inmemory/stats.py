"""``InMemoryStats``: the ``IndexStats`` port in memory."""

from __future__ import annotations

from gno_adapters.inmemory.state import InMemoryState
from gno_core.domain import (
    ChunkLayouts,
    FailureRecord,
    IndexCounts,
)
from gno_core.metadata.extract import VALID


class InMemoryStats:
    """The ``IndexStats`` port."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state

    def counts(self, fingerprint: str | None = None) -> list[IndexCounts]:
        names = sorted({c for c, _ in self._s.rows} | {c for c, _ in self._s.failures})
        space = self._s.vectors.get(fingerprint or "", {})
        out = []
        for name in names:
            rows = [r for (c, _), r in self._s.rows.items() if c == name]
            active = [r for r in rows if r.doc.active]
            embedded = sum(
                1
                for r in active
                for c in self._s.chunks.get(r.doc.mirror_hash, ())
                if (r.doc.mirror_hash, c.seq) in space
            )
            out.append(
                IndexCounts(
                    collection=name,
                    documents=len(active),
                    inactive=len(rows) - len(active),
                    chunks=sum(len(self._s.chunks.get(r.doc.mirror_hash, ())) for r in active),
                    embedded=embedded,
                    failed=sum(1 for c, _ in self._s.failures if c == name),
                )
            )
        return out

    def recent_failures(self, limit: int) -> list[FailureRecord]:
        keys = sorted(
            self._s.failures,
            key=lambda k: (self._s.failures[k].occurred_at, self._s.failure_seq[k]),
            reverse=True,
        )
        return [self._s.failures[k] for k in keys[: max(limit, 0)]]

    def chunk_layouts(self, current: str, legacy: str) -> ChunkLayouts:
        documents: dict[str | None, int] = {}
        pending: set[str] = set()
        for row in self._s.rows.values():
            if not row.doc.active:
                continue
            documents[row.chunking] = documents.get(row.chunking, 0) + 1
            if (row.chunking or legacy) != current:
                pending.add(row.doc.mirror_hash)
        return ChunkLayouts(documents, len(pending))

    def last_indexed_at(self) -> str | None:
        return max((r.doc.indexed_at for r in self._s.rows.values()), default=None)

    def unsettled_metadata(self, collections: tuple[str, ...] | None = None) -> dict[str, int]:
        out: dict[str, int] = {}
        for (collection, _), row in self._s.rows.items():
            if not row.doc.active or row.metadata.state == VALID:
                continue
            if collections and collection not in collections:
                continue
            out[row.metadata.state] = out.get(row.metadata.state, 0) + 1
        return out
