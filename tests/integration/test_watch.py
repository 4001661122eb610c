"""Live indexing with the real feed (watchfiles), walker and SQLite index: edits, atomic
saves, renames and deletes become searchable within seconds without running anything, a burst
of files costs at most three syncs, a collection root that is recreated, moved away, removed
for a while or replaced by a file or a symlink is noticed (logged, the watch re-armed on the
new folder and the folder synced), and the watch stops when asked."""

from __future__ import annotations

import logging
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gno_adapters.bootstrap import open_gno
from gno_core.config import CollectionConfig
from gno_core.contracts.requests import SearchRequest
from gno_core.indexing.live import LiveEvent

DEADLINE = 10.0


@pytest.fixture
def watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Path, list[LiveEvent]]]:
    for var, name in (
        ("GNO_CONFIG_DIR", "config"),
        ("GNO_DATA_DIR", "data"),
        ("GNO_CACHE_DIR", "cache"),
    ):
        monkeypatch.setenv(var, str(tmp_path / name))
    root = tmp_path / "vaults" / "notes"
    root.mkdir(parents=True)
    (root / "first.md").write_text("# First\n\nAn ordinary note.\n", encoding="utf-8")
    with open_gno() as gno:
        gno.add_collection(CollectionConfig(name="notes", path=str(root)))
    events: list[LiveEvent] = []
    stop = threading.Event()

    def watch() -> None:
        with open_gno() as gno:
            gno.watch(stop=stop.is_set, embed=False, on_event=events.append)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    _until(lambda: len(events) >= 1)  # the OS watch was set up before this first sync
    yield root, events
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive(), "the watch did not stop"


def _until(condition: Callable[[], object], deadline: float = DEADLINE) -> float:
    started = time.monotonic()
    while time.monotonic() - started < deadline:
        if condition():
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def _uris(word: str) -> list[str]:
    with open_gno() as gno:
        return [r.uri for r in gno.search(SearchRequest(query=word)).results]


def test_edits_renames_and_deletes_follow_the_files(watched: tuple[Path, list[LiveEvent]]) -> None:
    root, events = watched
    (root / "new.md").write_text("# New\n\nThe axolotl arrived.\n", encoding="utf-8")
    seconds = _until(lambda: _uris("axolotl") == ["gno://notes/new.md"])
    assert seconds < 5

    # An editor's save: write a temporary file, then rename it over the note.
    tmp = root / ".first.md.tmp"
    tmp.write_text("# First\n\nNow about a narwhal.\n", encoding="utf-8")
    os.replace(tmp, root / "first.md")
    _until(lambda: _uris("narwhal") == ["gno://notes/first.md"])
    assert _uris("ordinary") == []

    os.rename(root / "new.md", root / "moved.md")
    _until(lambda: _uris("axolotl") == ["gno://notes/moved.md"])

    (root / "moved.md").unlink()
    _until(lambda: _uris("axolotl") == [])
    assert all(e.error is None for e in events)


def test_a_burst_of_files_is_at_most_three_syncs(watched: tuple[Path, list[LiveEvent]]) -> None:
    root, events = watched
    before = len(events)
    folder = root / "burst"
    folder.mkdir()
    for i in range(500):
        (folder / f"n{i:03d}.md").write_text(f"# Note {i}\n\nbatchword{i}\n", encoding="utf-8")
    _until(lambda: sum(e.sync.total_added for e in events[before:] if e.sync) == 500)
    time.sleep(1.0)  # anything still queued for the burst would show up as another round
    rounds = events[before:]
    assert 1 <= len(rounds) <= 3, [e.changed for e in rounds]
    assert _uris("batchword499") == ["gno://notes/burst/n499.md"]


def test_changes_in_excluded_folders_sync_nothing(watched: tuple[Path, list[LiveEvent]]) -> None:
    root, events = watched
    before = len(events)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "x.md").write_text("ignored\n", encoding="utf-8")
    time.sleep(1.5)
    assert len(events) == before


#: Bound on "the root was replaced" -> "a note written in the new root is searchable": the root
#: is checked every 0.5 s, then the re-armed watch syncs it.
REARM_DEADLINE = 5.0


