"""``InMemoryJournal``: the ``ChangeJournal`` port in memory, and ``append``, which the
in-memory ledger calls with each batch's entries (the same entries and retention as SQLite)."""

from __future__ import annotations

from collections.abc import Sequence

from gno_adapters.inmemory.state import InMemoryState
from gno_core.journal.entries import RETENTION, JournalEntry, PendingEntry, Retention
from gno_core.ports.journal import JournalBounds

__all__ = ["InMemoryJournal", "append"]


def _size(entry: JournalEntry) -> int:
    return len(entry.payload().encode("utf-8"))


def append(
    state: InMemoryState,
    entries: Sequence[PendingEntry],
    now_ns: int,
    retention: Retention = RETENTION,
) -> None:
    for pending in entries:
        state.journal_seq += 1
        state.journal.append(
            JournalEntry.from_row(
                state.journal_seq, pending.kind, pending.collection, now_ns, pending.payload
            )
        )
    oldest = now_ns - retention.max_age_ns
    total = sum(_size(e) for e in state.journal)
    while state.journal and (
        len(state.journal) > retention.max_entries
        or total > retention.max_bytes
        or state.journal[0].observed_ns < oldest
    ):
        gone = state.journal.pop(0)
        total -= _size(gone)
        state.journal_purged = gone.seq


class InMemoryJournal:
    """The ``ChangeJournal`` port."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state

    def bounds(self) -> JournalBounds:
        return JournalBounds(
            self._s.journal_epoch, self._s.journal_purged, self._s.journal_seq, len(self._s.journal)
        )

    def entries(
        self,
        *,
        after: int = 0,
        since_ns: int | None = None,
        collection: str | None = None,
        limit: int = 100,
    ) -> list[JournalEntry]:
        out = [
            e
            for e in self._s.journal
            if e.seq > after
            and (since_ns is None or e.observed_ns >= since_ns)
            and (collection is None or e.collection == collection)
        ]
        return out[:limit]

    def latest_for(self, collection: str, rel_path: str) -> JournalEntry | None:
        for e in reversed(self._s.journal):
            if e.concerns(collection, rel_path):
                return e
        return None

    def entry(self, seq: int) -> JournalEntry | None:
        return next((e for e in self._s.journal if e.seq == seq), None)
