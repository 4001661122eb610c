"""An embedding command yields the CPU: every thread of the process (and the threads it starts
later, such as the model's workers) runs at the ``--nice`` niceness; 0 changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX priorities")

_CHILD = """
import os, sys, threading
from gno_cli.priority import lower_priority
started = threading.Event(); stop = threading.Event()
def worker():
    started.set(); stop.wait(10)
before = threading.Thread(target=worker); before.start(); started.wait(5)
lower_priority(int(sys.argv[1]))
started.clear()
after = threading.Thread(target=worker); after.start(); started.wait(5)
nice = sorted({os.getpriority(os.PRIO_PROCESS, int(t)) for t in os.listdir('/proc/self/task')})
stop.set(); before.join(); after.join()
print(nice)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="Linux threads")
@pytest.mark.parametrize(("niceness", "expected"), [(10, [10]), (0, [0])])
def test_every_thread_runs_at_the_given_niceness(niceness: int, expected: list[int]) -> None:
    if os.getpriority(os.PRIO_PROCESS, 0) != 0:
        pytest.skip("the test runs at a non-default niceness already")
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(niceness)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert out.strip() == str(expected)
