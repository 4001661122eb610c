"""Opening one SQLite index file (APSW + FTS5 + sqlite-vec) as the ``Index`` bundle: the
document store, sync ledger, statistics, lexical index and vector index, each one class over
the same connection.

One file per index, WAL mode, one writer at a time (``BEGIN IMMEDIATE`` per batch), readers
concurrent. Every port translates SQLite failures into ``RUNTIME`` at this edge.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gno_adapters.fsutil import ensure_private_dir, ensure_private_file
from gno_adapters.sqlite.connection import connect, load_vector_extension
from gno_adapters.sqlite.documents import ApswDocuments
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.lexical import ApswLexical
from gno_adapters.sqlite.migrations import migrate
from gno_adapters.sqlite.rows import Rows
from gno_core.errors import RuntimeFailure
from gno_core.ports.index import Index

if TYPE_CHECKING:
    from gno_core.ports.clock import Clock
    from gno_core.ports.egress import EgressPolicyStore, EgressReceiptStore
    from gno_core.ports.journal import ChangeJournal
    from gno_core.ports.ledger import SyncLedger
    from gno_core.ports.links import LinkStore
    from gno_core.ports.memory import MemoryStore
    from gno_core.ports.stats import IndexStats
    from gno_core.ports.traces import TraceStore
    from gno_core.ports.vectors import VectorIndex

__all__ = ["ApswIndexProvider", "open_apsw_index"]


def open_apsw_index(
    path: str, clock: Clock, *, vector_extension: bool = True, journal: bool = True
) -> Index:
    """Open (creating and migrating when needed) the index at ``path``. sqlite-vec is loaded,
    when ``vector_extension`` is set and it can be, by the first use of the vector port (nothing
    else needs it: deletions queue their vec0 work); without it vector search is exact (same
    results, slower on large indexes). The database and its -wal/-shm files are owner-only
    (0600): SQLite gives the latter the mode of the former, and files left looser by an older
    gno are tightened here. ``journal``: whether its changes write the change journal (always,
    but for ``benchmarks/journal.py``, which measures what the journal costs)."""
    _private_files(path)
    with translate_errors(f"opening the index {path}"):
        conn = connect(path)
        try:
            migrate(conn)
        except BaseException:
            conn.close()
            raise
    rows = Rows(conn)
    closed = False

    def open_vectors() -> VectorIndex:
        from gno_adapters.sqlite.vectors import ApswVectors

        with translate_errors("loading the vector extension"):
            vec_version = load_vector_extension(conn) if vector_extension else None
        return ApswVectors(rows, clock, vec_version)

    # The ledger, statistics, links and memory ports (and the domain values they read and
    # write) load on first use: a keyword search reads documents and the lexical index only.
    def open_ledger() -> SyncLedger:
        from gno_adapters.sqlite.ledger import ApswLedger

        return ApswLedger(rows, clock, journal=journal)

    def open_stats() -> IndexStats:
        from gno_adapters.sqlite.stats import ApswStats

        return ApswStats(rows)

    def open_links() -> LinkStore:
        from gno_adapters.sqlite.links import ApswLinks

        return ApswLinks(rows)

    def open_memory() -> MemoryStore:
        from gno_adapters.sqlite.memory import ApswMemory

        return ApswMemory(rows)

    def open_journal() -> ChangeJournal:
        from gno_adapters.sqlite.journal import ApswJournal

        return ApswJournal(rows)

    def open_egress_policies() -> EgressPolicyStore:
        from gno_adapters.sqlite.egress import ApswEgressPolicies

        return ApswEgressPolicies(conn)

    def open_egress_receipts() -> EgressReceiptStore:
        from gno_adapters.sqlite.egress import ApswEgressReceipts

        return ApswEgressReceipts(conn)

    def open_traces() -> TraceStore:
        from gno_adapters.sqlite.trace_store import ApswTraceStore

        return ApswTraceStore(rows)

    def close() -> None:
        nonlocal closed
        if not closed:
            closed = True
            with translate_errors("closing the index"):
                conn.close()

    return Index(
        documents=ApswDocuments(rows),
        ledger=open_ledger,
        stats=open_stats,
        lexical=ApswLexical(rows),
        vectors=open_vectors,
        links=open_links,
        memory=open_memory,
        closer=close,
        journal=open_journal,
        egress_policies=open_egress_policies,
        egress_receipts=open_egress_receipts,
        traces=open_traces,
    )


class ApswIndexProvider:
    """``IndexProvider`` for one index database file (``journal``: see ``open_apsw_index``)."""

    def __init__(self, path: Path, clock: Clock, *, journal: bool = True) -> None:
        self._path = path
        self._clock = clock
        self._journal = journal

    @property
    def location(self) -> str:
        return str(self._path)

    def exists(self) -> bool:
        return self._path.is_file()

    def open(self) -> Index:
        try:
            ensure_private_dir(self._path.parent)
        except OSError as exc:
            raise RuntimeFailure(
                f"Cannot create the data folder {self._path.parent}: {exc.strerror or exc}",
                details={"path": str(self._path.parent)},
            ) from exc
        return open_apsw_index(str(self._path), self._clock, journal=self._journal)


def _private_files(path: str) -> None:
    if path == ":memory:" or path.startswith("file:"):
        return
    try:
        ensure_private_file(Path(path))
        for suffix in ("-wal", "-shm"):
            side = Path(path + suffix)
            if side.exists():
                ensure_private_file(side)
    except OSError as exc:
        raise RuntimeFailure(
            f"Cannot create or secure the index file {path}: {exc.strerror or exc}",
            details={"path": path},
        ) from exc
