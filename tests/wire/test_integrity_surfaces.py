"""``gno_impact`` over MCP (both eras), ``GET /api/impact`` and ``gno impact`` (text and
``--json``, on SQLite): the same ``impact@1.0`` everywhere, inputs closed, errors typed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from quart import Quart

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.rest import register_rest
from gno_core.facade import Gno
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

T = TypeVar("T")

NOTES = {
    "hub.md": "# Hub\n\nThe centre.\n",
    "a.md": "# A\n\n[[hub]]\n",
    "b.md": '---\nworks_at: "[[hub]]"\n---\n# B\n',
    "c.md": "# C\n\n[[a]]\n",
}


@pytest.fixture(scope="module")
def adapters() -> Adapters:
    made = in_memory(NOTES)
    with build(made) as gno:
        gno.sync()
    return made


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_mcp_impact(adapters: Adapters, era: str) -> None:
    peer = Peer(facade=lambda: build(adapters))
    if era == "modern":
        peer.modern("server/discover")
    else:
        peer.initialize()

    def call(**arguments: Any) -> dict[str, Any]:
        params = {"name": "gno_impact", "arguments": arguments}
        response = (
            peer.modern("tools/call", params)
            if era == "modern"
            else peer.request("tools/call", params)
        )
        return response.get("result") or response

    res = call(ref="notes/hub.md")
    assert_valid("impact", res["structuredContent"])
    assert [i["document"]["relPath"] for i in res["structuredContent"]["impacted"]] == [
        "a.md",
        "b.md",
        "c.md",
    ]
    text = res["content"][0]["text"]
    assert text.splitlines()[0].startswith("3 documents depend on gno://notes/hub.md")
    assert "via c.md -[links_to]-> a.md -[links_to]-> hub.md" in text
    cut = call(ref="notes/hub.md", maxDepth=1)
    assert cut["structuredContent"]["meta"]["truncatedBy"] == ["maxDepth"]
    assert "raise maxDepth" in cut["content"][0]["text"]
    assert call(ref="notes/none.md")["isError"] is True
    assert call(ref="notes/hub.md", maxDepth=7)["isError"] is True
    closed = call(ref="notes/hub.md", direction="in")
    assert closed.get("isError") is True or "error" in closed


class _Runner:
    def __init__(self, factory: Callable[[], Gno]) -> None:
        self.factory = factory

    def get(self) -> Gno:
        return self.factory()

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        return fn()


def test_rest_impact(adapters: Adapters) -> None:
    app = Quart(__name__)
    register_rest(app, _Runner(lambda: build(adapters)))

    async def go() -> list[tuple[int, Any]]:
        client = app.test_client()
        out = []
        for path in (
            "/api/impact?ref=notes/hub.md&maxNodes=1",
            "/api/impact?ref=notes/hub.md&direction=in",
            "/api/impact?ref=notes/none.md",
        ):
            response = await client.get(path)
            out.append((response.status_code, await response.get_json()))
        return out

    ok, unknown, missing = asyncio.run(go())
    assert ok[0] == 200
    assert_valid("impact", ok[1])
    assert ok[1]["meta"]["truncatedBy"] == ["maxNodes"] and len(ok[1]["impacted"]) == 1
    assert unknown[0] == 400 and unknown[1]["error"]["details"]["fields"] == ["direction"]
    assert missing[0] == 404 and missing[1]["error"]["code"] == "NOT_FOUND"


def test_cli_impact_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name, text in NOTES.items():
        (vault / name).write_text(text, encoding="utf-8")
    cli = Cli(tmp_path / "home", monkeypatch, capsys)
    cli.ok("collection", "add", str(vault), "--name", "notes")
    cli.ok("update")
    out = cli.ok("impact", "notes/hub.md").out.splitlines()
    assert out[0].startswith("3 documents depend on gno://notes/hub.md (depth <= 3")
    assert '  depth 1  gno://notes/b.md "B"' in out
    assert "           via b.md -[works_at]-> hub.md" in out
    data = cli.ok("impact", "notes/hub.md", "--max-depth", "1", "--json").json()
    assert_valid("impact", data)
    assert data["meta"]["truncatedBy"] == ["maxDepth"]
    text = cli.ok("impact", "notes/hub.md", "--max-depth", "1").out
    assert "raise --max-depth" in text
    assert cli("impact", "notes/none.md").code == 1


def test_mcp_and_rest_audit(adapters: Adapters) -> None:
    peer = Peer(facade=lambda: build(adapters))
    peer.initialize()

    def call(**arguments: Any) -> dict[str, Any]:
        params = {"name": "gno_audit", "arguments": arguments}
        response = peer.request("tools/call", params)
        return response.get("result") or response

    res = call(category="links", maxFindings=5)
    assert_valid("audit-report", res["structuredContent"])
    report = res["structuredContent"]
    assert [r["id"] for r in report["rules"]] == [
        "links.local-targets",
        "links.ambiguous-targets",
        "links.orphans",
        "links.parser-boundary",
    ]
    assert report["scope"]["policy"]["maxFindings"] == 5
    assert res["content"][0]["text"].startswith("Audit of 4 documents (notes; links): ")
    assert call(category="everything")["isError"] is True
    assert call(maxFindings=1001)["isError"] is True
    refused = call(category="links", severity="error")
    assert refused.get("isError") is True or "error" in refused

    app = Quart(__name__)
    register_rest(app, _Runner(lambda: build(adapters)))

    async def go() -> list[tuple[int, Any]]:
        client = app.test_client()
        out = []
        for body in ({"category": "all", "orphanIgnorePrefixes": ["a"]}, {"bogus": 1}):
            response = await client.post("/api/audit", json=body)
            out.append((response.status_code, await response.get_json()))
        return out

    ok, closed = asyncio.run(go())
    assert ok[0] == 200
    assert_valid("audit-report", ok[1])
    assert ok[1]["scope"]["policy"]["orphanIgnorePrefixes"] == ["a"]
    assert closed[0] == 400 and closed[1]["error"]["code"] == "VALIDATION"


def test_a_cancelled_mcp_audit_stops_with_a_partial_report(adapters: Adapters) -> None:
    """The MCP request's cancellation reaches the audit: it stops early (partial, the
    unfinished rules inconclusive), and, unlike every other cancelled request, the call answers
    that partial report (the spec's audit contract), never a clean one."""
    import threading

    started, reports = threading.Event(), []

    class Waiting:
        def __init__(self) -> None:
            self.gno = build(adapters)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.gno, name)

        def audit(self, request: Any, cancelled: Callable[[], bool]) -> Any:
            started.set()
            for _ in range(500):  # until the notification arrives (at most 5 s)
                if cancelled():
                    break
                threading.Event().wait(0.01)
            report = self.gno.audit(request, cancelled=cancelled)
            reports.append(report)
            return report

    peer = Peer(facade=Waiting)
    peer.initialize()
    call = {"jsonrpc": "2.0", "id": "a1", "method": "tools/call", "params": {"name": "gno_audit"}}
    reply = peer.engine.handle(peer.connection, call)
    assert reply.work is not None
    answers: list[Any] = []
    worker = threading.Thread(target=lambda: answers.append(reply.work()))  # type: ignore[misc]
    worker.start()
    assert started.wait(5)
    peer.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "a1"}}
    )
    worker.join(10)
    (answer,) = answers
    assert answer["id"] == "a1" and not answer["result"].get("isError")
    answered = answer["result"]["structuredContent"]
    assert_valid("audit-report", answered)
    assert answered["status"] == "partial"
    (report,) = reports
    assert report.status == "partial"
    assert {r.reason for r in report.rules} == {"cancelled"}
    assert answered == report.wire()
