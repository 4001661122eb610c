"""Port: one index as a bundle of the capability ports over the same documents, and the
provider that opens it lazily. A storage backend (SQLite today, another later) implements each
port over one shared connection; nothing here names the backend."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.ports.documents import DocumentStore
    from gno_core.ports.egress import EgressPolicyStore, EgressReceiptStore
    from gno_core.ports.journal import ChangeJournal
    from gno_core.ports.ledger import SyncLedger
    from gno_core.ports.lexical import LexicalIndex
    from gno_core.ports.links import LinkStore
    from gno_core.ports.memory import MemoryStore
    from gno_core.ports.stats import IndexStats
    from gno_core.ports.traces import TraceStore
    from gno_core.ports.vectors import VectorIndex


class Index:
    """The ports of one open index. ``close`` releases what they share; idempotent.

    Each port is given as the port or as a function that opens it on first use: a backend then
    pays for a port's machinery (SQLite loads an extension for vectors; each port's module and
    the domain values it returns) only in the commands that use it; ``gno search`` reads
    ``documents`` and ``lexical`` only.
    """

    __slots__ = ("_ports", "closer")

    def __init__(
        self,
        documents: DocumentStore | Callable[[], DocumentStore],
        ledger: SyncLedger | Callable[[], SyncLedger],
        stats: IndexStats | Callable[[], IndexStats],
        lexical: LexicalIndex | Callable[[], LexicalIndex],
        vectors: VectorIndex | Callable[[], VectorIndex],
        links: LinkStore | Callable[[], LinkStore],
        memory: MemoryStore | Callable[[], MemoryStore],
        closer: Callable[[], None] = lambda: None,
        journal: ChangeJournal | Callable[[], ChangeJournal] | None = None,
        egress_policies: EgressPolicyStore | Callable[[], EgressPolicyStore] | None = None,
        egress_receipts: EgressReceiptStore | Callable[[], EgressReceiptStore] | None = None,
        traces: TraceStore | Callable[[], TraceStore] | None = None,
    ) -> None:
        self._ports: dict[str, object] = {
            "documents": documents,
            "ledger": ledger,
            "stats": stats,
            "lexical": lexical,
            "vectors": vectors,
            "links": links,
            "memory": memory,
            "journal": journal,
            "egress_policies": egress_policies,
            "egress_receipts": egress_receipts,
            "traces": traces,
        }
        self.closer = closer

    def _port(self, name: str) -> Any:
        port = self._ports[name]
        if port is None:
            from gno_core.errors import RuntimeFailure

            raise RuntimeFailure(f"This index has no {name} port", details={"port": name})
        if callable(port):
            port = self._ports[name] = port()
        return port

    @property
    def documents(self) -> DocumentStore:
        return cast("DocumentStore", self._port("documents"))

    @property
    def ledger(self) -> SyncLedger:
        return cast("SyncLedger", self._port("ledger"))

    @property
    def stats(self) -> IndexStats:
        return cast("IndexStats", self._port("stats"))

    @property
    def lexical(self) -> LexicalIndex:
        return cast("LexicalIndex", self._port("lexical"))

    @property
    def vectors(self) -> VectorIndex:
        return cast("VectorIndex", self._port("vectors"))

    @property
    def links(self) -> LinkStore:
        return cast("LinkStore", self._port("links"))

    @property
    def memory(self) -> MemoryStore:
        return cast("MemoryStore", self._port("memory"))

    @property
    def journal(self) -> ChangeJournal:
        """The change journal's reads (``gno_core.delta``)."""
        return cast("ChangeJournal", self._port("journal"))

    @property
    def egress_policies(self) -> EgressPolicyStore:
        """Each collection's explicit egress policy and the authorization epoch."""
        return cast("EgressPolicyStore", self._port("egress_policies"))

    @property
    def egress_receipts(self) -> EgressReceiptStore:
        """The content-free receipts of egress decisions."""
        return cast("EgressReceiptStore", self._port("egress_receipts"))

    @property
    def traces(self) -> TraceStore:
        """The retrieval-trace store (``gno_core.traces``)."""
        return cast("TraceStore", self._port("traces"))

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
