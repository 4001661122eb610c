"""``FileWriteLease``: the write lease as an OS advisory lock (``flock``) on
``.mcp-write.lock`` under the data directory, shared by every gno process on the machine.

The kernel drops a ``flock`` when its holder's descriptor closes, so a holder killed with
SIGKILL releases the lease with its process and never wedges the next writer. A ``flock`` belongs
to an open file description, not a thread, so within one process the threads first serialise on
one reentrant lock per lock file and only the outermost holder takes the OS lock.

The holder writes who it is into the file (pid, what it does, since when; one per line), so a
waiter in another process can name it; a waiter in this process reads the same record from
memory.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from gno_adapters.fsutil import PRIVATE_FILE_MODE, ensure_private_dir
from gno_core.errors import CancelledError, RuntimeFailure
from gno_core.ports.lease import (
    NOTICE_AFTER_SECONDS,
    Cancelled,
    LeaseHolder,
    OnWait,
    lease_locked,
)

__all__ = ["LOCK_NAME", "FileWriteLease", "now_iso"]

LOCK_NAME = ".mcp-write.lock"
#: How often a waiter retries the OS lock: short enough that a capture queued behind another
#: one starts within a few milliseconds of its release.
POLL_SECONDS = 0.002
MAX_POLL_SECONDS = 0.02
#: A waiter that cannot read the holder's record yet (it is being written) names no holder
#: after this long rather than keep quiet.
NAME_WITHIN_SECONDS = 0.3
MAX_RECORD_BYTES = 512


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class _ProcessLease:
    """This process's side of one lock file: the thread lock, the OS descriptor, the depth,
    and who in this process holds it."""

    __slots__ = ("depth", "fd", "holder", "path", "threads")

    def __init__(self, path: str) -> None:
        self.path = path
        self.threads = threading.RLock()
        self.fd: int | None = None
        self.depth = 0
        self.holder: LeaseHolder | None = None


_LEASES: dict[str, _ProcessLease] = {}
_LEASES_LOCK = threading.Lock()


def _process_lease(path: str) -> _ProcessLease:
    with _LEASES_LOCK:
        lease = _LEASES.get(path)
        if lease is None:
            lease = _LEASES[path] = _ProcessLease(path)
        return lease


def _record(holder: LeaseHolder) -> bytes:
    purpose = " ".join(holder.purpose.split())[:80] or "write"
    return f"{holder.pid}\n{purpose}\n{holder.since}\n".encode()


def _parse(data: bytes) -> LeaseHolder | None:
    lines = data.decode("utf-8", "replace").splitlines()
    if len(lines) < 3 or not lines[0].strip().isdigit():
        return None
    return LeaseHolder(int(lines[0]), lines[1].strip() or "write", lines[2].strip())


class _Waiter:
    """One hold's wait: its deadline, cancellation, and the one notice of who holds it."""

    def __init__(
        self,
        lease: FileWriteLease,
        wait_seconds: float,
        cancelled: Cancelled | None,
        on_wait: OnWait | None,
    ) -> None:
        self.lease = lease
        self.wait_seconds = wait_seconds
        self.started = time.monotonic()
        self.deadline = self.started + max(0.0, wait_seconds)
        self.cancelled = cancelled
        self.on_wait = on_wait

    def blocked(self) -> None:
        """Another holder is in the way: tell ``on_wait`` (once), stop when due."""
        waited = time.monotonic() - self.started
        if self.on_wait is not None and waited >= NOTICE_AFTER_SECONDS:
            holder = self.lease.holder()
            if holder is not None or waited >= NAME_WITHIN_SECONDS:
                notify, self.on_wait = self.on_wait, None
                notify(holder)
        path = self.lease.location
        if self.cancelled is not None and self.cancelled():
            raise CancelledError(
                "Cancelled while waiting for the write lease", details={"lock": path}
            )
        if time.monotonic() >= self.deadline:
            raise lease_locked(path, self.wait_seconds, self.lease.holder())


class FileWriteLease:
    """The lease of the index whose data directory is ``directory``."""

    def __init__(self, directory: Path) -> None:
        self._dir = directory
        self._shared = _process_lease(str(directory / LOCK_NAME))

    @property
    def location(self) -> str:
        return self._shared.path

    def holder(self) -> LeaseHolder | None:
        shared = self._shared
        mine = shared.holder
        if mine is not None:
            return mine
        try:
            with open(shared.path, "rb") as handle:
                data = handle.read(MAX_RECORD_BYTES)
        except OSError:
            return None
        found = _parse(data)
        if found is None or found.pid == os.getpid():
            return None  # a record this process left behind: no one here holds it now
        try:  # the record outlives its holder: ask whether the lock is taken now
            fd = os.open(shared.path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return found
        finally:
            os.close(fd)
        return None

    @contextmanager
    def hold(
        self,
        wait_seconds: float,
        cancelled: Cancelled | None = None,
        *,
        purpose: str = "write",
        on_wait: OnWait | None = None,
    ) -> Iterator[None]:
        shared = self._shared
        waiter = _Waiter(self, wait_seconds, cancelled, on_wait)
        delay = POLL_SECONDS
        while not shared.threads.acquire(timeout=delay):
            waiter.blocked()
            delay = min(delay * 2, MAX_POLL_SECONDS)
        try:
            if shared.depth == 0:
                shared.fd = self._lock_os(waiter, purpose)
            shared.depth += 1
            try:
                yield
            finally:
                shared.depth -= 1
                if shared.depth == 0 and shared.fd is not None:
                    fd, shared.fd, shared.holder = shared.fd, None, None
                    # Closing drops the flock; the file stays (unlinking it would let a waiter
                    # lock a name no one else opens any more).
                    os.close(fd)
        finally:
            shared.threads.release()

    def _lock_os(self, waiter: _Waiter, purpose: str) -> int:
        path = self._shared.path
        try:
            ensure_private_dir(self._dir)
            flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(path, flags, PRIVATE_FILE_MODE)  # it truncates: never through a link
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
                    waiter.blocked()
                    time.sleep(delay)
                    delay = min(delay * 2, MAX_POLL_SECONDS)
            holder = LeaseHolder(os.getpid(), purpose, now_iso())
            # Who holds it, for a waiter in another process and a person looking at the file.
            os.ftruncate(fd, 0)
            os.pwrite(fd, _record(holder), 0)
            self._shared.holder = holder
        except BaseException:
            os.close(fd)
            raise
        return fd
