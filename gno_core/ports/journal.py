"""Port: the change journal's reads. Its writes belong to the index changes themselves: the
``SyncLedger`` appends one entry per document change in the transaction of that change
(``gno_core.journal.entries``), so a change and its entry are committed together or not at all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from gno_core.journal.entries import JournalEntry

__all__ = ["ChangeJournal", "JournalBounds"]


@dataclass(frozen=True, slots=True)
class JournalBounds:
    """``epoch``: the journal's stable id; ``purged_through``: the last ``seq`` retention
    dropped (0: none); ``latest``: the last ``seq`` written (0: none); ``retained``: entries
    kept."""

    epoch: str
    purged_through: int
    latest: int
    retained: int


class ChangeJournal(Protocol):
    def bounds(self) -> JournalBounds:
        """Where the journal stands. Reading it never writes (a fresh journal has an epoch)."""
        ...

    def entries(
        self,
        *,
        after: int = 0,
        since_ns: int | None = None,
        collection: str | None = None,
        limit: int = 100,
    ) -> list[JournalEntry]:
        """Up to ``limit`` retained entries with ``seq > after`` (and observed at or after
        ``since_ns``, of ``collection``), oldest first."""
        ...

    def latest_for(self, collection: str, rel_path: str) -> JournalEntry | None:
        """The newest retained entry either side of which is that document (a rename names
        both paths)."""
        ...

    def entry(self, seq: int) -> JournalEntry | None:
        """The retained entry ``seq``, or None (never written, or dropped by retention)."""
        ...
