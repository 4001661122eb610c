"""Every hostile frame the attack found, sent to one real ``gno mcp`` over a real index: each
gets a typed JSON-RPC error or an ``isError`` result, and afterwards the same process still
answers ``gno_search`` correctly (the server neither exits nor wedges its worker)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fuzz.corpus import build_index
from tests.wire.test_mcp_stdio import INIT, StdioProc


@pytest.fixture(scope="module")
def gno_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    env = {**os.environ, **build_index(tmp_path_factory.mktemp("gno-hostile"))}
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    return env


@pytest.fixture
def mcp(gno_env: dict[str, str]) -> Iterator[StdioProc]:
    command = [sys.executable, "-m", "gno_cli.main", "mcp"]
    with StdioProc(env=gno_env, command=command) as proc:
        assert proc.call(1, "initialize", INIT)["result"]["protocolVersion"] == "2025-11-25"
        proc.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        yield proc


def search(proc: StdioProc, rid: int, query: str) -> dict[str, Any]:
    arguments = {"query": query, "limit": 3}
    return proc.call(rid, "tools/call", {"name": "gno_search", "arguments": arguments})


def assert_still_serving(proc: StdioProc, rid: int) -> None:
    result = search(proc, rid, "sourdough starter")["result"]
    assert not result.get("isError")
    assert [r["uri"] for r in result["structuredContent"]["results"]] == ["gno://notes/kitchen.md"]
    assert proc.call(rid + 1, "ping") == {"jsonrpc": "2.0", "id": rid + 1, "result": {}}


def test_every_hostile_frame_gets_a_typed_answer_and_search_still_works(mcp: StdioProc) -> None:
    surrogate_query = (
        b'{"jsonrpc":"2.0","id":10,"method":"tools/call",'
        b'"params":{"name":"gno_search","arguments":{"query":"note \\ud800"}}}'
    )
    mcp.send(surrogate_query)  # used to kill the worker: later calls hung, ping still worked
    assert mcp.recv()["error"]["code"] == -32602
    assert_still_serving(mcp, 11)

    mcp.send(b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}')  # used to exit with rc 1
    reply = mcp.recv()
    assert (reply["id"], reply["error"]["code"]) == (None, -32600)

    mcp.send(b"[" * 1000 + b"]" * 1000)  # used to exit with RecursionError
    assert mcp.recv()["error"]["code"] == -32700
    deep_args = {"query": "x", "collection": None}
    nested: Any = "leaf"
    for _ in range(200):
        nested = [nested]
    deep_args["collection"] = nested
    mcp.request(12, "tools/call", {"name": "gno_search", "arguments": deep_args})
    assert mcp.recv()["error"]["code"] == -32700

    mcp.send(b'{"jsonrpc":"2.0","id":13,"method":"ping","params":{"q":"\xed\xa0\x80"}}')
    assert mcp.recv()["error"]["code"] == -32700
    read = b'{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":"gno://\\udfff"}}'
    mcp.send(read)
    assert mcp.recv()["error"]["code"] == -32602

    huge = json.dumps({"jsonrpc": "2.0", "id": 15, "method": "ping", "params": {"p": "x" * 2**21}})
    mcp.send(huge.encode())  # 2 MiB on one line: refused without being held whole
    reply = mcp.recv()
    assert (reply["id"], reply["error"]["code"]) == (None, -32700)

    started = time.monotonic()
    refs = ["gno://notes/garden.md"] * 999 + ["notes/garden.md"]
    many = mcp.call(16, "tools/call", {"name": "gno_multi_get", "arguments": {"refs": refs}})
    structured = many["result"]["structuredContent"]
    assert [d["uri"] for d in structured["documents"]] == ["gno://notes/garden.md"]
    assert time.monotonic() - started < 10

    started = time.monotonic()
    flood = {"refs": ["gno://notes/garden.md"] * 25_000}  # the attack: 568 MB answered before
    refused = mcp.call(20_000, "tools/call", {"name": "gno_multi_get", "arguments": flood})
    assert "25000 items; at most 1000 per call" in refused["result"]["content"][0]["text"]
    assert time.monotonic() - started < 5

    too_many = [f"notes/n{i}.md" for i in range(1001)]
    refused = mcp.call(17, "tools/call", {"name": "gno_multi_get", "arguments": {"refs": too_many}})
    assert refused["result"]["isError"] is True
    assert "1001 items; at most 1000 per call" in refused["result"]["content"][0]["text"]

    mixed = {"refs": ["gno://notes/garden.md", "gno://notes/kitchen.md?index=other"]}
    split = mcp.call(18, "tools/call", {"name": "gno_multi_get", "arguments": mixed})
    assert split["result"]["isError"] is True
    assert "one index" in split["result"]["content"][0]["text"]

    long_query = mcp.call(
        19, "tools/call", {"name": "gno_search", "arguments": {"query": "tomato " * 5000}}
    )
    assert long_query["result"]["isError"] is True

    assert_still_serving(mcp, 20)
    rc, rest, stderr = mcp.finish()
    assert rc == 0, stderr
    assert rest == []
