"""Detached start, restart and shutdown of the installed resident gateway: ``gno-daemon
--detach`` / ``--status`` / ``--stop``, one owner per data directory, a restart serving the same
index, a stopped server leaving no pid file and no listener, and a detached server that runs the
installed code whatever folder it was started from."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from pkg_support import BIN, detached, gno, gno_json, validate_contract, wait_gone


def search(base: str) -> object:
    found = httpx.post(base + "/api/search", json={"query": "wikilinks", "limit": 3}, timeout=30)
    assert found.status_code == 200, found.text
    return found.json()


def test_detached_daemon_status_restart_and_stop(gno_env: dict[str, str]) -> None:
    data = Path(gno_env["GNO_DATA_DIR"])
    started = gno(gno_env, "--port", "0", "--detach", exe="gno-daemon")
    assert started.returncode == 0, started.stderr
    assert "running in the background" in started.stdout
    first = gno_json(gno_env, "--status", exe="gno-daemon")
    validate_contract("process-status", first)
    assert first["running"] and first["cmd"] == "daemon"
    assert first["resident"]["admission"]["state"] == "accepting"
    base = f"http://127.0.0.1:{first['port']}"
    try:
        assert httpx.get(base + "/api/health", timeout=10).json() == {"ok": True}
        again = gno(gno_env, "daemon", "--port", "0", "--detach")
        assert again.returncode == 1 and "already running" in again.stderr
        other = gno(gno_env, "serve", "--port", "0")
        assert other.returncode == 1 and "already owns the data directory" in other.stderr
    finally:
        stopped = gno(gno_env, "--stop", exe="gno-daemon")
    assert stopped.returncode == 0, stopped.stderr
    assert f"Stopped gno daemon (pid {first['pid']})" in stopped.stdout
    assert wait_gone(first["pid"]) and not (data / "serve.pid").exists()
    with pytest.raises(httpx.ConnectError):
        httpx.get(base + "/api/health", timeout=5)
    after = gno(gno_env, "daemon", "--status", "--json")
    assert after.returncode == 3 and json.loads(after.stdout)["running"] is False

    # Restart: a new process over the same index answers as the first did.
    with detached(gno_env, "serve") as one:
        before = search(one["base"])
    with detached(gno_env, "serve") as two:
        assert two["pid"] != one["pid"]
        assert search(two["base"]) == before


def test_a_detached_server_runs_the_installed_code_from_any_folder(
    gno_env: dict[str, str], tmp_path: Path
) -> None:
    """Started from a folder holding another ``gno_cli`` (a checkout of another version, say),
    the background server is still the installed one."""
    impostor = tmp_path / "gno_cli"
    impostor.mkdir()
    (impostor / "__init__.py").write_text('raise SystemExit("the gno_cli of the cwd ran")\n')
    started = gno(gno_env, "serve", "--port", "0", "--detach", "--json", cwd=tmp_path)
    assert started.returncode == 0, started.stderr + started.stdout
    status = json.loads(started.stdout)
    try:
        assert httpx.get(f"http://127.0.0.1:{status['port']}/api/health").status_code == 200
    finally:
        assert gno(gno_env, "serve", "--stop").returncode == 0


def test_sigterm_stops_a_foreground_server_cleanly(gno_env: dict[str, str]) -> None:
    data = Path(gno_env["GNO_DATA_DIR"])
    proc = subprocess.Popen(
        [str(BIN / "gno"), "serve", "--port", "0"],
        env=gno_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (data / "serve.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        port = json.loads((data / "serve.pid").read_text())["port"]
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 0, err
    assert not (data / "serve.pid").exists()
