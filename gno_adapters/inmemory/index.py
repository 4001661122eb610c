"""The in-memory index: the seven index ports as plain Python over one shared state, for tests.

First-class fakes: ``in_memory_index`` builds the same ``Index`` bundle as the SQLite adapter,
with the same rules (the contract suites in ``tests/contract`` run against both).
"""

from __future__ import annotations

from gno_adapters.inmemory.documents import InMemoryDocuments
from gno_adapters.inmemory.egress import InMemoryEgressPolicies, InMemoryEgressReceipts
from gno_adapters.inmemory.journal import InMemoryJournal
from gno_adapters.inmemory.ledger import InMemoryLedger
from gno_adapters.inmemory.lexical import InMemoryLexical
from gno_adapters.inmemory.links import InMemoryLinks
from gno_adapters.inmemory.memory import InMemoryMemory
from gno_adapters.inmemory.state import InMemoryState
from gno_adapters.inmemory.stats import InMemoryStats
from gno_adapters.inmemory.trace_store import InMemoryTraceStore
from gno_adapters.inmemory.vectors import InMemoryVectors
from gno_core.ports.clock import Clock
from gno_core.ports.index import Index

__all__ = ["in_memory_index"]


def in_memory_index(clock: Clock) -> Index:
    """A fresh, empty in-memory index: the six ports over one shared state."""
    state = InMemoryState(clock)

    def close() -> None:
        state.closed = True

    return Index(
        documents=InMemoryDocuments(state),
        ledger=InMemoryLedger(state),
        stats=InMemoryStats(state),
        lexical=InMemoryLexical(state),
        vectors=InMemoryVectors(state),
        links=InMemoryLinks(state),
        memory=InMemoryMemory(state),
        closer=close,
        journal=InMemoryJournal(state),
        egress_policies=InMemoryEgressPolicies(),
        egress_receipts=InMemoryEgressReceipts(),
        traces=InMemoryTraceStore(),
    )
