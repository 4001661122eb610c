"""Helpers of the packaged gateway conformance suite: everything runs through the entry points
of the installed wheel (``<venv>/bin/gno``, ``gno-mcp``, ``gno-daemon``) in subprocesses, and
every answer is checked over the wire. Nothing here imports the source tree: its ``contracts/``
are read as data only (``GNO_SOURCE_TREE``)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

VENV = Path(os.path.abspath(os.environ["GNO_PACKAGE_VENV"]))
BIN = VENV / "bin"
SOURCE = Path(os.environ["GNO_SOURCE_TREE"]).resolve()
CONTRACTS = SOURCE / "contracts"
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"


CAPTURE = {"name": "gno_capture", "arguments": {"collection": "no-such-collection", "content": "x"}}


def write_token(path: Path, value: str) -> Path:
    """Replace the token file atomically, owner-only (what an operator's rotation does)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(value + "\n")
    fresh.chmod(0o600)
    os.replace(fresh, path)
    return path


def gno(
    env: dict[str, str], *argv: str, exe: str = "gno", timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """One run of an installed entry point (``exe``) from the scratch directory."""
    return subprocess.run(
        [str(BIN / exe), *argv],
        check=False,
        env=env,
        cwd=cwd or Path.cwd(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def gno_json(env: dict[str, str], *argv: str, exe: str = "gno") -> Any:
    result = gno(env, *argv, "--json", exe=exe)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def validate_contract(name: str, value: Any) -> None:
    """``value`` against the committed ``contracts/<name>.schema.json``."""
    schema = json.loads((CONTRACTS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(value)


def assert_refusal(response: httpx.Response, status: int, reason: str) -> dict[str, Any]:
    """A boundary refusal: the closed ``mcp-http-error@1.0`` body with this status and reason."""
    assert response.status_code == status, (response.status_code, response.text)
    body: dict[str, Any] = response.json()
    validate_contract("mcp-http-error", body)
    assert body["error"]["data"] == {"status": status, "reason": reason}, body
    return body


def initialize_body(rid: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "initialize",
        "params": {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "package-test", "version": "1"},
        },
    }


def legacy_session(http: httpx.Client, **headers: str) -> str:
    """A 2025-11-25 session opened over raw HTTP; its ``Mcp-Session-Id``."""
    response = http.post("/mcp", json=initialize_body(), headers={"Accept": ACCEPT, **headers})
    assert response.status_code == 200, response.text
    sid = response.headers["mcp-session-id"]
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    note = http.post(
        "/mcp", json=done, headers={"Accept": ACCEPT, "Mcp-Session-Id": sid, **headers}
    )
    assert note.status_code in (200, 202), note.text
    return sid


def session_call(
    http: httpx.Client, sid: str, method: str, params: dict[str, Any] | None = None, **headers: str
) -> httpx.Response:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": 2, "method": method}
    if params is not None:
        body["params"] = params
    return http.post(
        "/mcp", json=body, headers={"Accept": ACCEPT, "Mcp-Session-Id": sid, **headers}
    )


def rpc_result(response: httpx.Response) -> Any:
    """The JSON-RPC result of a JSON or single-event SSE answer."""
    assert response.status_code == 200, response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        message = json.loads(data[-1])
    else:
        message = response.json()
    assert "result" in message, message
    return message["result"]


def server_pid(env: dict[str, str]) -> int:
    record = json.loads((Path(env["GNO_DATA_DIR"]) / "serve.pid").read_text())
    return int(record["pid"])


def proc_threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def proc_rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kib / 1024


def proc_open_files(pid: int, under: Path) -> list[str]:
    """The files under ``under`` that ``pid`` holds open (its index connections among them)."""
    found = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith(str(under)):
                found.append(target)
    return sorted(found)


def proc_children(pid: int) -> list[int]:
    children: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            children += [int(c) for c in f.read().split()]
    return children


def wait_gone(pid: int, seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@contextmanager
def detached(env: dict[str, str], cmd: str, *flags: str) -> Iterator[dict[str, Any]]:
    """``gno <cmd> --detach --port 0 <flags>`` for the ``with`` block; its process status (the
    ``process-status`` contract, checked), stopped afterwards with ``gno <cmd> --stop``."""
    started = gno(env, cmd, "--port", "0", "--detach", "--json", *flags)
    assert started.returncode == 0, started.stderr + started.stdout
    status: dict[str, Any] = json.loads(started.stdout)
    validate_contract("process-status", status)
    status["base"] = f"http://127.0.0.1:{status['port']}"
    try:
        yield status
    finally:
        stopped = gno(env, cmd, "--stop")
        if stopped.returncode != 0:  # never leave a server behind, whatever the test did
            with suppress(ProcessLookupError):
                os.kill(status["pid"], 9)
        assert stopped.returncode == 0, stopped.stderr + stopped.stdout
        assert wait_gone(status["pid"]), "the server outlived --stop"
