"""Raw JSON lines against a real ``serve_stdio`` process (over the real in-memory facade, which
``FakeGno`` slows down where a test cancels): era pinning, framing, stdout hygiene, cancellation,
laziness and shutdown."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gno_core.errors import ValidationError
from tests.wire import real_facade
from tests.wire.real_facade import MODERN, envelope

REPO = Path(__file__).resolve().parents[2]
FAKE_SERVER = Path(__file__).with_name("mcp_fakes.py")
INIT = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "raw", "version": "1"},
}


class StdioProc:
    """A server process spoken to in raw JSON lines."""

    def __init__(
        self, *args: str, env: dict[str, str] | None = None, command: list[str] | None = None
    ) -> None:
        self.proc = subprocess.Popen(
            [*(command or [sys.executable, str(FAKE_SERVER)]), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
            cwd=REPO,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.raw: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.raw.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: Any) -> None:
        assert self.proc.stdin is not None
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def request(self, rid: Any, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "server closed stdout"
        message: dict[str, Any] = json.loads(line)
        return message

    def call(self, rid: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.request(rid, method, params)
        response = self.recv()
        assert response["id"] == rid
        return response

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()

    def __enter__(self) -> StdioProc:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def finish(self) -> tuple[int, list[dict[str, Any]], str]:
        """Close stdin; return the exit status, every message still to come, and stderr."""
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        rest = []
        while (line := self.lines.get(timeout=10)) is not None:
            rest.append(json.loads(line))
        rc = self.proc.wait(timeout=10)
        return rc, rest, self.proc.stderr.read().decode()


@pytest.fixture
def spawn() -> Iterator[Any]:
    """``spawn(*args, env=...)`` starts a server that is reaped at teardown."""
    started: list[StdioProc] = []

    def start(*args: str, env: dict[str, str] | None = None) -> StdioProc:
        started.append(StdioProc(*args, env=env))
        return started[-1]

    yield start
    for proc in started:
        proc.close()


@pytest.fixture
def server(spawn: Any) -> StdioProc:
    proc: StdioProc = spawn()
    return proc


def test_a_claimless_initialize_pins_legacy_and_envelopes_are_refused(server: StdioProc) -> None:
    assert server.call(1, "initialize", INIT)["result"]["protocolVersion"] == "2025-11-25"
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert server.call(2, "tools/list", {"_meta": envelope()})["error"]["code"] == -32600
    assert server.call(3, "ping")["result"] == {}
    assert server.call(4, "server/discover", {})["error"]["code"] == -32601
    rc, rest, stderr = server.finish()
    assert (rc, rest) == (0, [])
    assert "Traceback" not in stderr


def test_server_discover_pins_modern_and_a_later_initialize_is_32022(server: StdioProc) -> None:
    discovered = server.call(1, "server/discover", {"_meta": envelope()})["result"]
    assert discovered["supportedVersions"] == [MODERN]
    assert discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "gno"
    error = server.call(2, "initialize", INIT)["error"]
    assert error["code"] == -32022
    assert error["data"]["supported"] == [MODERN]
    listed = server.call(3, "tools/list", {"_meta": envelope()})["result"]
    assert (listed["resultType"], listed["ttlMs"], listed["cacheScope"]) == (
        "complete",
        0,
        "private",
    )
    assert server.call(4, "tools/list", {})["error"]["code"] == -32602
    assert (
        server.call(5, "tools/list", {"_meta": envelope("2099-01-01")})["error"]["code"] == -32022
    )
    assert server.finish()[0] == 0


def test_an_enveloped_first_request_pins_modern_without_discover(server: StdioProc) -> None:
    called = server.call(
        1, "tools/call", {"name": "gno_peek", "arguments": {}, "_meta": envelope()}
    )
    assert called["result"]["resultType"] == "complete"
    assert server.call(2, "initialize", INIT)["error"]["code"] == -32022


def test_framing_errors_keep_the_connection_alive(server: StdioProc) -> None:
    server.send(b"{not json")
    assert server.recv() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "Parse error: invalid JSON"},
    }
    server.send(b"")
    server.send(b"[]")
    assert server.recv()["error"]["code"] == -32600
    server.call(1, "initialize", INIT)
    assert server.call(2, "no/such")["error"] == {
        "code": -32601,
        "message": "Method not found",
        "data": {"method": "no/such"},
    }
    assert server.call(3, "tools/call", {"name": "gno_nope"})["error"]["code"] == -32602
    assert server.finish()[0] == 0


def test_stdout_carries_only_protocol_messages(spawn: Any) -> None:
    proc = spawn()
    proc.call(1, "initialize", INIT)
    result = proc.call(2, "tools/call", {"name": "gno_search", "arguments": {"query": "noisy"}})[
        "result"
    ]
    assert not result.get("isError")
    rc, _, stderr = proc.finish()
    assert rc == 0
    for line in proc.raw:
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert "noise from print()" in stderr and "noise from fd 1" in stderr


def test_cancelled_in_flight_call_is_never_answered_and_ping_stays_responsive(
    spawn: Any, tmp_path: Path
) -> None:
    log = tmp_path / "calls.log"
    proc = spawn(env={"GNO_FAKE_CALL_LOG": str(log), "GNO_FAKE_SLOW_SECONDS": "1.0"})
    proc.call(1, "initialize", INIT)
    proc.request(10, "tools/call", {"name": "gno_search", "arguments": {"query": "slow"}})
    proc.request(11, "tools/call", {"name": "gno_search", "arguments": {"query": "queued"}})
    deadline = time.monotonic() + 5
    while "search slow" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 10, "reason": "t"},
        }
    )
    proc.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 11}})
    started = time.monotonic()
    assert proc.call(12, "ping")["result"] == {}
    assert time.monotonic() - started < 0.5, "ping waits for no tool call"
    after = proc.call(13, "tools/call", {"name": "gno_peek", "arguments": {}})
    assert not after["result"].get("isError")
    rc, rest, _ = proc.finish()
    assert rc == 0 and rest == []
    answered = {json.loads(line).get("id") for line in proc.raw}
    assert answered == {1, 12, 13}
    calls = log.read_text().splitlines()
    assert "search slow" in calls and "search queued" not in calls, (
        "a cancelled queued call never runs"
    )


LAZINESS_PROBE = """
import io, json, sys
from gno_adapters.mcp.stdio import serve_stdio

