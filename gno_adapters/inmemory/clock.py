"""``FixedClock``: a clock that only moves when told to."""

from __future__ import annotations


class FixedClock:
    def __init__(self, now_ns: int = 1_767_225_600_000_000_000) -> None:  # 2026-01-01T00:00:00Z
        self._now = now_ns

    def now_ns(self) -> int:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += int(seconds * 1_000_000_000)
