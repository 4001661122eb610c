"""Port: the wall clock (injected so that dates and relative filters are testable)."""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    def now_ns(self) -> int:
        """Nanoseconds since the Unix epoch (UTC)."""
        ...
