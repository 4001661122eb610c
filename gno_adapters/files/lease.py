"""``FileWriteLease``: the write lease as an OS advisory lock (``flock``) on
``.mcp-write.lock`` under the data directory, shared by every gno process on the machine.

The kernel drops a ``flock`` when its holder's descriptor closes, so a holder killed with
SIGKILL releases the lease with its process and never wedges the next writer. A ``flock`` belongs
to an open file description, not a thread, so within one process the threads first serialise on
one reentrant lock per lock file and only the outermost holder takes the OS lock.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gno_adapters.fsutil import PRIVATE_FILE_MODE, ensure_private_dir
from gno_core.errors import CancelledError, LockedError, RuntimeFailure
from gno_core.ports.lease import Cancelled

__all__ = ["LOCK_NAME", "FileWriteLease"]

LOCK_NAME = ".mcp-write.lock"
#: How often a waiter retries the OS lock: short enough that a capture queued behind another
#: one starts within a few milliseconds of its release.
POLL_SECONDS = 0.002
MAX_POLL_SECONDS = 0.02


class _ProcessLease:
    """This process's side of one lock file: the thread lock, the OS descriptor, the depth."""

    __slots__ = ("depth", "fd", "path", "threads")

    def __init__(self, path: str) -> None:
        self.path = path
        self.threads = threading.RLock()
        self.fd: int | None = None
        self.depth = 0


_LEASES: dict[str, _ProcessLease] = {}
_LEASES_LOCK = threading.Lock()


def _process_lease(path: str) -> _ProcessLease:
    with _LEASES_LOCK:
        lease = _LEASES.get(path)
        if lease is None:
            lease = _LEASES[path] = _ProcessLease(path)
        return lease


def _locked(path: str, wait_seconds: float) -> LockedError:
    return LockedError(
        f"Another gno writer holds the write lease ({path}); waited {wait_seconds:g}s. "
        "Retry when it has finished",
        details={"lock": path, "waitSeconds": wait_seconds},
    )


class FileWriteLease:
    """The lease of the index whose data directory is ``directory``."""

    def __init__(self, directory: Path) -> None:
        self._dir = directory
        self._shared = _process_lease(str(directory / LOCK_NAME))

    @property
    def location(self) -> str:
        return self._shared.path

    @contextmanager
    def hold(self, wait_seconds: float, cancelled: Cancelled | None = None) -> Iterator[None]:
        shared = self._shared
        deadline = time.monotonic() + max(0.0, wait_seconds)
        delay = POLL_SECONDS
        while not shared.threads.acquire(timeout=delay):
            _give_up_if_due(shared.path, wait_seconds, deadline, cancelled)
            delay = min(delay * 2, MAX_POLL_SECONDS)
        try:
            if shared.depth == 0:
                shared.fd = self._lock_os(wait_seconds, deadline, cancelled)
            shared.depth += 1
            try:
                yield
            finally:
                shared.depth -= 1
                if shared.depth == 0 and shared.fd is not None:
                    fd, shared.fd = shared.fd, None
                    # Closing drops the flock; the file stays (unlinking it would let a waiter
                    # lock a name no one else opens any more).
                    os.close(fd)
        finally:
            shared.threads.release()

    def _lock_os(self, wait_seconds: float, deadline: float, cancelled: Cancelled | None) -> int:
        path = self._shared.path
        try:
            ensure_private_dir(self._dir)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE_MODE)
        except OSError as exc:
            raise RuntimeFailure(
                f"Cannot open the write lease {path}: {exc.strerror or exc}",
                details={"lock": path},
            ) from exc
        delay = POLL_SECONDS
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    _give_up_if_due(path, wait_seconds, deadline, cancelled)
                    time.sleep(delay)
                    delay = min(delay * 2, MAX_POLL_SECONDS)
            # Who holds it, for a person looking at a stuck writer; never read by gno.
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        return fd


def _give_up_if_due(
    path: str, wait_seconds: float, deadline: float, cancelled: Cancelled | None
) -> None:
    if cancelled is not None and cancelled():
        raise CancelledError("Cancelled while waiting for the write lease", details={"lock": path})
    if time.monotonic() >= deadline:
        raise _locked(path, wait_seconds)
