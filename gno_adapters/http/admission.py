"""Capacity: a per-peer request rate, a per-peer cap on requests in flight, and active/queued
request slots with a drain state.

All run on the event loop (no locks). A request beyond ``max_active`` waits in a bounded
queue; beyond the queue it is refused (429). Shutdown flips the state to ``draining``: new and
queued requests are refused (503) while active ones finish.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Literal

from gno_adapters.http.refusals import Refusal

State = Literal["accepting", "draining", "closed"]
PRUNE_AT = 4096


class RateLimiter:
    """A token bucket per socket peer: ``per_minute`` requests, refilled continuously."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._rate = per_minute / 60.0
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def check(self, peer: str) -> None:
        """Spend one token of ``peer`` or raise ``Refusal(429, "rate_limited")``."""
        if self.per_minute <= 0:
            return
        now = self._clock()
        tokens, stamp = self._buckets.get(peer, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + (now - stamp) * self._rate)
        if tokens < 1.0:
            self._buckets[peer] = (tokens, now)
            raise Refusal(429, "rate_limited", retry_after=(1.0 - tokens) / self._rate)
        self._buckets[peer] = (tokens - 1.0, now)
        if len(self._buckets) > PRUNE_AT:
            self._prune(now)

    def _prune(self, now: float) -> None:
        full = [
            peer
            for peer, (tokens, stamp) in self._buckets.items()
            if tokens + (now - stamp) * self._rate >= self.per_minute
        ]
        for peer in full:
            del self._buckets[peer]


class PeerConnections:
    """At most ``per_peer`` requests in flight per socket peer, counted from the request line
    until its response is complete, body reading included: a peer holding many slow
    connections only ever runs out of its own allowance."""

    def __init__(self, per_peer: int) -> None:
        self.per_peer = per_peer
        self._counts: dict[str, int] = {}

    def enter(self, peer: str) -> None:
        """Count one more request of ``peer`` or raise ``Refusal(429, "too_many_connections")``."""
        count = self._counts.get(peer, 0)
        if self.per_peer > 0 and count >= self.per_peer:
            raise Refusal(429, "too_many_connections", retry_after=1.0, close=True)
        self._counts[peer] = count + 1

    def leave(self, peer: str) -> None:
        count = self._counts.get(peer, 0) - 1
        if count > 0:
            self._counts[peer] = count
        else:
            self._counts.pop(peer, None)

    def __getitem__(self, peer: str) -> int:
        return self._counts.get(peer, 0)


class Admission:
    """``max_active`` request slots and a queue of ``max_queued`` waiters for them."""

    def __init__(self, max_active: int, max_queued: int) -> None:
        self.max_active = max_active
        self.max_queued = max_queued
        self.state: State = "accepting"
        self.active = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._idle: asyncio.Event | None = None

    @property
    def queued(self) -> int:
        return len(self._waiters)

    def refuse_if_closed(self) -> None:
        if self.state != "accepting":
            raise Refusal(503, "shutting_down")

    async def enter(self) -> None:
        """Take a slot, waiting in the queue if need be; ``Refusal`` 429 (queue full) or 503."""
        self.refuse_if_closed()
        if self.active < self.max_active and not self._waiters:
            self.active += 1
            return
        if len(self._waiters) >= self.max_queued:
            raise Refusal(429, "queue_full", retry_after=1.0)
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except BaseException:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            elif waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self.leave()  # the slot was handed over as we were cancelled: pass it on
            raise

    def leave(self) -> None:
        """Give the slot back, handing it straight to the next waiter when there is one."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self.active -= 1
        if self.active == 0 and self._idle is not None:
            self._idle.set()

    async def drain(self, timeout: float) -> bool:
        """Stop admitting, refuse the queue, and wait up to ``timeout`` s for active requests;
        ``True`` when they all finished."""
        self.state = "draining"
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(Refusal(503, "shutting_down"))
        if self.active == 0:
            return True
        self._idle = asyncio.Event()
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True
