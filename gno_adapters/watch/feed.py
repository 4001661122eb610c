"""``WatchfilesFeed``: the ``ChangeFeed`` port over watchfiles (inotify, FSEvents,
ReadDirectoryChangesW through the Rust ``notify`` crate).

A thread owns the watch and queues batches: watchfiles already groups changes until none came
for ``step_ms`` (at most ``debounce_ms``), and ``batches`` merges whatever piled up while the
caller was syncing; a batch of ``burst_paths`` or more waits until the burst has been quiet for
``settle_seconds``, so a checkout of thousands of files costs one or two syncs however long it
takes to write. Editors'
write-to-temp-then-rename saves and files still being written show up as more changes to the
same paths, which the next sync reads again. When the OS watch cannot be set up or fails
(no inotify, watch limit reached, a network mount), the feed says so once and falls back to
yielding every root each ``scan_seconds`` (a periodic full sync, which skips unchanged files
by size and mtime).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterator, Sequence

from gno_core.ports.lease import Cancelled

__all__ = ["ManualFeed", "WatchfilesFeed"]

log = logging.getLogger(__name__)

#: How often a blocked ``batches`` looks at ``stop()``.
_STOP_POLL_SECONDS = 0.1


def _drain(pending: queue.Queue[frozenset[str]], first: frozenset[str]) -> frozenset[str]:
    merged = set(first)
    while True:
        try:
            merged |= pending.get_nowait()
        except queue.Empty:
            return frozenset(merged)


class ManualFeed:
    """Batches handed in with ``push`` (tests, and callers that learn of changes themselves)."""

    def __init__(self) -> None:
        self._queue: queue.Queue[frozenset[str]] = queue.Queue()

    def push(self, paths: set[str] | frozenset[str]) -> None:
        self._queue.put(frozenset(paths))

    def pending(self) -> bool:
        return not self._queue.empty()

    def batches(self, roots: Sequence[str], stop: Cancelled) -> Iterator[frozenset[str]]:
        while not stop():
            try:
                first = self._queue.get(timeout=_STOP_POLL_SECONDS)
            except queue.Empty:
                continue
            yield _drain(self._queue, first)


class WatchfilesFeed:
    def __init__(
        self,
        *,
        debounce_ms: int = 400,
        step_ms: int = 50,
        force_polling: bool = False,
        scan_seconds: float = 30.0,
        burst_paths: int = 100,
        settle_seconds: float = 0.5,
        max_settle_seconds: float = 30.0,
    ) -> None:
        self.burst_paths = burst_paths
        self.settle_seconds = settle_seconds
        self.max_settle_seconds = max_settle_seconds
        self.debounce_ms = debounce_ms
        self.step_ms = step_ms
        self.force_polling = force_polling
        self.scan_seconds = scan_seconds
        self._queue: queue.Queue[frozenset[str]] = queue.Queue()
        #: set once the OS watch failed and the periodic scan took over
        self.fallback_reason: str | None = None

    def pending(self) -> bool:
        return not self._queue.empty()

    def batches(self, roots: Sequence[str], stop: Cancelled) -> Iterator[frozenset[str]]:
        # The watch starts here, before the caller's first sync, so that nothing written
        # between that sync's walk and the first batch is missed.
        done, ready = threading.Event(), threading.Event()
        watcher = threading.Thread(
            target=self._watch, args=(list(roots), done, ready), name="gno-watch", daemon=True
        )
        if roots:
            watcher.start()
            ready.wait(timeout=5)
        return self._iterate(stop, done, watcher)

    def _iterate(
        self, stop: Cancelled, done: threading.Event, watcher: threading.Thread
    ) -> Iterator[frozenset[str]]:
        try:
            while not stop():
                try:
                    first = self._queue.get(timeout=_STOP_POLL_SECONDS)
                except queue.Empty:
                    continue
                yield self._settle(_drain(self._queue, first), stop)
        finally:
            done.set()
            if watcher.is_alive():
                watcher.join(timeout=5)

    def _settle(self, batch: frozenset[str], stop: Cancelled) -> frozenset[str]:
        """A batch of ``burst_paths`` or more is a checkout, an unzip or a sync tool at work:
        wait until it has been quiet for ``settle_seconds`` (at most ``max_settle_seconds``)
        so it costs one sync, not one per ``debounce_ms``. Small batches (an edit) go at once."""
        if len(batch) < self.burst_paths:
            return batch
        merged = set(batch)
        deadline = time.monotonic() + self.max_settle_seconds
        while not stop() and time.monotonic() < deadline:
            try:
                merged |= self._queue.get(timeout=self.settle_seconds)
            except queue.Empty:
                break
        return _drain(self._queue, frozenset(merged))

    def _watch(self, roots: list[str], done: threading.Event, ready: threading.Event) -> None:
        try:
            import watchfiles

            watching = watchfiles.watch(
                *roots,
                debounce=self.debounce_ms,
                step=self.step_ms,
                stop_event=done,
                force_polling=self.force_polling,
                raise_interrupt=False,
                ignore_permission_denied=True,
                # Wakes the generator without changes so ``ready`` is set once the OS watch
                # exists (watchfiles sets it up on the first ``next``).
                yield_on_timeout=True,
                rust_timeout=100,
            )
            for changes in watching:
                ready.set()
                if changes:
                    self._queue.put(frozenset(path for _, path in changes))
        except Exception as exc:  # any failure of the OS watch: scan instead, never stop
            ready.set()
            if done.is_set():
                return
            self.fallback_reason = f"{type(exc).__name__}: {exc}"
            log.warning(
                "file events unavailable (%s); scanning every %.0f s instead",
                self.fallback_reason,
                self.scan_seconds,
            )
            while not done.wait(self.scan_seconds):
                self._queue.put(frozenset(roots))
