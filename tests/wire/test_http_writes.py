"""Writes through the gateway: ``POST /api/capture`` and MCP ``gno_capture`` succeed only with
write access (403 ``WRITE_DISABLED`` / ``write_disabled`` otherwise, bearer or not), and a
captured note is searchable in the next request."""

from __future__ import annotations

from typing import Any

import httpx

from tests.http_support import assert_refusal, served

NOTE = {"collection": "notes", "content": "Narwhal tusks are teeth.", "title": "Narwhal"}


def _mcp_call(http: httpx.Client, rid: int, name: str, arguments: dict[str, Any]) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": rid, "method": "tools/call"}
    body["params"] = {"name": name, "arguments": arguments}
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    opened = http.post("/mcp", json=init, headers={"Accept": "application/json, text/event-stream"})
    sid = opened.headers["Mcp-Session-Id"]
    headers = {"Mcp-Session-Id": sid, "Accept": "application/json, text/event-stream"}
    http.post(
        "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers
    )
    return http.post("/mcp", json=body, headers=headers)


def test_rest_capture_needs_write_access() -> None:
    with served(mode="serve") as server, httpx.Client(base_url=server.base, timeout=10) as http:
        refused = http.post("/api/capture", json=NOTE)
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "WRITE_DISABLED"
        assert http.post("/api/search", json={"query": "narwhal"}).json()["results"] == []
        mcp = _mcp_call(http, 5, "gno_capture", NOTE)
        assert_refusal(mcp, 403, "write_disabled")


def test_rest_and_mcp_capture_with_write_access() -> None:
    with (
        served(mode="serve", enable_write=True) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        created = http.post("/api/capture", json=NOTE)
        assert created.status_code == 201, created.text
        receipt = created.json()
        assert receipt["sync"]["status"] == "completed"
        hits = http.post("/api/search", json={"query": "narwhal tusks"}).json()["results"]
        assert [h["uri"] for h in hits] == [receipt["uri"]]
        again = http.post("/api/capture", json=NOTE)
        assert (again.status_code, again.json()["error"]["code"]) == (409, "DUPLICATE")
        bad = http.post("/api/capture", json={**NOTE, "path": "../../etc/x.md"})
        assert (bad.status_code, bad.json()["error"]["code"]) == (400, "INVALID_PATH")
        mcp = _mcp_call(http, 6, "gno_capture", {**NOTE, "collisionPolicy": "create_with_suffix"})
        assert mcp.status_code == 200
        text = mcp.text
        assert "created_with_suffix" in text and "narwhal-2.md" in text
