"""Egress end to end over a network path that is not loopback: a ``gno daemon`` bound to its
private address in one network namespace (bearer token, exact Host and Origin), an MCP client in
another, joined by a veth pair the test makes (``tests/netns_support.py``). Skips, naming the
reason, only where this process cannot create namespaces (not root, no iproute2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.netns_support import NetnsPair, netns_pair, netns_unavailable

REPO = Path(__file__).resolve().parents[2]
GNO = [sys.executable, "-m", "gno_cli.main"]
PORT = 8765
HOST = "gno.lan"
TOKEN = "n" * 48
ACCEPT = "application/json, text/event-stream"
#: The words only each collection's documents hold.
PRIVATE_MARK = "zebracorn"
SHARED_MARK = "lanternfish"

_why = netns_unavailable()
pytestmark = pytest.mark.skipif(_why is not None, reason=f"no network namespaces: {_why}")


def gno(env: dict[str, str], *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GNO, *argv],
        check=False,
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write_notes(root: Path, mark: str, count: int = 4) -> Path:
    root.mkdir(parents=True)
    for n in range(count):
        (root / f"note-{n}.md").write_text(
            f"# Quarterly review {n}\n\nThe quarterly review {n} mentions {mark} twice: "
            f"{mark} matters.\n",
            encoding="utf-8",
        )
    return root


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": str(REPO),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    private = write_notes(tmp_path / "contracts", PRIVATE_MARK)
    shared = write_notes(tmp_path / "handbook", SHARED_MARK)
    for argv in (
        ["collection", "add", str(private), "--name", "contracts"],
        ["collection", "add", str(shared), "--name", "handbook"],
        ["update"],
    ):
        done = gno(env, *argv)
        assert done.returncode == 0, done.stderr
    token = tmp_path / "daemon.token"
    token.write_text(TOKEN + "\n")
    token.chmod(0o600)
    env["GNO_TEST_TOKEN_FILE"] = str(token)
    return env


@pytest.fixture
def daemon(home: dict[str, str]) -> Iterator[NetnsPair]:
    """``gno daemon`` in the server namespace, bound to its private address."""
    with netns_pair() as pair:
        log = Path(home["GNO_DATA_DIR"]) / "netns-daemon.log"
        with log.open("wb") as sink:
            proc = pair.start(
                [
                    *GNO,
                    "daemon",
                    "--host",
                    pair.server_ip,
                    "--port",
                    str(PORT),
                    "--mcp-token-file",
                    home["GNO_TEST_TOKEN_FILE"],
                    "--mcp-allowed-host",
                    HOST,
                    "--mcp-allowed-origin",
                    f"http://{HOST}",
                ],
                env=home,
                cwd=REPO,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        pid_file = Path(home["GNO_DATA_DIR"]) / "serve.pid"
        deadline = time.monotonic() + 60
        while not pid_file.exists():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield pair


def client(pair: NetnsPair) -> httpx.Client:
    return httpx.Client(
        base_url=f"http://{pair.server_ip}:{PORT}",
        headers={"Host": HOST, "Authorization": f"Bearer {TOKEN}", "Accept": ACCEPT},
        timeout=30,
    )


def rpc(http: httpx.Client, sid: str | None, method: str, params: dict[str, Any]) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 2, "method": method, "params": params}
    headers = {"Mcp-Session-Id": sid} if sid else {}
    return http.post("/mcp", json=body, headers=headers)


def open_session(http: httpx.Client) -> str:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "netns", "version": "1"},
        },
    }
    response = http.post("/mcp", json=init)
    assert response.status_code == 200, response.text
    sid = response.headers["mcp-session-id"]
    http.post(
        "/mcp",
        json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        headers={"Mcp-Session-Id": sid},
    )
    return sid


def test_the_lan_client_reaches_the_daemon_over_the_veth(daemon: NetnsPair) -> None:
    def lan() -> dict[str, Any]:
        with client(daemon) as http:
            assert http.get("/api/health").json() == {"ok": True}
            sid = open_session(http)
            answer = rpc(
                http, sid, "tools/call", {"name": "gno_search", "arguments": {"query": "quarterly"}}
            )
            assert answer.status_code == 200, answer.text
            return dict(answer.json())

    result = daemon.in_client(lan)
    print(json.dumps(result)[:2000])
