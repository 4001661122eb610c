"""Port: one index as a bundle of the capability ports over the same documents, and the
provider that opens it lazily. A storage backend (SQLite today, another later) implements each
port over one shared connection; nothing here names the backend."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from gno_core.ports.documents import DocumentStore
from gno_core.ports.ledger import SyncLedger
from gno_core.ports.lexical import LexicalIndex
from gno_core.ports.stats import IndexStats
from gno_core.ports.vectors import VectorIndex


@dataclass(frozen=True, slots=True)
class Index:
    """The ports of one open index. ``close`` releases what they share; idempotent."""

    documents: DocumentStore
    ledger: SyncLedger
    stats: IndexStats
    lexical: LexicalIndex
    vectors: VectorIndex
    closer: Callable[[], None] = field(default=lambda: None)

    def close(self) -> None:
        self.closer()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class IndexProvider(Protocol):
    """Opens the index of one name, lazily, so cheap commands never touch it."""

    @property
    def location(self) -> str:
        """Where the index lives (a database path), for status and errors."""
        ...

    def exists(self) -> bool:
        """True when the index has been created."""
        ...

    def open(self) -> Index:
        """Open the index, creating and migrating it if needed. Raises ``RUNTIME`` on failure."""
        ...
