"""``InMemoryDocuments``: the ``DocumentStore`` port in memory."""

from __future__ import annotations

from collections.abc import Sequence

from gno_adapters.inmemory.state import InMemoryState, normalize_tag
from gno_core.domain import (
    Chunk,
    StoredDocument,
)
from gno_core.metadata.extract import DocumentMetadata


class InMemoryDocuments:
    """The ``DocumentStore`` port."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state

    def get_document(self, collection: str, rel_path: str) -> StoredDocument | None:
        row = self._s.rows.get((collection, rel_path))
        return row.doc if row is not None and row.doc.active else None

    def document_metadata(self, collection: str, rel_path: str) -> DocumentMetadata | None:
        row = self._s.rows.get((collection, rel_path))
        return row.metadata if row is not None and row.doc.active else None

    def find_by_docid(self, prefix: str) -> list[StoredDocument]:
        prefix = prefix.lower().lstrip("#")
        return [d for d in self._s.active() if d.source_hash.startswith(prefix)]

    def get_documents(self, keys: list[tuple[str, str]]) -> list[StoredDocument]:
        found = (self.get_document(c, r) for c, r in keys)
        return [d for d in found if d is not None]

    def markdown(self, mirror_hash: str) -> str | None:
        return self._s.content.get(mirror_hash)

    def chunks(self, mirror_hash: str) -> tuple[Chunk, ...]:
        return self._s.chunks.get(mirror_hash, ())

    def chunks_for(self, mirror_hashes: Sequence[str]) -> dict[str, tuple[Chunk, ...]]:
        return {m: self._s.chunks[m] for m in dict.fromkeys(mirror_hashes) if m in self._s.chunks}

    def list_documents(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> list[StoredDocument]:
        docs = [
            d
            for d in self._s.active()
            if (collection is None or d.collection == collection)
            and (not prefix or d.rel_path.startswith(prefix))
        ]
        return docs if limit is None else docs[: max(limit, 0)]

    def recent_documents(self, limit: int) -> list[StoredDocument]:
        docs = sorted(
            self._s.active(), key=lambda d: -d.source_mtime_ns
        )  # stable: ties stay sorted
        return docs[: max(limit, 0)]

    def tag_counts(self, collection: str | None, prefix: str | None) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        want = normalize_tag(prefix) if prefix else ""
        for row in self._s.rows.values():
            if not row.doc.active or (collection is not None and row.doc.collection != collection):
                continue
            for tag in row.tags:
                if tag.startswith(want):
                    counts[tag] = counts.get(tag, 0) + 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
