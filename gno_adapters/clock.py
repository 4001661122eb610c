"""``SystemClock``: the ``Clock`` port over the operating system's wall clock."""

from __future__ import annotations

import time

__all__ = ["SystemClock"]


class SystemClock:
    """Nanoseconds since the Unix epoch, from ``time.time_ns``."""

    def now_ns(self) -> int:
        return time.time_ns()
