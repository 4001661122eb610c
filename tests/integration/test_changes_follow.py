"""``gno changes --follow`` as a person and a script run it: a real child process that says on
stderr from which cursor it follows, then prints exactly the entries other processes commit
(capture, refactor rename, edit plus sync), in order, one line each (``--json``: one
``changes-follow-event@1.0`` object per line); Ctrl-C ends it with 130 and no traceback, a
reader that leaves ends it as SIGPIPE (141), and retention passing its cursor while it follows
says so (a ``cursorExpired`` event) and exits 2."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cli_helpers import Cli, run_gno
from tests.integration.streams import GNO_INTERACTIVE, GNO_SIGINT_IGNORED, Lines, home_env
from tests.schema_check import assert_valid


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    notes = tmp_path / "vault"
    notes.mkdir()
    (notes / "old.md").write_text("# Old\n\nbody\n", encoding="utf-8")
    (notes / "hub.md").write_text("# Hub\n\nSee [[old]].\n", encoding="utf-8")
    (notes / "plain.md").write_text("# Plain\n", encoding="utf-8")
    return notes


@pytest.fixture
def env(tmp_path: Path, vault: Path) -> dict[str, str]:
    made = home_env(tmp_path / "home")
    assert run_gno(made, "init", str(vault), "--name", "notes").returncode == 0
    assert run_gno(made, "update").returncode == 0
    return made


def _follow(env: dict[str, str], *args: str) -> tuple[subprocess.Popen[str], Lines, Lines]:
    proc, err = _start(env, *args)
    assert proc.stdout is not None
    return proc, Lines(proc.stdout), err


def _start(
    env: dict[str, str], *args: str, command: list[str] = GNO_INTERACTIVE
) -> tuple[subprocess.Popen[str], Lines]:
    """The follower, once it said from where it follows (its stdout left to the caller)."""
    proc = subprocess.Popen(
        [*command, "changes", "--follow", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    err = Lines(proc.stderr)
    try:
        notice = err.next(timeout=60)
        assert notice is not None
        assert notice.startswith("Following changes after gno-change-v1."), notice
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc, err


def _other_agent_writes(env: dict[str, str], vault: Path) -> None:
    """Capture, rename and edit from other processes, each waiting for the one before."""
    got = run_gno(env, "capture", "-c", "notes", "--path", "c/one.md", "Captured text.")
    assert got.returncode == 0, got.stderr
    got = run_gno(env, "rename", "notes/old.md", "new.md", "--yes")
    assert got.returncode == 0, got.stderr
    (vault / "plain.md").write_text("# Plain\n\n## Added\n", encoding="utf-8")
    assert run_gno(env, "update").returncode == 0


EXPECTED = [
    ("create", "c/one.md"),
    ("rename", "old.md->new.md"),
    ("update", "hub.md"),  # its link to old rewritten by the rename
    ("update", "plain.md"),
]


def _kind(change: dict[str, Any]) -> tuple[str, str]:
    side = change["current"] or change["previous"]
    path = side["relPath"]
    if change["kind"] == "rename":
        path = f"{change['previous']['relPath']}->{path}"
    return change["kind"], path


def _interrupt(proc: subprocess.Popen[str], err: Lines) -> str:
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    rest = "\n".join(err.rest())
    assert "Traceback" not in rest, rest
    return rest


def test_json_follow_prints_exactly_the_new_entries_in_order_and_ctrl_c_exits_130(
    env: dict[str, str], vault: Path
) -> None:
    proc, out, err = _follow(env, "--json")
    try:
        _other_agent_writes(env, vault)
        events = [json.loads(out.next() or "null") for _ in EXPECTED]
        for event in events:
            assert_valid("changes-follow-event", event)
            assert event["event"] == "change"
            assert event["cursor"] == event["change"]["id"]  # where to resume after it
        # Started at the latest cursor: the three creates of the first sync are not repeated.
        assert [_kind(e["change"]) for e in events] == EXPECTED
        assert out.quiet_for(1.5), out.seen  # nothing else
    finally:
        if proc.poll() is None:
            _interrupt(proc, err)
    assert out.rest() == []


def test_text_follow_from_a_cursor_prints_the_backlog_then_each_new_entry_on_one_line(
    env: dict[str, str], vault: Path
) -> None:
    page = json.loads(run_gno(env, "changes", "--json").stdout)
    mark = page["page"]["nextCursor"]
    (vault / "late.md").write_text("# Late\n", encoding="utf-8")
    assert run_gno(env, "update").returncode == 0
    proc, out, err = _follow(env, "--since", mark)
    try:
        assert " create     gno://notes/late.md" in (out.next() or "")
        _other_agent_writes(env, vault)
        lines = [out.next() or "" for _ in EXPECTED]
        assert " create     gno://notes/c/one.md" in lines[0]
        assert " rename     gno://notes/old.md -> gno://notes/new.md" in lines[1]
        assert " update     gno://notes/hub.md  (links +1/-1)" in lines[2]
        assert " update     gno://notes/plain.md  (headings +1/-0)" in lines[3]
        assert out.quiet_for(1.5), out.seen
    finally:
        if proc.poll() is None:
            _interrupt(proc, err)


def test_a_reader_that_leaves_ends_the_follow_as_sigpipe(env: dict[str, str], vault: Path) -> None:
    proc, err = _start(env)
    assert proc.stdout is not None
    proc.stdout.close()  # `gno changes --follow | head -1`, once head has its line
    (vault / "plain.md").write_text("# Plain\n\nnew\n", encoding="utf-8")
    assert run_gno(env, "update").returncode == 0
    assert proc.wait(timeout=30) == 141
    assert "Traceback" not in "\n".join(err.rest())


def test_a_follower_started_with_sigint_ignored_leaves_it_ignored(
    env: dict[str, str], vault: Path
) -> None:
    """A background job of a shell without job control: Ctrl-C at the terminal is not for it."""
    proc, err = _start(env, command=GNO_SIGINT_IGNORED)
    assert proc.stdout is not None
    out = Lines(proc.stdout)
    try:
        proc.send_signal(signal.SIGINT)
        (vault / "plain.md").write_text("# Plain\n\nstill followed\n", encoding="utf-8")
        assert run_gno(env, "update").returncode == 0
        assert " update     gno://notes/plain.md" in (out.next() or "")
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    out.rest()
    err.rest()


def test_retention_passing_the_cursor_while_following_says_so_and_exits_2(
    env: dict[str, str],
    vault: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    proc, out, err = _follow(env, "--json")
    try:
        # This process writes with a journal that keeps one entry: its sync of three files
        # (one transaction) drops two entries the follower has not read.
        import gno_adapters.sqlite.journal as sqlite_journal
        from gno_core.journal.entries import Retention

        monkeypatch.setattr(sqlite_journal.append, "__defaults__", (Retention(max_entries=1),))
        cli = Cli(tmp_path / "home", monkeypatch, capsys)
        for name in ("x", "y", "z"):
            (vault / f"{name}.md").write_text(f"# {name}\n", encoding="utf-8")
        cli.ok("update")
        event = json.loads(out.next() or "null")
        assert_valid("changes-follow-event", event)
        assert event["event"] == "cursorExpired" and "change" not in event
        assert event["earliestCursor"].startswith("gno-change-v1.")
        assert proc.wait(timeout=30) == 2
        assert out.rest() == []
        said = "\n".join(err.rest())
        assert "retention dropped changes" in said.lower() and "Traceback" not in said
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
