"""Port: reading indexed documents — lookups by path and docid, canonical mirrors, chunks,
listings and tags. Only active documents are ever returned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gno_core.domain import Chunk, StoredDocument
from gno_core.metadata.extract import DocumentMetadata


class DocumentStore(Protocol):
    """The documents of one index as retrieval and reads see them. Storage failures raise
    ``RUNTIME``; text that is not Unicode raises ``VALIDATION``."""

    def get_document(self, collection: str, rel_path: str) -> StoredDocument | None:
        """The active document at that path, or None."""
        ...

    def document_metadata(self, collection: str, rel_path: str) -> DocumentMetadata | None:
        """The typed metadata of the active document at that path and its extraction state
        (``pending`` for a document indexed before extraction), or None."""
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

    def tag_counts(self, collection: str | None, prefix: str | None) -> list[tuple[str, int]]:
        """(tag, number of active documents) ordered by count descending then tag."""
        ...
