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


def _session(http: httpx.Client) -> dict[str, str]:
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
    accept = {"Accept": "application/json, text/event-stream"}
    sid = http.post("/mcp", json=init, headers=accept).headers["Mcp-Session-Id"]
    headers = {"Mcp-Session-Id": sid, **accept}
    http.post(
        "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers
    )
    return headers


def _tool(http: httpx.Client, headers: dict[str, str], name: str, **arguments: Any) -> Any:
    body = {"jsonrpc": "2.0", "id": 9, "method": "tools/call"}
    body["params"] = {"name": name, "arguments": arguments}
    text = http.post("/mcp", json=body, headers=headers).text
    payload = text.split("data: ", 1)[1] if text.startswith("event:") else text
    import json

    return json.loads(payload)["result"]


def test_a_job_outlives_its_session_and_shutdown_cancels_the_next() -> None:
    from tests.wire.real_facade import factory
    from tests.wire.test_mcp_write_jobs import SlowEmbedder, made_with

    made = made_with(notes=300, embedder=SlowEmbedder())
    with (
        served(mode="serve", enable_write=True, factory=factory(made)) as server,
        httpx.Client(base_url=server.base, timeout=30) as http,
    ):
        jobs = server.gateway.handlers.jobs.manager
        first = _session(http)
        job = _tool(http, first, "gno_index")["structuredContent"]["jobId"]
        assert http.delete("/mcp", headers=first).status_code == 204
        assert jobs.wait(job, 60).status == "completed"
        second = _session(http)
        status = _tool(http, second, "gno_job_status", jobId=job)["structuredContent"]
        assert status["status"] == "completed"
        made.tree.write("/notes/more.md", "# More\n\n" + "text " * 50)  # type: ignore[attr-defined]
        for i in range(300):
            made.tree.write(f"/notes/extra-{i}.md", f"# Extra {i}\n\nwords {i}\n")  # type: ignore[attr-defined]
        running = _tool(http, second, "gno_index")["structuredContent"]["jobId"]
    assert jobs.status(running).status == "cancelled"


def test_rest_rename_previews_then_applies_with_the_digest_and_needs_write_access() -> None:
    from tests.schema_check import assert_valid

    rename = {"ref": "notes/alpha.md", "name": "alpha-renamed"}
    with served(mode="serve") as server, httpx.Client(base_url=server.base, timeout=10) as http:
        refused = http.post("/api/docs/rename", json={"action": "preview", **rename})
        assert refused.status_code == 403
    with (
        served(mode="serve", enable_write=True) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        plan = http.post("/api/docs/rename", json={"action": "preview", **rename}).json()
        assert_valid("file-refactor-preview", plan)
        confirm = {"schemaVersion": "1.0", "confirmation": "apply", "confirm": True}
        applied = http.post(
            "/api/docs/rename",
            json={"action": "apply", **rename, **confirm, "planDigest": plan["planDigest"]},
        ).json()
        assert_valid("file-refactor-apply-result", applied)
        assert applied["status"] == "applied"
        got = http.get("/api/doc", params={"ref": "notes/alpha-renamed.md"})
        assert got.status_code == 200
        copy = http.post("/api/docs/duplicate", json={"ref": "notes/alpha-renamed.md"}).json()
        assert (copy["status"], copy["target"]["relPath"]) == ("applied", "alpha-renamed-copy.md")


def test_rest_refuses_unsafe_names_and_absolute_folders() -> None:
    """The REST write routes take the tools' rules (issue 21, failure 8): an absolute
    ``folderPath`` in a move or duplicate is refused, not re-rooted; control, bidi and reserved
    names are refused in a capture and a rename."""
    with (
        served(mode="serve", enable_write=True) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        refused = [
            http.post("/api/docs/move", json={"action": "preview", "ref": "notes/alpha.md",
                                               "folderPath": "/etc"}),
            http.post("/api/docs/duplicate", json={"ref": "notes/alpha.md", "folderPath": "/tmp"}),
            http.post("/api/docs/rename", json={"action": "preview", "ref": "notes/alpha.md",
                                                 "name": "evil\u202egpj.md"}),
            http.post("/api/docs/rename", json={"action": "preview", "ref": "notes/alpha.md",
                                                 "name": "CON"}),
            http.post("/api/capture", json={**NOTE, "path": "a\nb.md"}),
            http.post("/api/capture", json={**NOTE, "folderPath": "aux"}),
        ]  # fmt: skip
        assert [(r.status_code, r.json()["error"]["code"]) for r in refused] == [
            (400, "INVALID_PATH")
        ] * len(refused)
        assert http.post("/api/search", json={"query": "narwhal"}).json()["results"] == []


def test_job_tools_need_no_write_access() -> None:
    """gno_job_status / gno_list_jobs are read tools: the gateway's write gate lets them by."""
    with served(mode="serve") as server, httpx.Client(base_url=server.base, timeout=10) as http:
        listed = _tool(http, _session(http), "gno_list_jobs")
    assert listed["structuredContent"] == {"recent": []}
