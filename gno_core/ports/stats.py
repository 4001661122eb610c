"""Port: index statistics for health reports — counts per collection, recent ingest failures,
the time of the last write."""

from __future__ import annotations

from typing import Protocol

from gno_core.domain import ChunkLayouts, FailureRecord, IndexCounts


class IndexStats(Protocol):
    """Cheap aggregate reads; storage failures raise ``RUNTIME``."""

    def counts(self, fingerprint: str | None = None) -> list[IndexCounts]:
        """Per-collection counts of active documents, inactive documents, chunks of active
        documents, chunks of active documents embedded for ``fingerprint`` (0 when None) and
        failed sources, ordered by collection name."""
        ...

    def recent_failures(self, limit: int) -> list[FailureRecord]:
        """Recorded ingest failures, newest first."""
        ...

    def chunk_layouts(self, current: str, legacy: str) -> ChunkLayouts:
        """Active documents per recorded chunking policy key, and the distinct mirrors of the
        active documents whose policy (``legacy`` when none is recorded) is not ``current``."""
        ...

    def unsettled_metadata(self, collections: tuple[str, ...] | None = None) -> dict[str, int]:
        """Active documents (of ``collections``, all when None) whose typed metadata is not
        ``valid``, by state (``pending``: not yet extracted; ``invalid``); states with no
        document are left out, so an index whose metadata is all valid answers ``{}``."""
        ...

    def last_indexed_at(self) -> str | None:
        """ISO time of the most recent document write, or None for an empty store."""
        ...