@pytest.fixture
def feed_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="gno_adapters.watch.feed")
    return caplog


def _logged(caplog: pytest.LogCaptureFixture, words: str) -> bool:
    return any(words in r.getMessage() for r in caplog.records)


def _write(path: Path, word: str) -> None:
    path.write_text(f"# Note\n\nAbout the {word}.\n", encoding="utf-8")


def test_a_recreated_root_is_watched_again(
    watched: tuple[Path, list[LiveEvent]], feed_log: pytest.LogCaptureFixture
) -> None:
    root, _ = watched
    shutil.rmtree(root)
    root.mkdir()
    _write(root / "new.md", "quokka")
    _until(lambda: _uris("quokka") == ["gno://notes/new.md"], REARM_DEADLINE)
    _until(lambda: _logged(feed_log, "re-armed"), REARM_DEADLINE)
    assert _uris("ordinary") == []  # the removed note was inactivated by the sync
    _write(root / "later.md", "pangolin")  # and the new watch sees later writes
    _until(lambda: _uris("pangolin") == ["gno://notes/later.md"])


def test_a_root_moved_away_and_replaced_is_watched_again(
    watched: tuple[Path, list[LiveEvent]], feed_log: pytest.LogCaptureFixture
) -> None:
    root, _ = watched
    os.rename(root, root.with_name("notes.old"))
    root.mkdir()
    _write(root / "new.md", "quokka")
    _until(lambda: _uris("quokka") == ["gno://notes/new.md"], REARM_DEADLINE)
    _until(lambda: _logged(feed_log, "re-armed"), REARM_DEADLINE)
    _write(root / "later.md", "pangolin")
    _until(lambda: _uris("pangolin") == ["gno://notes/later.md"])


def test_a_renamed_parent_folder_is_noticed(
    watched: tuple[Path, list[LiveEvent]], feed_log: pytest.LogCaptureFixture
) -> None:
    root, _ = watched
    parent = root.parent
    os.rename(parent, parent.with_name("vaults.old"))
    root.mkdir(parents=True)
    _write(root / "new.md", "quokka")
    _until(lambda: _uris("quokka") == ["gno://notes/new.md"], REARM_DEADLINE)
    _until(lambda: _logged(feed_log, "re-armed"), REARM_DEADLINE)


def test_a_removed_root_is_waited_for(
    watched: tuple[Path, list[LiveEvent]], feed_log: pytest.LogCaptureFixture
) -> None:
    root, _ = watched
    shutil.rmtree(root)
    _until(lambda: _logged(feed_log, "is gone"), REARM_DEADLINE)
    assert _uris("ordinary") == ["gno://notes/first.md"]  # a missing root empties nothing
    time.sleep(0.6)  # a check or two with the root still missing
    root.mkdir()
    _write(root / "back.md", "quokka")
    _until(lambda: _uris("quokka") == ["gno://notes/back.md"], REARM_DEADLINE)
    _until(lambda: _logged(feed_log, "re-armed"), REARM_DEADLINE)
    assert _uris("ordinary") == []


