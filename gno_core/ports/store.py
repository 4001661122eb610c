"""Ports: the document store (what sync writes, what reads return), the lexical index, and the
index store combining them with the vector index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gno_core.domain import (
    Chunk,
    FailureRecord,
    IndexCounts,
    LexicalHit,
    SearchFilters,
    SourceState,
    StoredDocument,
    SyncBatch,
)
from gno_core.ports.vectors import VectorIndex
from gno_core.retrieval.query import LexicalQuery


class DocumentStore(Protocol):
    """Documents, their canonical mirrors, chunks, tags and ingest failures.

    Writes are atomic per ``apply_batch``: a process killed at any moment leaves the store as it
    was before or after a whole batch. Storage failures raise ``RUNTIME``.
    """

    def source_states(self, collection: str) -> dict[str, SourceState]:
        """Every source the store knows in ``collection`` (active, inactive and failed), by
        relative path."""
        ...

    def apply_batch(self, batch: SyncBatch) -> None:
        """Apply one batch in one transaction: upsert documents (replacing their chunks, tags and
        lexical rows, clearing any failure record and reactivating them), remember new size/mtime
        of ``touched`` sources, mark ``deactivate`` paths inactive, drop the failure records of
        ``forget_failures`` paths, and record ``failures`` (replacing older records of the same
        path). Idempotent: applying a batch twice leaves the same state."""
        ...

    def get_document(self, collection: str, rel_path: str) -> StoredDocument | None:
        """The active document at that path, or None."""
        ...

    def find_by_docid(self, prefix: str) -> list[StoredDocument]:
        """Active documents whose source hash starts with ``prefix`` (6-8 lowercase hex), ordered
        by collection then path."""
        ...

    def get_documents(self, keys: list[tuple[str, str]]) -> list[StoredDocument]:
        """Active documents for (collection, rel_path) keys, in the order given; unknown keys are
        left out."""
        ...

    def markdown(self, mirror_hash: str) -> str | None:
        """The canonical Markdown mirror with that hash, or None."""
        ...

    def chunks(self, mirror_hash: str) -> tuple[Chunk, ...]:
        """The chunks of a mirror ordered by ``seq`` (empty if unknown)."""
        ...

    def chunks_for(self, mirror_hashes: Sequence[str]) -> dict[str, tuple[Chunk, ...]]:
        """The chunks of several mirrors in one read, each ordered by ``seq``; unknown mirrors
        are left out."""
        ...

    def list_documents(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> list[StoredDocument]:
        """Active documents ordered by collection then relative path, optionally restricted to a
        collection and a relative-path prefix."""
        ...

    def recent_documents(self, limit: int) -> list[StoredDocument]:
        """Active documents, most recently modified first (ties by collection, path)."""
        ...

    def counts(self, fingerprint: str | None = None) -> list[IndexCounts]:
        """Per-collection counts of active documents, inactive documents, chunks of active
        documents, chunks of active documents embedded for ``fingerprint`` (0 when None) and
        failed sources, ordered by collection name."""
        ...

    def recent_failures(self, limit: int) -> list[FailureRecord]:
        """Recorded ingest failures, newest first."""
        ...

    def tag_counts(self, collection: str | None, prefix: str | None) -> list[tuple[str, int]]:
        """(tag, number of active documents) ordered by count descending then tag."""
        ...

    def last_indexed_at(self) -> str | None:
        """ISO time of the most recent document write, or None for an empty store."""
        ...

    def deactivate_collection(self, collection: str) -> int:
        """Mark every document of ``collection`` inactive; returns how many changed."""
        ...

    def rename_collection(self, old: str, new: str) -> None:
        """Move every row of ``old`` to ``new`` (URIs change with it)."""
        ...


class LexicalIndex(Protocol):
    """BM25 keyword retrieval over active documents (fields path, title and body)."""

    @property
    def tokenizer(self) -> str:
        """A short description of the tokenization in use (reported by status)."""
        ...

    def search(self, query: LexicalQuery, filters: SearchFilters, limit: int) -> list[LexicalHit]:
        """Documents matching ``query`` among those ``filters`` make eligible, best first, at most
        ``limit``. Filters define the eligible set before the limit applies, so an ineligible
        document never displaces an eligible one. Optional terms rank but are not required;
        required terms and phrases must all match; excluded ones must not. Chinese, Japanese and
        Korean text matches by substring. Ties break by collection then path."""
        ...


class IndexStore(DocumentStore, LexicalIndex, VectorIndex, Protocol):
    """One index: a document store, its lexical index and its vector index over the same
    documents."""

    def close(self) -> None:
        """Release the underlying resources; idempotent."""
        ...


class StoreProvider(Protocol):
    """Opens the store of one named index, lazily, so cheap commands never touch it."""

    @property
    def location(self) -> str:
        """Where the index lives (a database path), for status and errors."""
        ...

    def exists(self) -> bool:
        """True when the index has been created."""
        ...

    def open(self) -> IndexStore:
        """Open the index, creating and migrating it if needed. Raises ``RUNTIME`` on failure."""
        ...
