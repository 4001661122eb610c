"""``collector_paused``: Python's cycle collector off around work that allocates many
short-lived objects (a refactor plan of a hub, the whole link graph, a hub's backlinks)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off inside, back on (when it was) after: 10^4-10^5 short-lived
    objects set off collections that cost a fifth of a refactor preview of a 2,000-link hub
    (~110 of ~490 ms CPU) and of the largest ``gno_graph`` (~60-110 of ~400 ms). Whatever a
    collection would have found is collected by the next one."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
