"""Port: one index as a bundle of the capability ports over the same documents, and the
provider that opens it lazily. A storage backend (SQLite today, another later) implements each
port over one shared connection; nothing here names the backend."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.ports.documents import DocumentStore
    from gno_core.ports.ledger import SyncLedger
    from gno_core.ports.lexical import LexicalIndex
    from gno_core.ports.links import LinkStore
    from gno_core.ports.memory import MemoryStore
    from gno_core.ports.stats import IndexStats
    from gno_core.ports.vectors import VectorIndex


class Index:
    """The ports of one open index. ``close`` releases what they share; idempotent.

    ``vectors`` is a port or a function that opens it on first use: the vector machinery of a
    backend (SQLite loads an extension) is then paid only by the commands that use vectors.
    """

    __slots__ = ("_vectors", "closer", "documents", "ledger", "lexical", "links", "memory", "stats")

    def __init__(
        self,
        documents: DocumentStore,
        ledger: SyncLedger,
        stats: IndexStats,
        lexical: LexicalIndex,
        vectors: VectorIndex | Callable[[], VectorIndex],
        links: LinkStore,
        memory: MemoryStore,
        closer: Callable[[], None] = lambda: None,
    ) -> None:
        self.documents = documents
        self.ledger = ledger
        self.stats = stats
        self.lexical = lexical
        self._vectors = vectors
        self.links = links
        self.memory = memory
        self.closer = closer

    @property
    def vectors(self) -> VectorIndex:
        if callable(self._vectors):
            self._vectors = self._vectors()
        return self._vectors

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
