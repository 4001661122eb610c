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
import yaml

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


def set_policy(env: dict[str, str], collection: str, target: str) -> None:
    """What the operator does on the server's machine (through the Python API, on the same
    index files the daemon serves): tighten at once, relax with the one-use confirmation."""
    from gno_adapters.bootstrap.local import open_gno
    from tests.http_support import set_policy as apply

    with open_gno(env=env) as gno:
        apply(gno, collection, target)


def receipts(env: dict[str, str]) -> list[dict[str, Any]]:
    from gno_adapters.bootstrap.local import open_gno

    with open_gno(env=env) as gno:
        return list(gno.egress_audit_list(limit=50).wire()["receipts"])


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
    # A short keep-alive, so that a stream sees a policy change within the test's patience.
    config = Path(env["GNO_CONFIG_DIR"]) / "index.yml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data.setdefault("gateway", {})["keepaliveSeconds"] = 0.2
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    # contracts stays local_only (the default); handbook is shared with the LAN.
    set_policy(env, "handbook", "lan")
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


def rpc(http: httpx.Client, sid: str, name: str, arguments: dict[str, Any]) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return http.post("/mcp", json=body, headers={"Mcp-Session-Id": sid})


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


def test_a_lan_client_gets_only_the_lan_collection_and_the_receipts_say_so(
    daemon: NetnsPair, home: dict[str, str]
) -> None:
    def lan() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        with client(daemon) as http:
            sid = open_session(http)
            seen["search"] = rpc(http, sid, "gno_search", {"query": "quarterly", "limit": 20})
            seen["private"] = rpc(http, sid, "gno_get", {"ref": "gno://contracts/note-0.md"})
            seen["shared"] = rpc(http, sid, "gno_get", {"ref": "gno://handbook/note-0.md"})
            # The operator tightens handbook while a GET stream of this session is open.
            with http.stream("GET", "/mcp", headers={"Mcp-Session-Id": sid}) as stream:
                lines = stream.iter_lines()
                assert next(lines) == ": stream open"
                set_policy(home, "handbook", "local_only")
                seen["stream"] = list(lines)
            seen["after"] = rpc(http, sid, "gno_search", {"query": "quarterly", "limit": 20})
        return seen

    seen = daemon.in_client(lan)
    search = seen["search"]
    assert search.status_code == 200, search.text
    result = search.json()["result"]
    uris = {hit["uri"] for hit in result["structuredContent"]["results"]}
    assert uris == {f"gno://handbook/note-{n}.md" for n in range(4)}
    assert SHARED_MARK in search.text and PRIVATE_MARK not in search.text
    assert "gno://contracts/" not in search.text
    assert result["_meta"]["gno/egress"]["mode"] == "partial"
    assert result["_meta"]["gno/egress"]["omittedCollections"] == [
        {"collection": "contracts", "reason": "POLICY_LOCAL_ONLY"}
    ]
    private = seen["private"]
    assert private.status_code == 403, private.text
    assert private.json()["error"]["data"]["egress"]["reason"] == "POLICY_LOCAL_ONLY"
    assert PRIVATE_MARK not in private.text
    assert seen["shared"].status_code == 200 and SHARED_MARK in seen["shared"].text
    # Mid-stream: keep-alives, then the content-free retry event, then the end of the stream.
    stream = [line for line in seen["stream"] if line]
    assert stream[-2:] == [
        "event: egress_policy_changed",
        'data: {"code":"EGRESS_POLICY_CHANGED","retry":true}',
    ], stream
    assert set(stream[:-2]) <= {": keepalive"}
    after = seen["after"]
    assert after.status_code == 403 and after.json()["error"]["data"]["reason"] == "egress_denied"
    assert SHARED_MARK not in after.text and PRIVATE_MARK not in after.text

    kept = receipts(home)  # newest first
    print("\nreceipts, newest first:")
    for receipt in kept:
        print(
            json.dumps(
                {
                    k: receipt.get(k)
                    for k in (
                        "decision",
                        "mode",
                        "destinationZone",
                        "operation",
                        "reasonCode",
                        "collections",
                        "omittedCollections",
                    )
                }
            )
        )
    assert all(r["destinationZone"] == "lan" for r in kept)
    assert [(r["operation"], r["mode"]) for r in kept] == [
        ("gno_search", "denied"),
        ("gno_get", "complete"),
        ("gno_get", "denied"),
        ("gno_search", "partial"),
    ]
    partial = kept[3]
    assert partial["decision"] == "allow" and partial["collections"] == ["handbook"]
    assert partial["omittedCollections"] == [
        {"collection": "contracts", "reason": "POLICY_LOCAL_ONLY"}
    ]
    assert kept[2]["collections"] == [] and kept[2]["reasonCode"] == "POLICY_LOCAL_ONLY"
    text = json.dumps(kept)
    for content in ("quarterly", PRIVATE_MARK, SHARED_MARK, "note-0.md", str(daemon.client_ip)):
        assert content not in text  # content-free: no query, text, path or peer
