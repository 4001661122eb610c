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

An OS watch follows the folder it was set on, not its path: when a collection root is removed
and recreated (``rm -rf``, a checkout, a sync client), moved away (``mv vault vault.old``, a
parent folder renamed) or replaced, it goes silent without an error. The feed checks what stands
at each root every ``root_check_seconds`` and on every event naming a root; when it changed it
logs it, watches the new folder (or waits, logged, for one to appear again: a root gone, a file,
or a symlink that was not configured as one, which is not followed out) and yields the root,
since the events before the new watch were missed.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from typing import Any, cast

from gno_adapters.watch.roots import RootState, root_state
from gno_core.ports.lease import Cancelled

__all__ = ["ManualFeed", "WatchfilesFeed"]

log = logging.getLogger(__name__)

#: A running ``watchfiles.watch`` generator (closing it ends the OS watch).
_Watch = Generator[Any, None, None]

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
        root_check_seconds: float = 0.5,
    ) -> None:
        self.root_check_seconds = root_check_seconds
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

            _Arming(self, watchfiles, roots, done, ready).run()
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

    def _open(self, watchfiles: Any, roots: list[str], done: threading.Event) -> _Watch:
        return cast(
            "_Watch",
            watchfiles.watch(
                *roots,
                debounce=self.debounce_ms,
                step=self.step_ms,
                stop_event=done,
                force_polling=self.force_polling,
                raise_interrupt=False,
                ignore_permission_denied=True,
                # Wakes the generator without changes: the first ``next`` returns once the OS
                # watch exists (watchfiles sets it up there), and the roots get checked.
                yield_on_timeout=True,
                rust_timeout=100,
            ),
        )


class _Arming:
    """The watch thread's loop: one OS watch over the roots that are folders now, their
    identity checked every ``root_check_seconds`` and whenever an event names a root itself.
    When one was removed, recreated, moved away or replaced, it is logged, a new watch is set
    up over what is there now (before the old one is closed, so the other roots miss nothing)
    and a root that is a folder again is queued for a sync (its events before were missed).
    A root that is gone, a file or a symlink (unless configured as one) is waited for."""

    def __init__(
        self,
        feed: WatchfilesFeed,
        watchfiles: Any,
        roots: list[str],
        done: threading.Event,
        ready: threading.Event,
    ) -> None:
        self._feed, self._watchfiles, self._roots = feed, watchfiles, roots
        self._done, self._ready = done, ready
        self._follow = {root: os.path.islink(root) for root in roots}
        self._states = self._look()
        self._next_check = 0.0
        self._deleted = watchfiles.Change.deleted
        for root, state in self._states.items():
            if not state.watchable:
                self._lost(root, state)

    def _look(self) -> dict[str, RootState]:
        self._next_check = time.monotonic() + self._feed.root_check_seconds
        return {root: root_state(root, follow=self._follow[root]) for root in self._roots}

    def _lost(self, root: str, state: RootState) -> None:
        log.warning(
            "collection root %s is %s; watching for a folder there again (checked every %.1f s)",
            root,
            state.problem,
            self._feed.root_check_seconds,
        )

    def run(self) -> None:
        current: _Watch | None = None
        resync: set[str] = set()
        try:
            current = self._arm(None, resync)
            while not self._done.is_set():
                if current is None:
                    if self._done.wait(max(0.0, self._next_check - time.monotonic())):
                        return
                    batch: set[str] = set()
                    gone: set[str] = set()
                else:
                    try:
                        changes = next(current)
                    except StopIteration:
                        if self._done.is_set():
                            return
                        log.warning("the file watch ended by itself; re-arming it")
                        current = self._arm(current, set(self._roots))
                        continue
                    batch = {path for _, path in changes}
                    gone = {p for c, p in changes if c == self._deleted and p in self._roots}
                if not (batch & set(self._roots)) and time.monotonic() < self._next_check:
                    self._put(batch)
                    continue
                back = self._recheck(gone)
                if back is None:
                    self._put(batch)
                else:
                    self._put({p for p in batch if self._may_sync(p)})
                    current = self._arm(current, back)
        finally:
            if current is not None:
                current.close()

    def _recheck(self, gone: set[str]) -> set[str] | None:
        """Look at the roots again: None if none changed, else the roots that are watchable
        folders again (those that are not are logged). ``gone``: roots whose deletion the
        watch reported; they changed even when a new folder got the same inode number (ext4
        reuses the inode of a folder removed and recreated at once)."""
        before, self._states = self._states, self._look()
        moved = [root for root in self._roots if self._states[root] != before[root] or root in gone]
        if not moved:
            return None
        for root in moved:
            if not self._states[root].watchable:
                self._lost(root, self._states[root])
        return {root for root in moved if self._states[root].watchable}

    def _arm(self, old: _Watch | None, resync: set[str]) -> _Watch | None:
        """A new watch over the roots that are folders now (None if none is), set up before
        ``old`` is closed; then ``resync`` is queued, since its events before were missed."""
        armed = [root for root in self._roots if self._states[root].watchable]
        new: _Watch | None = None
        first: set[str] = set()
        try:
            if armed:
                new = self._feed._open(self._watchfiles, armed, self._done)
                first = {path for _, path in next(new, set())}
        except Exception:
            if new is not None:
                new.close()
            # The race of a root going away between the check and the watch: look again.
            back = self._recheck(set())
            if back is not None:
                return self._arm(old, resync | back)
            if old is None:
                raise
            # Two watches at once may pass the OS limit (inotify watches): without the old
            # one, once more; every root is synced, since none was watched for a moment.
            log.warning("the new watch could not be set up beside the old one; retrying alone")
            old.close()
            return self._arm(None, resync | set(armed))
        if old is not None:
            old.close()
        self._ready.set()
        for root in sorted(resync):
            log.warning("collection root %s was replaced; watch re-armed on it, syncing it", root)
        self._put(first | resync)
        return new

    def _may_sync(self, path: str) -> bool:
        """Whether ``path`` is under no root that is now gone, a file or a symlink not
        followed: nothing is synced there until a folder stands there again (then it is), so
        no sync reads through a link that replaced the root."""
        return not any(
            not state.watchable and _under(path, root) for root, state in self._states.items()
        )

    def _put(self, paths: set[str]) -> None:
        if paths:
            self._feed._queue.put(frozenset(paths))


def _under(path: str, root: str) -> bool:
    base = root.rstrip("/\\")
    return path == base or path.startswith((base + "/", base + "\\"))
