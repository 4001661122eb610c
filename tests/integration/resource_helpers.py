"""Run ``gno`` in a child process under a wall-time bound and measure its peak RSS.

The child is started by a fresh wrapper interpreter whose ``RUSAGE_CHILDREN`` then covers that
one child only (the test process's own counter also holds every earlier child of the session).
The child also gets an address-space cap, so a regression fails the test instead of swapping
out the shared machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

_WRAPPER = r"""
import json, resource, subprocess, sys
limit, timeout, argv = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]

def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

try:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, preexec_fn=cap)
    code, out, err = done.returncode, done.stdout, done.stderr
except subprocess.TimeoutExpired as exc:
    code, out, err = None, "", f"timed out after {timeout}s"
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "out": out, "err": err, "peak_kib": peak_kib}))
"""

#: Address space the child may map: far above a healthy sync, far below the machine.
ADDRESS_SPACE_CAP = 3 * 1024**3


@dataclass
class Measured:
    code: int | None  # None: killed at the time bound
    out: str
    err: str
    seconds: float
    peak_mb: float

    def json(self) -> Any:
        return json.loads(self.out)


def measure_gno(env: dict[str, str], *argv: str, timeout: float = 60) -> Measured:
    """Run ``gno argv`` with ``env``; its exit code, output, wall seconds and peak RSS in MB."""
    started = time.monotonic()
    wrapper = subprocess.run(
        [
            sys.executable,
            "-c",
            _WRAPPER,
            str(ADDRESS_SPACE_CAP),
            str(timeout),
            sys.executable,
            "-m",
            "gno_cli.main",
            *argv,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout + 30,
        check=True,
    )
    seconds = time.monotonic() - started
    report = json.loads(wrapper.stdout)
    return Measured(
        report["code"], report["out"], report["err"], seconds, report["peak_kib"] / 1024
    )
