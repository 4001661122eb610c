"""``InMemoryWriteLease``: the write lease within one process (threads only), for the in-memory
adapter set. Same contract as the OS lock (tests/contract/test_write_lease.py)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from gno_core.errors import CancelledError
from gno_core.ports.lease import (
    NOTICE_AFTER_SECONDS,
    Cancelled,
    LeaseHolder,
    OnWait,
    lease_locked,
)

__all__ = ["InMemoryWriteLease"]

_POLL_SECONDS = 0.005


class InMemoryWriteLease:
    def __init__(self, name: str = "memory://write-lease") -> None:
        self._name = name
        self._lock = threading.RLock()
        self._depth = 0
        self._holder: LeaseHolder | None = None

    @property
    def location(self) -> str:
        return self._name

    def holder(self) -> LeaseHolder | None:
        return self._holder

    @contextmanager
    def hold(
        self,
        wait_seconds: float,
        cancelled: Cancelled | None = None,
        *,
        purpose: str = "write",
        on_wait: OnWait | None = None,
    ) -> Iterator[None]:
        started = time.monotonic()
        deadline = started + max(0.0, wait_seconds)
        while not self._lock.acquire(timeout=_POLL_SECONDS):
            if on_wait is not None and time.monotonic() - started >= NOTICE_AFTER_SECONDS:
                notify, on_wait = on_wait, None
                notify(self._holder)
            if cancelled is not None and cancelled():
                raise CancelledError("Cancelled while waiting for the write lease")
            if time.monotonic() >= deadline:
                raise lease_locked(self._name, wait_seconds, self._holder)
        try:
            if self._depth == 0:
                since = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
                self._holder = LeaseHolder(os.getpid(), purpose, since)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._holder = None
        finally:
            self._lock.release()
