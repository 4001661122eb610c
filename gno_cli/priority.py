"""CPU priority of a long embedding command: ``gno embed`` and the embed step of ``gno index``
run their model at a lower priority (``--nice``), so that the commands people and agents are
waiting on (a capture, a remember, a search) get the cores first; on an idle machine the embed
runs as fast as before."""

from __future__ import annotations

import os

#: The niceness an embedding command runs at unless told otherwise (0: unchanged).
DEFAULT_EMBED_NICENESS = 10
MAX_NICENESS = 19


def lower_priority(niceness: int) -> None:
    """Run every thread of this process, and the threads it starts later, at ``niceness`` at
    least (never raised back). Best effort: where priorities cannot be set, nothing changes.

    Linux keeps a niceness per thread (a model's worker threads already running keep theirs),
    so each thread under ``/proc/self/task`` is set; elsewhere the call covers the process."""
    if niceness <= 0 or not hasattr(os, "setpriority"):
        return
    target = min(niceness, MAX_NICENESS)
    try:
        threads = [int(tid) for tid in os.listdir("/proc/self/task")]
    except OSError:
        threads = [0]
    for tid in threads:
        try:
            if os.getpriority(os.PRIO_PROCESS, tid) < target:
                os.setpriority(os.PRIO_PROCESS, tid, target)
        except OSError:
            continue
