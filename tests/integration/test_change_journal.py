"""The change journal on disk, written by each real path that changes the index (sync, refactor
rename, capture, deletion, collection removal), read by ``gno changes``/``gno diff`` in new
processes (cursors valid across restarts), paged and expired by retention; under a watch, a
capture flood and a rename running together, one entry per real change; and an agent over stdio
with the core profile reading ``gno_changes`` after another agent captured and renamed."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cli_helpers import Cli, run_gno
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
def cli(
    tmp_path: Path,
    vault: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Cli:
    made = Cli(tmp_path, monkeypatch, capsys)
    made.ok("init", str(vault), "--name", "notes")
    made.ok("update")
    return made


def _changes(cli: Cli, *args: str) -> dict[str, Any]:
    got: dict[str, Any] = cli.ok("changes", "--json", *args).json()
    assert_valid("changes", got)
    return got


def _kinds(page: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for c in page["changes"]:
        side = c["current"] or c["previous"]
        path = side["relPath"]
        if c["kind"] == "rename":
            path = f"{c['previous']['relPath']}->{path}"
        out.append((c["kind"], path))
    return out


def test_each_kind_comes_from_its_real_path(cli: Cli, vault: Path) -> None:
    first = _changes(cli)
    assert sorted(_kinds(first)) == [("create", p) for p in ("hub.md", "old.md", "plain.md")]
    mark = first["page"]["nextCursor"]

    (vault / "plain.md").write_text("# Plain\n\n## Added\n\n[[hub]]\n", encoding="utf-8")
    cli.ok("update")
    cli.ok("rename", "notes/old.md", "new.md", "--yes")
    receipt = cli.ok("capture", "-c", "notes", "--json", "Captured text.").json()
    (vault / "plain.md").unlink()
    cli.ok("update")
    (vault / "plain.md").write_text("# Plain\n\n## Added\n\n[[hub]]\n", encoding="utf-8")
    cli.ok("update")
    cli.ok("update")  # nothing changed: no entry

    after = _changes(cli, "--since", mark)
    captured = receipt["relPath"] if "relPath" in receipt else receipt["uri"].split("/", 3)[-1]
    assert _kinds(after) == [
        ("update", "plain.md"),
        ("rename", "old.md->new.md"),
        ("update", "hub.md"),  # its link to old rewritten by the rename
        ("create", captured),
        ("inactivate", "plain.md"),
        ("reactivate", "plain.md"),
    ]
    update = after["changes"][0]["structureDelta"]
    assert update["headings"]["added"] == ["## Added"] and update["links"]["added"] == ["hub"]
    assert "body" not in json.dumps(after)  # metadata only

    diff = cli.ok("diff", "notes/old.md", "--json").json()
    assert_valid("document-diff", diff)
    assert diff["status"] == "available" and diff["change"]["kind"] == "rename"
    assert diff["content"] == {"status": "not_retained", "reason": "journal_metadata_only"}
    text = cli.ok("diff", "notes/plain.md").out
    assert "reactivate" in text and "content: not retained" in text

    cli.ok("collection", "remove", "notes")
    removed = _changes(cli, "--since", after["page"]["nextCursor"])
    assert {k for k, _ in _kinds(removed)} == {"inactivate"}
    assert sorted(p for _, p in _kinds(removed)) == sorted(
        ["hub.md", "new.md", "plain.md", captured]
    )


def test_cursor_pages_across_restarts_and_expires_with_retention(
    cli: Cli, vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(5):
        (vault / f"n{i}.md").write_text(f"# N{i}\n", encoding="utf-8")
    cli.ok("update")
    seen: list[str] = []
    cursor: str | None = None
    while True:
        page = _changes(cli, "--limit", "2", *(["--since", cursor] if cursor else []))
        seen += [c["current"]["relPath"] for c in page["changes"]]
        cursor = page["page"]["nextCursor"]
        if not page["page"]["truncated"]:
            break
    assert sorted(seen) == sorted(["hub.md", "old.md", "plain.md"] + [f"n{i}.md" for i in range(5)])
    assert len(seen) == len(set(seen))
    # Another process (a restart) reads the same cursor: nothing after it yet, then one.
    env = {k: os.environ[k] for k in ("GNO_CONFIG_DIR", "GNO_DATA_DIR", "GNO_CACHE_DIR")}
    env = {**os.environ, **env}
    proc = run_gno(env, "changes", "--json", "--since", cursor)
    assert proc.returncode == 0 and json.loads(proc.stdout)["changes"] == []
    (vault / "n0.md").write_text("# N0 again\n", encoding="utf-8")
    assert run_gno(env, "update").returncode == 0
    proc = run_gno(env, "changes", "--json", "--since", cursor)
    assert [c["kind"] for c in json.loads(proc.stdout)["changes"]] == ["update"]
    old = page["page"]["earliestCursor"]

    # Retention passes the old cursor: it says so and starts at the oldest kept.
    import gno_adapters.sqlite.journal as sqlite_journal
    from gno_core.journal.entries import Retention

    monkeypatch.setattr(sqlite_journal.append, "__defaults__", (Retention(max_entries=3),))
    for i in range(5):
        (vault / f"m{i}.md").write_text(f"# M{i}\n", encoding="utf-8")
    cli.ok("update")
    expired = _changes(cli, "--since", old)
    assert expired["page"]["cursorExpired"] is True and expired["warnings"]
    assert len(expired["changes"]) == 3
    assert expired["page"]["earliestCursor"] != old
    fresh = _changes(cli, "--since", expired["page"]["latestCursor"])
    assert fresh["changes"] == [] and fresh["page"]["cursorExpired"] is False
    # and a time before the history kept says so too
    by_time = _changes(cli, "--since", "2000-01-01")
    assert by_time["page"]["retentionTruncated"] is True
    bad = cli("changes", "--since", "gno-change-v1.!!")
    assert bad.code != 0


def _env(tmp_path: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    return env


def _all_changes(env: dict[str, str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        args = ["changes", "--json", "--limit", "1000", *(["--since", cursor] if cursor else [])]
        proc = run_gno(env, *args)
        assert proc.returncode == 0, proc.stderr
        page = json.loads(proc.stdout)
        out += page["changes"]
        cursor = page["page"]["nextCursor"]
        if not page["page"]["truncated"]:
            return out


def _atomic_write(path: Path, text: str) -> None:
    """Write as editors save: a temporary file renamed over the path (a watch sees it whole)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _replay(changes: list[dict[str, Any]]) -> dict[str, str]:
    """The active documents the journal describes (path -> source hash), each entry checked
    against the state before it (a create of a live path, a rename from a dead one, ... fail)."""
    live: dict[str, str] = {}
    for c in changes:
        prev, cur = c["previous"], c["current"]
        if c["kind"] in ("create", "reactivate"):
            assert cur["relPath"] not in live, c
        elif c["kind"] == "rename":
            assert live.pop(prev["relPath"]) == prev["sourceHash"], c
            assert cur["relPath"] not in live, c
        elif c["kind"] == "update":
            assert live[cur["relPath"]] == prev["sourceHash"], c
        if c["kind"] == "inactivate":
            assert live.pop(prev["relPath"]) == prev["sourceHash"], c
        else:
            live[cur["relPath"]] = cur["sourceHash"]
    return live


