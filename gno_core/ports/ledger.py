"""Port: the sync ledger — what the index remembers of each source, and the batches sync
writes (documents, their chunks, tags and lexical rows, failures, deactivations)."""

from __future__ import annotations

from typing import Protocol

from gno_core.domain import IngestFailure, SourceState, SyncBatch


class SyncLedger(Protocol):
    """Writes are atomic per ``apply_batch``: a process killed at any moment leaves the index as
    it was before or after a whole batch. Storage failures raise ``RUNTIME``."""

    def source_states(self, collection: str) -> dict[str, SourceState]:
        """Every source the store knows in ``collection`` (active, inactive and failed), by
        relative path."""
        ...

    def failures(self, collection: str) -> list[IngestFailure]:
        """The recorded ingest failures of ``collection`` (the files sync could not index),
        in path order."""
        ...

    def apply_batch(self, batch: SyncBatch) -> None:
        """Apply one batch in one transaction: upsert documents (replacing their chunks, tags and
        lexical rows, clearing any failure record and reactivating them), remember new size/mtime
        of ``touched`` sources, mark ``deactivate`` paths inactive, drop the failure records of
        ``forget_failures`` paths, and record ``failures`` (replacing older records of the same
        path). Idempotent: applying a batch twice leaves the same state."""
        ...

    def deactivate_collection(self, collection: str) -> int:
        """Mark every document of ``collection`` inactive; returns how many changed."""
        ...

    def rename_collection(self, old: str, new: str) -> None:
        """Move every row of ``old`` to ``new`` (URIs change with it)."""
        ...
