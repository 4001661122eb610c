"""Contract suite of the ``WriteLease`` port, run against the OS lock and the in-memory fake;
the OS lock also across processes (a live holder refuses, a SIGKILLed one frees it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gno_adapters.files.lease import LOCK_NAME, FileWriteLease
from gno_adapters.inmemory.lease import InMemoryWriteLease
from gno_core.errors import CancelledError, LockedError, RuntimeFailure
from gno_core.ports import WriteLease
from gno_core.ports.lease import NOTICE_AFTER_SECONDS, LeaseHolder

Factory = Callable[[Path], WriteLease]


@pytest.fixture(params=["file", "memory"])
def make_lease(request: pytest.FixtureRequest) -> Factory:
    if request.param == "file":
        return FileWriteLease
    shared: dict[Path, InMemoryWriteLease] = {}
    return lambda root: shared.setdefault(root, InMemoryWriteLease())


def _hold_in_thread(lease: WriteLease, release: threading.Event) -> threading.Event:
    held = threading.Event()

    def run() -> None:
        with lease.hold(5):
            held.set()
            release.wait(10)

    threading.Thread(target=run, daemon=True).start()
    assert held.wait(5)
    return held


def test_hold_is_reentrant_in_one_thread(make_lease: Factory, tmp_path: Path) -> None:
    lease = make_lease(tmp_path)
    with lease.hold(0), lease.hold(0):
        pass
    with lease.hold(0):
        pass


def test_another_thread_waits_then_gets_locked(make_lease: Factory, tmp_path: Path) -> None:
    lease = make_lease(tmp_path)
    release = threading.Event()
    _hold_in_thread(lease, release)
    started = time.monotonic()
    with pytest.raises(LockedError) as info, lease.hold(0.2):
        pass
    assert time.monotonic() - started >= 0.2
    assert info.value.code == "LOCKED"
    release.set()


def test_a_waiter_gets_the_lease_once_released(make_lease: Factory, tmp_path: Path) -> None:
    lease = make_lease(tmp_path)
    release = threading.Event()
    _hold_in_thread(lease, release)
    threading.Timer(0.1, release.set).start()
    with lease.hold(5):
        pass


def test_an_exception_inside_releases(make_lease: Factory, tmp_path: Path) -> None:
    lease = make_lease(tmp_path)
    with pytest.raises(ValueError), lease.hold(0):
        raise ValueError("boom")
    done = threading.Event()

    def other() -> None:
        with lease.hold(1):
            done.set()

    t = threading.Thread(target=other)
    t.start()
    t.join(5)
    assert done.is_set()


def test_cancellation_stops_a_wait(make_lease: Factory, tmp_path: Path) -> None:
    lease = make_lease(tmp_path)
    release = threading.Event()
    _hold_in_thread(lease, release)
    cancel = threading.Event()
    threading.Timer(0.05, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(CancelledError), lease.hold(30, cancel.is_set):
        pass
    assert time.monotonic() - started < 5
    release.set()


_HOLDER = """
import sys, time
from pathlib import Path
from gno_adapters.files.lease import FileWriteLease
with FileWriteLease(Path(sys.argv[1])).hold(5):
    print("held", flush=True)
    time.sleep(60)
"""


def _start_holder(root: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(root)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_os_lock_excludes_other_processes_and_a_killed_holder_frees_it(tmp_path: Path) -> None:
    proc = _start_holder(tmp_path)
    try:
        with pytest.raises(LockedError), FileWriteLease(tmp_path).hold(0.2):
            pass
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        with FileWriteLease(tmp_path).hold(2):
            first = (tmp_path / LOCK_NAME).read_text().splitlines()[0]
            assert first == str(os.getpid())
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        assert proc.stdout is not None
        proc.stdout.close()


def test_lock_file_is_private(tmp_path: Path) -> None:
    with FileWriteLease(tmp_path / "data").hold(0):
        pass
    assert (tmp_path / "data" / LOCK_NAME).stat().st_mode & 0o077 == 0


def test_a_link_at_the_lock_name_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"a user's bytes\n")
    (tmp_path / "data").mkdir(mode=0o700)
    (tmp_path / "data" / LOCK_NAME).symlink_to(outside)
    with pytest.raises(RuntimeFailure), FileWriteLease(tmp_path / "data").hold(0):
        pass
    assert outside.read_bytes() == b"a user's bytes\n"


def test_a_waiter_is_told_at_once_who_holds_it(make_lease: Factory, tmp_path: Path) -> None:
    """The holder (pid, what, since) reaches a waiter as soon as it has to wait, and names
    itself in the ``LOCKED`` that ends a wait."""
    lease = make_lease(tmp_path)
    held, release = threading.Event(), threading.Event()

    def run() -> None:
        with lease.hold(5, purpose="embed"):
            held.set()
            release.wait(10)

    threading.Thread(target=run, daemon=True).start()
    assert held.wait(5)
    told: list[tuple[float, LeaseHolder | None]] = []
    started = time.monotonic()
    try:
        assert lease.holder() == LeaseHolder(os.getpid(), "embed", lease.holder().since)  # type: ignore[union-attr]
        with (
            pytest.raises(LockedError) as info,
            lease.hold(0.5, on_wait=lambda h: told.append((time.monotonic() - started, h))),
        ):
            pass
    finally:
        release.set()
    assert len(told) == 1
    after, holder = told[0]
    assert NOTICE_AFTER_SECONDS <= after < 0.4
    assert holder is not None and (holder.pid, holder.purpose) == (os.getpid(), "embed")
    assert holder.since.endswith("Z")
    assert f"pid {os.getpid()}" in info.value.message and "embed" in info.value.message
    assert info.value.details["holder"] == {
        "pid": os.getpid(),
        "purpose": "embed",
        "since": holder.since,
    }


def test_no_holder_when_free_and_no_notice_without_a_wait(
    make_lease: Factory, tmp_path: Path
) -> None:
    lease = make_lease(tmp_path)
    assert lease.holder() is None
    told: list[LeaseHolder | None] = []
    with lease.hold(0, purpose="capture", on_wait=told.append):
        holder = lease.holder()
        assert holder is not None and holder.purpose == "capture"
    assert told == [] and lease.holder() is None


_NAMED_HOLDER = """
import sys, time
from pathlib import Path
from gno_adapters.files.lease import FileWriteLease
with FileWriteLease(Path(sys.argv[1])).hold(5, purpose="embed"):
    print("held", flush=True)
    time.sleep(60)
"""


def test_another_process_names_itself_to_a_waiter(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _NAMED_HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        told: list[LeaseHolder | None] = []
        with (
            pytest.raises(LockedError) as info,
            FileWriteLease(tmp_path).hold(0.2, on_wait=told.append),
        ):
            pass
        assert told and told[0] is not None and told[0].pid == proc.pid
        assert told[0].purpose == "embed"
        assert f"pid {proc.pid}" in info.value.message
        assert FileWriteLease(tmp_path).holder() == told[0]
    finally:
        proc.kill()
        proc.wait(10)
        assert proc.stdout is not None
        proc.stdout.close()