events = []

class Out(io.BytesIO):
    def write(self, data):
        events.append(["answer", "pydantic" in sys.modules, "gno_core.contracts" in sys.modules])
        return super().write(data)

def factory():
    events.append(["factory"])
    from tests.wire.real_facade import factory as real
    return real()()

def line(i, method, params):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}).encode() + b"\\n"

init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}
stdin = io.BytesIO(line(1, "initialize", init) + line(2, "tools/call", {"name": "gno_peek", "arguments": {}}))
serve_stdio(factory, stdin=stdin, stdout=Out())
print(json.dumps(events))
"""


def test_nothing_heavy_precedes_the_first_answer_and_the_facade_waits_for_a_call() -> None:
    out = subprocess.run(
        [sys.executable, "-c", LAZINESS_PROBE], cwd=REPO, capture_output=True, check=True
    )
    events = json.loads(out.stdout)
    assert events[0] == ["answer", False, False], "initialize is answered before pydantic loads"
    assert events[1:] == [["factory"], ["answer", True, True]]


def test_an_unknown_profile_fails_before_anything_is_read() -> None:
    class Unreadable(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            raise AssertionError("read before the profile was checked")

    with pytest.raises(ValidationError) as caught:
        from gno_adapters.mcp.stdio import serve_stdio

        serve_stdio(real_facade.factory(), profile="tiny", stdin=Unreadable(), stdout=io.BytesIO())
    assert caught.value.code == "VALIDATION"


def test_core_profile_and_write_gate_flags(spawn: Any) -> None:
    proc = spawn("--tool-profile", "core", env={"GNO_MCP_ENABLE_WRITE": "1"})
    proc.call(1, "initialize", INIT)
    names = [t["name"] for t in proc.call(2, "tools/list")["result"]["tools"]]
    assert names == [
        "gno_context",
        "gno_search",
        "gno_query",
        "gno_get",
        "gno_multi_get",
        "gno_recall",
        "gno_capture",
        "gno_remember",
        "gno_changes",
    ]
    assert proc.finish()[0] == 0


def test_without_the_write_gate_capture_is_an_unknown_tool(spawn: Any) -> None:
    proc = spawn("--tool-profile", "core")
    proc.call(1, "initialize", INIT)
    names = [t["name"] for t in proc.call(2, "tools/list")["result"]["tools"]]
    assert names == [
        "gno_context",
        "gno_search",
        "gno_query",
        "gno_get",
        "gno_multi_get",
        "gno_recall",
        "gno_changes",
    ]
    answer = proc.call(3, "tools/call", {"name": "gno_capture", "arguments": {"collection": "x"}})
    assert answer["error"]["code"] == -32602
    assert proc.finish()[0] == 0


def test_cancellation_on_a_modern_connection(spawn: Any) -> None:
    proc = spawn(env={"GNO_FAKE_SLOW_SECONDS": "0.5"})
    proc.call(1, "server/discover", {"_meta": envelope()})
    slow = {"name": "gno_search", "arguments": {"query": "slow"}, "_meta": envelope()}
    proc.request(2, "tools/call", slow)
    proc.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
    after = proc.call(3, "tools/call", {"name": "gno_peek", "arguments": {}, "_meta": envelope()})
    assert after["result"]["resultType"] == "complete"
    rc, rest, _ = proc.finish()
    assert rc == 0 and rest == []
    assert {json.loads(line)["id"] for line in proc.raw} == {1, 3}
