"""Every writer of the facade holds the write lease: with another holder it waits, then
answers ``LOCKED``; cancelled sync and embed runs stop at the next batch."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_core.config import CollectionConfig
from gno_core.defaults import WRITE_WAIT_SECONDS
from gno_core.errors import CancelledError, LockedError
from gno_core.facade import Gno
from gno_core.ports import Cancelled, WriteLease
from gno_core.ports.lease import LeaseHolder, OnWait


@pytest.fixture
def gno() -> Iterator[Gno]:
    notes = {f"n{i}.md": f"# Note {i}\n\nbody {i}\n" for i in range(40)}
    with build(in_memory(notes)) as g:
        yield g


def _held_elsewhere(gno: Gno) -> threading.Event:
    held, release = threading.Event(), threading.Event()

    def run() -> None:
        with gno.handle.writing(5):
            held.set()
            release.wait(10)

    threading.Thread(target=run, daemon=True).start()
    assert held.wait(5)
    return release


def test_sync_embed_index_wait_then_answer_locked(gno: Gno) -> None:
    release = _held_elsewhere(gno)
    try:
        for call in (
            lambda: gno.sync(lease_wait=0.05),
            lambda: gno.embed(lease_wait=0.05),
            lambda: gno.index(lease_wait=0.05),
        ):
            with pytest.raises(LockedError):
                call()
    finally:
        release.set()
    assert gno.sync().total_added == 40


class _SpyLease:
    def __init__(self, inner: WriteLease) -> None:
        self.inner = inner
        self.holds: list[float] = []
        self.purposes: list[str] = []

    @property
    def location(self) -> str:
        return self.inner.location

    def holder(self) -> LeaseHolder | None:
        return self.inner.holder()

    def hold(
        self,
        wait_seconds: float,
        cancelled: Cancelled | None = None,
        *,
        purpose: str = "write",
        on_wait: OnWait | None = None,
    ) -> AbstractContextManager[None]:
        self.holds.append(wait_seconds)
        self.purposes.append(purpose)
        return self.inner.hold(wait_seconds, cancelled, purpose=purpose, on_wait=on_wait)


def test_collection_changes_take_the_lease(gno: Gno) -> None:
    spy = _SpyLease(gno.handle.lease)
    gno.handle.lease = spy
    gno.init()
    gno.add_collection(CollectionConfig(name="more", path="/more"))
    gno.rename_collection("more", "most")
    gno.remove_collection("most")
    assert spy.holds == [WRITE_WAIT_SECONDS] * 4
    assert [c.name for c in gno.list_collections().collections] == ["notes"]


def test_a_cancelled_sync_stops_and_keeps_whole_batches(gno: Gno) -> None:
    seen = []

    def cancelled() -> bool:
        seen.append(1)
        return len(seen) > 5

    with pytest.raises(CancelledError) as info:
        gno.sync(cancelled=cancelled)
    assert info.value.details["done"] == 5
    assert gno.sync().total_added == 35


def test_a_cancelled_embed_stops_before_the_next_batch(gno: Gno) -> None:
    gno.sync()
    calls = []

    def cancelled() -> bool:
        calls.append(1)
        return len(calls) > 1

    with pytest.raises(CancelledError):
        gno.embed(batch_size=4, cancelled=cancelled)
    assert gno.embed(batch_size=4, dry_run=True).pending == gno.status().embedding_backlog
    assert gno.status().embedding_backlog > 0
