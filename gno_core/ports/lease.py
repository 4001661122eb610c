"""Port: the write lease, one per index, that every writer in every process holds while it
changes the index or the files of its collections (sync, embed, capture, collection changes).

Readers never take it: SQLite's WAL lets them read while one writer writes. Holding the lease
is what keeps two writers (a CLI ``update``, an MCP capture, the gateway's job) from meeting
inside SQLite's own lock, where the loser would see "database is locked".
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol, TypedDict

#: Asks whether the caller gave up (a cancelled request): a waiting acquire stops early.
Cancelled = Callable[[], bool]


class LeaseOptions(TypedDict, total=False):
    """How a write operation holds the lease, for the calls that pass the choice on to it: how
    long to wait for another holder (``lease_wait``, seconds) and the cancellation check
    (``cancelled``). The operation that takes the lease says how long it waits by default."""

    lease_wait: float
    cancelled: Cancelled | None


class WriteLease(Protocol):
    """Reentrant within one thread (a capture inside a job that already holds it nests);
    exclusive across threads and processes. A holder that dies releases it with its process.
    """

    @property
    def location(self) -> str:
        """Where the lease lives (a lock file path), for errors and status."""
        ...

    def hold(
        self, wait_seconds: float, cancelled: Cancelled | None = None
    ) -> AbstractContextManager[None]:
        """Acquire the lease, waiting up to ``wait_seconds`` for another holder; ``LOCKED``
        after that (``CANCELLED`` when ``cancelled()`` turns true while waiting). Released when
        the block exits, whatever the exit."""
        ...