def test_watch_capture_flood_and_rename_together_give_one_entry_per_change(
    tmp_path: Path, vault: Path
) -> None:
    """A watch runs while another process captures a flood of notes, ``gno rename`` moves one,
    files are written outside gno, one is edited and one moved in a shell (``mv``): one entry per
    real change, none lost, and the journal replayed from the start gives exactly the files on
    disk with their bytes."""
    env = _env(tmp_path)
    assert run_gno(env, "init", str(vault), "--name", "notes").returncode == 0
    assert run_gno(env, "update").returncode == 0
    watch = subprocess.Popen(
        [sys.executable, "-m", "gno_cli.main", "watch", "--no-embed"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    flood = 12
    edits = 6
    try:
        time.sleep(1.5)
        script = (
            "import sys\n"
            "from gno_adapters.bootstrap import open_gno\n"
            "from gno_core.contracts.write_requests import CaptureRequest\n"
            "with open_gno('default') as gno:\n"
            f"    for i in range({flood}):\n"
            "        gno.capture(CaptureRequest(collection='notes', content=f'flood {i}',"
            " path=f'flood/f{i}.md'), lease_wait=60)\n"
        )
        capture = subprocess.Popen([sys.executable, "-c", script], env=env)
        rename = subprocess.Popen(
            [sys.executable, "-m", "gno_cli.main", "rename", "notes/plain.md", "moved.md", "--yes"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for i in range(edits):  # files written outside gno: only the watch indexes them
            _atomic_write(vault / f"edit{i}.md", f"# Edit {i}\n")
            if i == edits // 2:
                (vault / "sub").mkdir()
                os.rename(vault / "old.md", vault / "sub" / "shell-moved.md")  # a shell mv
                _atomic_write(vault / "hub.md", "# Hub\n\nEdited in an editor.\n")
            time.sleep(0.1)
        assert capture.wait(timeout=300) == 0
        _, err = rename.communicate(timeout=300)
        assert rename.returncode == 0, err
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the watch indexed every change outside gno
            got = _all_changes(env)
            kinds = [c["kind"] for c in got]
            created = sum(c["kind"] == "create" and "edit" in c["current"]["relPath"] for c in got)
            if created == edits and kinds.count("rename") == 2 and "update" in kinds:
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"the watch did not journal every change outside gno: {kinds}")
    finally:
        watch.send_signal(signal.SIGTERM)
        watch.wait(timeout=30)
    assert run_gno(env, "update").returncode == 0  # a last sync finds nothing new to journal
    got = _all_changes(env)
    files = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))
    creates = sorted(c["current"]["relPath"] for c in got if c["kind"] == "create")
    renames = sorted(
        (c["previous"]["relPath"], c["current"]["relPath"]) for c in got if c["kind"] == "rename"
    )
    assert renames == [("old.md", "sub/shell-moved.md"), ("plain.md", "moved.md")]
    # every file on disk was created once (a renamed one under its old name), none twice
    assert creates == sorted(
        [*(f for f in files if f not in ("moved.md", "sub/shell-moved.md")), "plain.md", "old.md"]
    )
    assert not [c for c in got if c["kind"] in ("inactivate", "reactivate")]
    assert [c["current"]["relPath"] for c in got if c["kind"] == "update"] == ["hub.md"]
    # one entry per real change: 3 notes indexed at init, the flood, the edits written outside
    # gno, the hub edit, the gno rename and the shell move
    assert len(got) == 3 + flood + edits + 1 + 2
    assert len([f for f in files if f.startswith("flood/")]) == flood
    # counted against the files: the journal replayed is the vault, byte for byte
    on_disk = {f: hashlib.sha256((vault / f).read_bytes()).hexdigest() for f in files}
    assert _replay(got) == on_disk


def test_a_core_agent_reads_the_changes_another_agent_made(tmp_path: Path, vault: Path) -> None:
    env = _env(tmp_path)
    assert run_gno(env, "init", str(vault), "--name", "notes").returncode == 0
    assert run_gno(env, "update").returncode == 0

    def session(profile: str, write: bool, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        args = [sys.executable, "-m", "gno_cli.main", "mcp", "--tool-profile", profile]
        proc = subprocess.Popen(
            [*args, *(["--enable-write"] if write else [])],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        init = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        messages: list[dict[str, Any]] = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ]
        for i, (name, arguments) in enumerate(calls, start=1):
            messages.append(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": name, "arguments": arguments},
                }
            )
        out, _ = proc.communicate("".join(json.dumps(m) + "\n" for m in messages), timeout=120)
        answers = {m["id"]: m for m in map(json.loads, out.splitlines()) if "id" in m}
        return [answers[i]["result"] for i in range(1, len(calls) + 1)]

    (before,) = session("core", False, [("gno_changes", {"limit": 1000})])
    cursor = before["structuredContent"]["page"]["latestCursor"]
    writes = session(
        "full",
        True,
        [
            ("gno_capture", {"collection": "notes", "content": "one", "path": "c/one.md"}),
            ("gno_capture", {"collection": "notes", "content": "two", "path": "c/two.md"}),
            (
                "gno_rename_note",
                {"action": "preview", "ref": "notes/plain.md", "name": "renamed.md"},
            ),
        ],
    )
    assert not any(w.get("isError") for w in writes), writes
    digest = writes[2]["structuredContent"]["planDigest"]
    apply = {
        "action": "apply",
        "ref": "notes/plain.md",
        "name": "renamed.md",
        "schemaVersion": "1.0",
        "planDigest": digest,
        "confirmation": "apply",
        "confirm": True,
    }
    (applied,) = session("full", True, [("gno_rename_note", apply)])
    assert not applied.get("isError"), applied
    (after,) = session("core", False, [("gno_changes", {"since": cursor})])
    assert not after.get("isError"), after
    got = after["structuredContent"]
    assert_valid("changes", got)
    assert _kinds(got) == [
        ("create", "c/one.md"),
        ("create", "c/two.md"),
        ("rename", "plain.md->renamed.md"),
    ]


def test_a_shell_move_and_a_collection_rename_are_renames(cli: Cli, vault: Path) -> None:
    mark = _changes(cli)["page"]["latestCursor"]
    (vault / "sub").mkdir()
    (vault / "old.md").rename(vault / "sub" / "moved.md")  # a mv in a shell
    cli.ok("update")
    page = _changes(cli, "--since", mark)
    assert _kinds(page) == [("rename", "old.md->sub/moved.md")]
    (change,) = page["changes"]
    assert change["previous"]["uri"] == "gno://notes/old.md"
    assert change["current"]["uri"] == "gno://notes/sub/moved.md"
    assert change["previous"]["sourceHash"] == change["current"]["sourceHash"]

    mark = page["page"]["nextCursor"]
    cli.ok("collection", "rename", "notes", "kb")
    page = _changes(cli, "--since", mark)
    assert {c["kind"] for c in page["changes"]} == {"rename"}
    moves = sorted((c["previous"]["uri"], c["current"]["uri"]) for c in page["changes"])
    assert moves == [
        (f"gno://notes/{p}", f"gno://kb/{p}") for p in ("hub.md", "plain.md", "sub/moved.md")
    ]
    assert _changes(cli, "--since", mark, "-c", "kb")["changes"] == page["changes"]
    diff = cli.ok("diff", "notes/hub.md", "--json").json()  # the old name still finds it
    assert diff["status"] == "available" and diff["change"]["kind"] == "rename"
    cli.ok("update")
    assert _changes(cli, "--since", page["page"]["nextCursor"])["changes"] == []
