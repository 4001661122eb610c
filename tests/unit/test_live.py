"""The live-indexing use case over fakes: which collections a batch touches, one sync per
batch, embeddings behind, errors reported without ending the watch."""

from __future__ import annotations

import logging
import shutil
import threading
import time
from pathlib import Path

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.watch.feed import ManualFeed, WatchfilesFeed
from gno_core.config import CollectionConfig
from gno_core.contracts.requests import SearchRequest
from gno_core.indexing.live import LiveEvent, touched_collections


def test_touched_collections_follow_roots_and_exclusions() -> None:
    notes = CollectionConfig(name="notes", path="/data/notes")
    other = CollectionConfig(name="other", path="/data/notes-other")
    both = [notes, other]
    assert touched_collections(frozenset({"/data/notes/a.md"}), both) == ["notes"]
    assert touched_collections(frozenset({"/data/notes-other/a.md"}), both) == ["other"]
    assert touched_collections(frozenset({"/data/notes"}), both) == ["notes"]
    assert touched_collections(frozenset({"/data/notes/.git/index"}), both) == []
    assert touched_collections(frozenset({"/elsewhere/a.md"}), both) == []
    win = CollectionConfig(name="win", path="C:\\notes")
    assert touched_collections(frozenset({"C:\\notes\\sub\\a.md"}), [win]) == ["win"]


def test_each_batch_is_one_sync_and_embeddings_follow() -> None:
    adapters = in_memory({"a.md": "# A\n\nalpha\n"})
    feed = adapters.changes
    assert isinstance(feed, ManualFeed)
    gno = build(adapters)
    events: list[LiveEvent] = []
    stop = threading.Event()

    def on_event(event: LiveEvent) -> None:
        events.append(event)
        if len(events) == 1:
            adapters.tree.write("/notes/b.md", "# B\n\nbravo\n")  # type: ignore[attr-defined]
            feed.push({"/notes/b.md", "/notes/c.md"})
            feed.push({"/elsewhere/x.md"})
        elif len(events) == 2:
            stop.set()

    gno.watch(stop=stop.is_set, on_event=on_event)
    first, second = events
    assert first.sync is not None and first.sync.total_added == 1
    assert second.collections == ("notes",) and second.changed == 3
    assert second.sync is not None and second.sync.total_added == 1
    assert second.embed is not None and second.embed.embedded >= 1
    assert [r.uri for r in gno.search(SearchRequest(query="bravo")).results] == ["gno://notes/b.md"]


def test_a_move_in_one_watch_batch_is_one_rename() -> None:
    """A file moved while watching (the OS reports the old path gone and the new one made, or
    one rename event: one batch of both paths) is journaled as one ``rename``."""
    adapters = in_memory({"a.md": "# A\n\nalpha\n", "b.md": "# B\n"})
    feed = adapters.changes
    assert isinstance(feed, ManualFeed)
    tree = adapters.tree
    gno = build(adapters)
    events: list[LiveEvent] = []
    stop = threading.Event()

    def on_event(event: LiveEvent) -> None:
        events.append(event)
        if len(events) == 1:
            data = tree.read("/notes/a.md", 1 << 20)  # type: ignore[attr-defined]
            tree.remove("/notes/a.md")  # type: ignore[attr-defined]
            tree.write("/notes/sub/moved.md", data)  # type: ignore[attr-defined]
            feed.push({"/notes/a.md", "/notes/sub/moved.md"})
        else:
            stop.set()

    gno.watch(stop=stop.is_set, on_event=on_event, embed=False)
    journal = gno.handle.index.journal
    got = [(e.kind, e.previous, e.current) for e in journal.entries(limit=100)]
    assert [k for k, _, _ in got] == ["create", "create", "rename"]
    _, before, after = got[-1]
    assert before is not None and after is not None
    assert (before.rel_path, after.rel_path) == ("a.md", "sub/moved.md")


def test_the_feed_falls_back_to_a_periodic_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import watchfiles

    def no_events(*_: object, **__: object) -> object:
        raise OSError(28, "inotify watch limit reached")

    monkeypatch.setattr(watchfiles, "watch", no_events)
    feed = WatchfilesFeed(scan_seconds=0.05)
    stop = threading.Event()
    batches = feed.batches([str(tmp_path)], stop.is_set)
    first = next(iter(batches))
    stop.set()
    batches.close()  # type: ignore[attr-defined]
    assert first == frozenset({str(tmp_path)})
    assert feed.fallback_reason is not None and "watch limit" in feed.fallback_reason


def test_a_burst_waits_until_it_is_quiet() -> None:
    feed = WatchfilesFeed(burst_paths=3, settle_seconds=0.2)
    feed._queue.put(frozenset({"/n/late.md"}))
    assert feed._settle(frozenset({"/n/a.md", "/n/b.md", "/n/c.md"}), lambda: False) == {
        "/n/a.md",
        "/n/b.md",
        "/n/c.md",
        "/n/late.md",
    }
    assert feed._settle(frozenset({"/n/a.md"}), lambda: False) == {"/n/a.md"}


def _replace_root_under_a_feed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: set[int]
) -> tuple[WatchfilesFeed, list[frozenset[str]], int]:
    """A feed over a real folder whose ``watchfiles.watch`` calls numbered in ``failing`` raise
    (the OS watch limit): the root is recreated; the batches until the root was yielded after
    the third call (re-armed or fallen back) are returned with the number of calls."""
    import watchfiles

    real, calls = watchfiles.watch, []

    def limited(*args: object, **kwargs: object) -> object:
        calls.append(args)
        if len(calls) in failing:
            raise OSError(28, "inotify watch limit reached")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(watchfiles, "watch", limited)
    root = tmp_path / "notes"
    root.mkdir()
    feed = WatchfilesFeed(scan_seconds=0.05, root_check_seconds=0.05)
    stop = threading.Event()
    batches = feed.batches([str(root)], stop.is_set)
    shutil.rmtree(root)
    root.mkdir()
    seen: list[frozenset[str]] = []
    deadline = time.monotonic() + 10
    try:
        while time.monotonic() < deadline:
            seen.append(next(batches))
            fell_back = feed.fallback_reason is not None
            if len(calls) >= 3 and str(root) in seen[-1] and fell_back == (3 in failing):
                break  # the sync after the re-arm, or the periodic scan's
    finally:
        stop.set()
        batches.close()  # type: ignore[attr-defined]
    return feed, seen, len(calls)


def test_a_re_arm_past_the_watch_limit_retries_without_the_old_watch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="gno_adapters.watch.feed")
    feed, seen, calls = _replace_root_under_a_feed(tmp_path, monkeypatch, {2})
    assert calls == 3 and feed.fallback_reason is None
    assert str(tmp_path / "notes") in seen[-1]  # synced after the re-arm
    assert "retrying alone" in caplog.text and "re-armed" in caplog.text


def test_a_failed_re_arm_falls_back_to_the_periodic_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    feed, seen, calls = _replace_root_under_a_feed(tmp_path, monkeypatch, {2, 3})
    assert calls == 3
    assert feed.fallback_reason is not None and "watch limit" in feed.fallback_reason
    assert seen[-1] == frozenset({str(tmp_path / "notes")})  # the periodic full sync