def test_a_root_replaced_by_a_file_or_a_symlink_is_not_followed(
    watched: tuple[Path, list[LiveEvent]], feed_log: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    root, _ = watched
    outside = tmp_path / "outside"
    outside.mkdir()
    _write(outside / "secret.md", "wolverine")
    shutil.rmtree(root)
    root.symlink_to(outside, target_is_directory=True)  # at once: no sync may read through it
    _until(lambda: _logged(feed_log, "symlink"), REARM_DEADLINE)
    _write(outside / "later.md", "wolverine")
    time.sleep(1.0)
    assert _uris("wolverine") == []  # nothing was read through the link
    assert _uris("ordinary") == ["gno://notes/first.md"]  # nor anything removed meanwhile
    root.unlink()
    root.write_text("not a folder\n", encoding="utf-8")
    _until(lambda: _logged(feed_log, "not a folder"), REARM_DEADLINE)
    root.unlink()
    root.mkdir()
    _write(root / "back.md", "quokka")
    _until(lambda: _uris("quokka") == ["gno://notes/back.md"], REARM_DEADLINE)
    _until(lambda: _logged(feed_log, "re-armed"), REARM_DEADLINE)


def _cli_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a ``gno`` subprocess with its config, data and cache in ``tmp_path``."""
    return {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }


def _reap(proc: subprocess.Popen[str]) -> None:
    """Kill ``proc`` if it still runs and close its pipes."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def _uris_in(env: dict[str, str], word: str) -> list[str]:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "gno_cli", "search", word, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [r["uri"] for r in json.loads(out.stdout)["results"]]


def test_serve_watch_keeps_the_resident_index_live(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    env = _cli_env(tmp_path)
    root = tmp_path / "live"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nfirst\n", encoding="utf-8")

    def gno(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gno_cli", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )

    assert gno("collection", "add", str(root), "--name", "live").returncode == 0
    started = gno("serve", "--port", "0", "--watch", "--detach", "--json")
    assert started.returncode == 0, started.stderr
    try:

        def found() -> bool:
            out = gno("search", "wombat", "--json")
            return out.returncode == 0 and bool(json.loads(out.stdout)["results"])

        (root / "b.md").write_text("# B\n\nwombat\n", encoding="utf-8")
        _until(found, 30)
    finally:
        assert gno("serve", "--stop").returncode == 0


def test_gno_watch_prints_each_round_and_stops_on_sigterm(tmp_path: Path) -> None:
    import json
    import signal
    import subprocess
    import sys

    env = _cli_env(tmp_path)
    root = tmp_path / "live"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nfirst\n", encoding="utf-8")
    add = [sys.executable, "-m", "gno_cli", "collection", "add", str(root), "--name", "live"]
    assert subprocess.run(add, env=env, capture_output=True, check=False).returncode == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "gno_cli", "watch", "--no-embed", "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        decoder = json.JSONDecoder()

        def next_round() -> dict[str, object]:
            text = ""
            while True:
                line = proc.stdout.readline()  # type: ignore[union-attr]
                assert line, proc.stderr.read() if proc.stderr else ""
                text += line
                if line.startswith("}"):
                    round_: dict[str, object] = decoder.decode(text)
                    return round_

        first = next_round()
        assert first["collections"] == ["live"] and first["error"] is None
        (root / "b.md").write_text("# B\n\nsecond\n", encoding="utf-8")
        second = next_round()
        assert second["sync"]["totalAdded"] == 1  # type: ignore[index]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        _reap(proc)


def test_gno_watch_re_arms_when_its_root_is_recreated(tmp_path: Path) -> None:
    import json
    import signal
    import subprocess
    import sys

    env = _cli_env(tmp_path)
    root = tmp_path / "vault"
    root.mkdir()
    _write(root / "a.md", "first")
    add = [sys.executable, "-m", "gno_cli", "collection", "add", str(root), "--name", "vault"]
    assert subprocess.run(add, env=env, capture_output=True, check=False).returncode == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "gno_cli", "watch", "--no-embed", "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout

        def read() -> None:
            for line in stdout:
                lines.put(line)

        threading.Thread(target=read, daemon=True).start()
        decoder = json.JSONDecoder()

        def next_round(deadline: float) -> dict[str, object]:
            text = ""
            while True:
                line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
                text += line
                if line.startswith("}"):
                    round_: dict[str, object] = decoder.decode(text)
                    return round_

        def added_until(count: int, seconds: float) -> None:
            deadline, added = time.monotonic() + seconds, 0
            while added < count:  # queue.Empty past the deadline
                round_ = next_round(deadline)
                added += round_["sync"]["totalAdded"]  # type: ignore[index]

        next_round(time.monotonic() + 30)
        shutil.rmtree(root)
        root.mkdir()
        _write(root / "new.md", "quokka")
        added_until(1, REARM_DEADLINE)  # the deletion's round (maybe), the re-armed sync
        _until(lambda: _uris_in(env, "quokka") == ["gno://vault/new.md"], 30)
        _write(root / "later.md", "pangolin")  # seen by the new watch
        added_until(1, REARM_DEADLINE)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        assert "watch re-armed" in proc.stderr.read()
    finally:
        _reap(proc)
