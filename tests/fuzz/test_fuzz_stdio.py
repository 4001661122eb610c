"""Fuzzing the stdio MCP server in process over a real index: any sequence of frames (bytes,
JSON, JSON-RPC in both eras, tool calls with arguments shaped by each tool's schema) gets only
typed answers, never an internal error, and the server still answers ``gno_search`` after."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.corpus import build_index
from tests.fuzz.strategies import (
    METHODS,
    MODERN_META,
    REF_LIKE,
    arguments_for,
    deep,
    encode,
    hostile_text,
    json_values,
)

INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "f", "v": 1}}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return build_index(tmp_path_factory.mktemp("fuzz-stdio"))


def tool_schemas() -> dict[str, dict[str, Any]]:
    from gno_adapters.mcp.tools import ALL_TOOLS

    return {tool.name: tool.input_schema for tool in ALL_TOOLS}


SCHEMAS = tool_schemas()


def tool_params(modern: bool) -> st.SearchStrategy[dict[str, Any]]:
    def params(name: str) -> st.SearchStrategy[dict[str, Any]]:
        return arguments_for(SCHEMAS[name]).map(
            lambda args: {"name": name, "arguments": args, **_meta(modern)}
        )

    return st.sampled_from(sorted(SCHEMAS)).flatmap(params)


def _meta(modern: bool) -> dict[str, Any]:
    return {"_meta": dict(MODERN_META)} if modern else {}


def frames(modern: bool) -> st.SearchStrategy[bytes]:
    ids = st.one_of(st.integers(), hostile_text, st.none(), st.floats(), json_values)
    read = st.one_of(st.sampled_from(REF_LIKE), hostile_text).map(
        lambda uri: {"uri": uri, **_meta(modern)}
    )
    params = st.one_of(tool_params(modern), tool_params(modern), read, json_values)
    message = st.fixed_dictionaries(
        {"jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0"]), "id": ids},
        optional={"method": st.one_of(st.sampled_from(METHODS), hostile_text), "params": params},
    )
    return st.one_of(
        st.binary(max_size=120).map(lambda b: b.replace(b"\n", b" ")),
        json_values.map(encode),
        deep,
        message.map(encode),
        message.map(encode),
        message.map(encode),
    )


def serve(env: dict[str, str], lines: list[bytes]) -> list[dict[str, Any]]:
    from gno_adapters.bootstrap import open_gno
    from gno_adapters.mcp.server import GnoHandlers, build_engine
    from gno_adapters.mcp.stdio import StdioServer

    handlers = GnoHandlers(lambda: open_gno(env=env), profile="full", enable_write=False)
    out = io.BytesIO()
    stdin = io.BytesIO(b"".join(line + b"\n" for line in lines))
    assert StdioServer(build_engine(handlers), handlers, stdin, out).run() == 0
    return [json.loads(line.decode("utf-8")) for line in out.getvalue().splitlines()]


def final_search(modern: bool) -> bytes:
    arguments = {"query": "sourdough starter", "limit": 3}
    params = {"name": "gno_search", "arguments": arguments, **_meta(modern)}
    return encode({"jsonrpc": "2.0", "id": "final", "method": "tools/call", "params": params})


def check(answers: list[dict[str, Any]]) -> None:
    for answer in answers:
        assert answer["jsonrpc"] == "2.0"
        error = answer.get("error")
        assert error is None or error["code"] != -32603, answer
        result = answer.get("result") or {}
        if result.get("isError"):
            assert "Internal error" not in result["content"][0]["text"], answer
    final = [a for a in answers if a.get("id") == "final"]
    assert len(final) == 1, answers[-3:]
    uris = [r["uri"] for r in final[0]["result"]["structuredContent"]["results"]]
    assert uris == ["gno://notes/kitchen.md"]


@given(st.lists(frames(modern=False), max_size=6))
def test_legacy_connection_survives_any_frames(env: dict[str, str], lines: list[bytes]) -> None:
    opening = encode({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": INIT})
    check(serve(env, [opening, *lines, final_search(modern=False)]))


@given(st.lists(frames(modern=True), max_size=6))
def test_modern_connection_survives_any_frames(env: dict[str, str], lines: list[bytes]) -> None:
    discover = {"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": _meta(True)}
    check(serve(env, [encode(discover), *lines, final_search(modern=True)]))
