"""Port: the write lease, one per index, that every writer in every process holds while it
changes the index or the files of its collections (sync, capture, collection changes, and each
commit of an embedding pass).

Readers never take it: SQLite's WAL lets them read while one writer writes. Holding the lease
is what keeps two writers (a CLI ``update``, an MCP capture, the gateway's job) from meeting
inside SQLite's own lock, where the loser would see "database is locked". Holders keep it
short: an embedding pass takes it only to read a batch and to commit the batch's vectors, never
while the model runs, so a capture never waits on embedding.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import NamedTuple, Protocol, TypedDict

from gno_core.errors import LockedError

#: Asks whether the caller gave up (a cancelled request): a waiting acquire stops early.
Cancelled = Callable[[], bool]


class LeaseHolder(NamedTuple):
    """Who holds the lease: its process, what it is doing (``sync``, ``embed``, ``capture``
    ...) and since when (ISO 8601, UTC)."""

    pid: int
    purpose: str
    since: str

    def describe(self) -> str:
        return f"pid {self.pid} ({self.purpose}, since {self.since})"

    def wire(self) -> dict[str, object]:
        return {"pid": self.pid, "purpose": self.purpose, "since": self.since}


#: Told once, as soon as a hold has to wait, who holds the lease (None when it cannot tell).
OnWait = Callable[[LeaseHolder | None], None]
#: A wait this short (another writer's commit) is not announced: ``on_wait`` hears of a wait once
#: it has lasted this long.
NOTICE_AFTER_SECONDS = 0.1


def holder_text(holder: LeaseHolder | None) -> str:
    return holder.describe() if holder is not None else "another gno writer"


def waiting_message(holder: LeaseHolder | None) -> str:
    """What a writer that has to wait says at once."""
    return f"waiting for the write lease, held by {holder_text(holder)}"


def lease_locked(location: str, wait_seconds: float, holder: LeaseHolder | None) -> LockedError:
    """The ``LOCKED`` that ends a wait, naming the holder (also in ``details.holder``)."""
    details: dict[str, object] = {"lock": location, "waitSeconds": wait_seconds}
    if holder is not None:
        details["holder"] = holder.wire()
    return LockedError(
        f"The write lease is held by {holder_text(holder)}; waited {wait_seconds:g}s. "
        "Retry when it has finished",
        details=details,
    )


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
        self,
        wait_seconds: float,
        cancelled: Cancelled | None = None,
        *,
        purpose: str = "write",
        on_wait: OnWait | None = None,
    ) -> AbstractContextManager[None]:
        """Acquire the lease for ``purpose``, waiting up to ``wait_seconds`` for another holder;
        ``LOCKED`` naming the holder after that (``CANCELLED`` when ``cancelled()`` turns true
        while waiting). ``on_wait`` hears once who holds it, as soon as the hold has waited
        ``NOTICE_AFTER_SECONDS``.
        Released when the block exits, whatever the exit."""
        ...

    def holder(self) -> LeaseHolder | None:
        """Who holds the lease now (None when free, or when it cannot tell); a snapshot."""
        ...
