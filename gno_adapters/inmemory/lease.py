"""``InMemoryWriteLease``: the write lease within one process (threads only), for the in-memory
adapter set. Same contract as the OS lock (tests/contract/test_write_lease.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from gno_core.errors import CancelledError, LockedError
from gno_core.ports.lease import Cancelled

__all__ = ["InMemoryWriteLease"]

_POLL_SECONDS = 0.005


class InMemoryWriteLease:
    def __init__(self, name: str = "memory://write-lease") -> None:
        self._name = name
        self._lock = threading.RLock()

    @property
    def location(self) -> str:
        return self._name

    @contextmanager
    def hold(self, wait_seconds: float, cancelled: Cancelled | None = None) -> Iterator[None]:
        deadline = time.monotonic() + max(0.0, wait_seconds)
        while not self._lock.acquire(timeout=_POLL_SECONDS):
            if cancelled is not None and cancelled():
                raise CancelledError("Cancelled while waiting for the write lease")
            if time.monotonic() >= deadline:
                raise LockedError(
                    f"Another writer holds the write lease; waited {wait_seconds:g}s",
                    details={"lock": self._name, "waitSeconds": wait_seconds},
                )
        try:
            yield
        finally:
            self._lock.release()
