"""The pending batch of one collection's sync: documents, touched states, deactivations and
failures gathered until the batch is full, then applied by the ledger in one transaction."""

from __future__ import annotations

from dataclasses import dataclass, field

from gno_core.domain import IndexedDocument, IngestFailure, SourceState, SyncBatch
from gno_core.ports.ledger import SyncLedger

__all__ = ["MAX_BATCH_CHARS", "PendingBatch"]

#: A batch is also committed once its mirrors reach this many characters, to bound memory.
MAX_BATCH_CHARS = 32 * 1024 * 1024


@dataclass
class PendingBatch:
    """The pending batch of one collection; committed when full."""

    ledger: SyncLedger
    collection: str
    size: int
    upserts: list[IndexedDocument] = field(default_factory=list)
    touched: list[SourceState] = field(default_factory=list)
    deactivate: list[str] = field(default_factory=list)
    failures: list[IngestFailure] = field(default_factory=list)
    forget_failures: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    items: int = 0
    chars: int = 0

    def add_upsert(self, doc: IndexedDocument) -> None:
        self.upserts.append(doc)
        self.chars += len(doc.markdown)
        self._added()

    def add_move(self, doc: IndexedDocument, old_path: str) -> None:
        """``doc`` is the file that was at ``old_path`` (moved outside gno): its upsert, the
        old path's deactivation and the pair in one batch, which the journal records as one
        ``rename``."""
        self.upserts.append(doc)
        self.deactivate.append(old_path)
        self.renamed.append((old_path, doc.rel_path))
        self.chars += len(doc.markdown)
        self.items += 1
        self._added()

    def add_touched(self, state: SourceState) -> None:
        self.touched.append(state)
        self._added()

    def add_deactivate(self, rel_path: str) -> None:
        self.deactivate.append(rel_path)
        self._added()

    def add_forget_failure(self, rel_path: str) -> None:
        self.forget_failures.append(rel_path)
        self._added()

    def add_failure(self, failure: IngestFailure, *, deactivate: bool) -> None:
        """Record ``failure``, in the same batch as the deactivation of the path's document."""
        self.failures.append(failure)
        if deactivate:
            self.deactivate.append(failure.rel_path)
            self.items += 1
        self._added()

    def _added(self) -> None:
        self.items += 1
        if self.items >= self.size or self.chars >= MAX_BATCH_CHARS:
            self.commit()

    def commit(self) -> None:
        if not self.items:
            return
        self.ledger.apply_batch(
            SyncBatch(
                collection=self.collection,
                upserts=tuple(self.upserts),
                touched=tuple(self.touched),
                deactivate=tuple(self.deactivate),
                failures=tuple(self.failures),
                forget_failures=tuple(self.forget_failures),
                renamed=tuple(self.renamed),
            )
        )
        self.upserts, self.touched, self.deactivate, self.failures = [], [], [], []
        self.forget_failures, self.renamed = [], []
        self.items = self.chars = 0
