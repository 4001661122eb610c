"""Capture on disk, across processes: writers serialise on the lease and all succeed; unsafe
targets (a symlinked folder out of the root, ``.git/``, a 50 MB body) write nothing; a capture
killed with SIGKILL while holding the lease leaves no partial note and a free lease."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gno_adapters.bootstrap import open_gno
from gno_adapters.files.lease import FileWriteLease
from gno_core.contracts.requests import SearchRequest
from gno_core.contracts.write_requests import CaptureRequest
from gno_core.errors import InvalidPathError, ValidationError
from tests.integration.cli_helpers import run_gno


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "seed.md").write_text("# Seed\n\nfirst note\n", encoding="utf-8")
    made = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }
    made.pop("GNO_MCP_ENABLE_WRITE", None)
    assert run_gno(made, "init", str(notes), "--name", "notes").returncode == 0
    assert run_gno(made, "update").returncode == 0
    return made


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


_HOLD = """
import sys, time
from pathlib import Path
from gno_adapters.files.lease import FileWriteLease
with FileWriteLease(Path(sys.argv[1])).hold(5):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_writers_in_other_processes_wait_for_the_lease_and_all_succeed(
    env: dict[str, str], tmp_path: Path
) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, env["GNO_DATA_DIR"], "1.0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    started = time.monotonic()
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gno_cli.main",
                "capture",
                f"parallel note {i} walrus",
                "--json",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    procs.append(
        subprocess.Popen(
            [sys.executable, "-m", "gno_cli.main", "update", "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    outs = [p.communicate(timeout=60) for p in procs]
    holder.communicate(timeout=10)
    assert time.monotonic() - started >= 0.9, "the writers waited for the holder"
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    receipts = [json.loads(out) for out, _ in outs[:2]]
    with open_gno("default", env=env) as gno:
        hits = {h.uri for h in gno.search(SearchRequest(query="walrus", limit=10)).results}
    assert hits == {r["uri"] for r in receipts}


def test_unsafe_targets_write_nothing(env: dict[str, str], tmp_path: Path) -> None:
    notes, outside = tmp_path / "notes", tmp_path / "outside"
    outside.mkdir()
    (notes / "escape").symlink_to(outside)
    before = _files(notes)
    with open_gno("default", env=env) as gno:
        for path, folder in (("escape/x.md", None), (None, "escape/deeper"), (".git/x.md", None)):
            with pytest.raises(InvalidPathError):
                gno.capture(
                    CaptureRequest(collection="notes", content="x", path=path, folderPath=folder)
                )
        with pytest.raises(ValidationError) as big:
            gno.capture(CaptureRequest(collection="notes", content="x" * (50 * 1024 * 1024)))
        assert big.value.details["code"] == "TOO_LARGE"
        with pytest.raises(ValidationError):
            gno.capture(CaptureRequest(collection="notes", content="\x00\x01\x02binary"))
    assert _files(notes) == before and list(outside.iterdir()) == []


_SLOW_CAPTURE = """
import sys, time
from gno_adapters.bootstrap import open_gno
from gno_adapters.files import notes as disk
from gno_core.contracts.write_requests import CaptureRequest

real = disk.LocalNoteFiles._write
def slow(self, root, folder, name, rel, data, *, replace):
    import os
    fd = os.open(disk.TEMP_PREFIX + "killed.tmp", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=folder)
    os.write(fd, data[:10])
    print("writing", flush=True)
    time.sleep(60)
disk.LocalNoteFiles._write = slow
with open_gno("default") as gno:
    gno.capture(CaptureRequest(collection="notes", content="never finished", path="k/killed.md"))
"""


def test_sigkill_mid_capture_leaves_no_note_and_a_free_lease(
    env: dict[str, str], tmp_path: Path
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW_CAPTURE], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    notes = tmp_path / "notes"
    assert not (notes / "k" / "killed.md").exists()
    with FileWriteLease(Path(env["GNO_DATA_DIR"])).hold(0):
        pass
    rerun = run_gno(env, "capture", "finished now", "--path", "k/killed.md", "--json")
    assert rerun.returncode == 0, rerun.stderr
    status = json.loads(run_gno(env, "status", "--json").stdout)
    assert status["totalDocuments"] == 2
    assert not [
        p for p in _files(notes) if p.endswith(".md") and "killed" not in p and "seed" not in p
    ]


def test_a_stdio_agent_with_write_captures_and_finds_it_next_call(env: dict[str, str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gno_cli.main", "mcp", "--enable-write"],
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
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "gno_capture",
                "arguments": {"collection": "notes", "content": "Axolotls regrow limbs."},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "gno_search", "arguments": {"query": "axolotls"}},
        },
    ]
    out, _ = proc.communicate("".join(json.dumps(m) + "\n" for m in messages), timeout=60)
    answers = {m["id"]: m for m in map(json.loads, out.splitlines()) if "id" in m}
    receipt = answers[2]["result"]["structuredContent"]
    hits = answers[3]["result"]["structuredContent"]["results"]
    assert receipt["sync"]["status"] == "completed"
    assert [h["uri"] for h in hits] == [receipt["uri"]]
