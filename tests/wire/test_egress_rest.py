"""The egress REST routes with the Quart test client over the real facade on SQLite (issue 26),
and the gateway's write gate for them and for the MCP egress write tools: a relaxation without
its one-use confirmation (or with a stale or replayed one) is 409 and changes nothing;
tightening is immediate; purge needs ``confirm: true``; the write routes and tools answer 403
without write access, before anything runs; every answer validates against its contract."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import httpx
from quart import Quart

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.rest import register_rest
from gno_adapters.sqlite.index import ApswIndexProvider
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.facade import Gno
from tests.http_support import assert_refusal, served
from tests.schema_check import assert_valid

T = TypeVar("T")
CONFIG = GnoConfig(
    collections=[
        CollectionConfig(name="notes", path="/n"),
        CollectionConfig(name="team", path="/t"),
    ]
)


class _Runner:
    def __init__(self, factory: Callable[[], Gno]) -> None:
        self.factory = factory

    def get(self) -> Gno:
        return self.factory()

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        return fn()


def sqlite_factory(tmp_path: Path) -> Callable[[], Gno]:
    made = in_memory()
    made.config.save(CONFIG)
    made = replace(made, provider=ApswIndexProvider(tmp_path / "index.sqlite", made.clock))
    return lambda: build(made)


def exchange(
    factory: Callable[[], Gno], steps: list[tuple[str, str, dict[str, Any]]], *, write: bool
) -> list[tuple[int, Any]]:
    app = Quart(__name__)
    register_rest(app, _Runner(factory), enable_write=write)

    async def go() -> list[tuple[int, Any]]:
        client = app.test_client()
        out = []
        for method, path, given in steps:
            if method == "POST":
                response = await client.post(path, json=given)
            else:
                response = await client.get(f"{path}?{urlencode(given)}" if given else path)
            out.append((response.status_code, await response.get_json()))
        return out

    return asyncio.run(go())


def confirmation(revision: int, current: str = "local_only", **over: Any) -> dict[str, Any]:
    return {
        "collection": "notes",
        "currentPolicy": current,
        "currentRevision": revision,
        "targetPolicy": "lan",
        "acknowledged": True,
        **over,
    }


def test_policy_routes_relax_only_with_the_one_use_confirmation(tmp_path: Path) -> None:
    factory = sqlite_factory(tmp_path)
    policy = "/api/egress/policy"
    relax: dict[str, Any] = {"collection": "notes", "policy": "lan"}
    steps: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", policy, {"collection": "notes"}),
        ("POST", policy, relax),  # no confirmation
        ("POST", policy, {**relax, "confirmation": confirmation(0, collection="team")}),
        ("POST", policy, {**relax, "confirmation": confirmation(0)} | {"force": True}),
        ("GET", policy, {"collection": "notes"}),
        ("POST", policy, {**relax, "confirmation": confirmation(0)}),  # relaxed: revision 1
        ("POST", policy, {"collection": "notes", "policy": "local_only"}),  # tightened: 2
        ("POST", policy, {**relax, "confirmation": confirmation(0)}),  # replayed
        ("POST", policy, {**relax, "confirmation": confirmation(1, "lan")}),  # stale
        ("GET", policy, {"collection": "notes"}),
        ("GET", policy, {"collection": "nope"}),
    ]
    answers = exchange(factory, steps, write=True)
    (first, none, cross, unknown, unchanged, relaxed, tightened, replayed, stale, last, missing) = (
        answers
    )
    assert first[0] == 200
    assert_valid("collection-egress-policy", first[1])
    assert (first[1]["effectivePolicy"], first[1]["revision"]) == ("local_only", 0)
    code = "EGRESS_RELAXATION_CONFIRMATION_REQUIRED"
    for status, body in (none, cross, replayed, stale):
        assert (status, body["error"]["code"]) == (409, code), body
        assert_valid("error", body)
    assert cross[1]["error"]["details"]["mismatch"] == "cross_collection"
    assert replayed[1]["error"]["details"]["mismatch"] == "stale_revision"
    assert unknown[0] == 400 and unknown[1]["error"]["details"]["fields"] == ["force"]
    assert unchanged == first
    assert relaxed[0] == 200 and relaxed[1]["change"] == "relaxed"
    assert_valid("collection-egress-policy-set", relaxed[1])
    assert tightened[1]["change"] == "tightened" and tightened[1]["current"]["revision"] == 2
    assert_valid("collection-egress-policy-set", tightened[1])
    assert (last[1]["effectivePolicy"], last[1]["revision"]) == ("local_only", 2)
    assert missing[0] == 404


def test_check_and_receipt_routes(tmp_path: Path) -> None:
    factory = sqlite_factory(tmp_path)
    with factory() as gno:
        gno.egress_policy_set("team", "lan", _confirm_team(gno))
        for zone in ("lan", "remote"):
            gno.egress_authorize(
                collections=["notes", "team"],
                action="serve",
                zone=zone,
                content_class="snippet",
                authenticated=True,
                authorized=True,
                partial="explicit",
                operation="/api/search",
            )
    check = {
        "collections": ["notes", "team"],
        "action": "serve",
        "destinationZone": "lan",
        "caller": {"authenticated": True, "operationAuthorized": True},
        "contentClass": "snippet",
        "partialResults": "explicit",
    }
    steps: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/api/egress/check", check),
        ("POST", "/api/egress/check", {**check, "collections": []}),
        ("GET", "/api/egress/audits", {"limit": 1}),
        ("GET", "/api/egress/audits/status", {}),
        ("POST", "/api/egress/audits/purge", {}),
        ("POST", "/api/egress/audits/purge", {"confirm": False}),
    ]
    check_ok, empty, page, status, no_confirm, false_confirm = exchange(factory, steps, write=True)
    assert check_ok[0] == 200 and check_ok[1]["mode"] == "partial"
    assert_valid("collection-egress-check", check_ok[1])
    assert check_ok[1]["allowedCollections"] == ["team"]
    assert empty[0] == 400
    assert page[0] == 200 and len(page[1]["receipts"]) == 1
    assert_valid("egress-audit-management", page[1])
    assert status[1]["status"]["receipts"] == 2
    assert no_confirm[0] == 400 and false_confirm[0] == 400
    newest = page[1]["receipts"][0]["auditId"]
    steps = [
        ("GET", "/api/egress/audits", {"cursor": page[1]["nextCursor"]}),
        ("GET", "/api/egress/audit", {"auditId": newest}),
        ("POST", "/api/egress/audits/delete", {"auditId": newest}),
        ("GET", "/api/egress/audit", {"auditId": newest}),
        ("POST", "/api/egress/audits/purge", {"confirm": True}),
        ("GET", "/api/egress/audits/status", {}),
        ("GET", "/api/egress/policy", {"collection": "team"}),
    ]
    rest, shown, deleted, gone, purged, after, team = exchange(factory, steps, write=True)
    assert len(rest[1]["receipts"]) == 1 and rest[1]["receipts"][0]["auditId"] != newest
    assert shown[1]["receipt"]["auditId"] == newest
    assert deleted[1] == {"schemaVersion": "1.0", "operation": "delete", "deleted": 1}
    assert gone[0] == 404
    assert purged[1]["deleted"] == 1
    assert after[1]["status"]["receipts"] == 0
    assert team[1]["effectivePolicy"] == "lan", "a purge deletes receipts only"


def _confirm_team(gno: Gno) -> Any:
    from gno_core.contracts.egress_requests import RelaxationConfirmationInput

    state = gno.egress_policy_get("team")
    return RelaxationConfirmationInput(
        collection="team",
        current_policy=state.effective_policy,
        current_revision=state.revision,
        target_policy="lan",
        acknowledged=True,
    )


def test_write_routes_are_refused_without_write_access(tmp_path: Path) -> None:
    factory = sqlite_factory(tmp_path)
    steps: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/api/egress/policy", {"collection": "notes", "policy": "local_only"}),
        ("POST", "/api/egress/audits/delete", {"auditId": "0" * 32}),
        ("POST", "/api/egress/audits/purge", {"confirm": True}),
        ("GET", "/api/egress/policy", {"collection": "notes"}),
    ]
    *refused, read = exchange(factory, steps, write=False)
    for status, body in refused:
        assert (status, body["error"]["code"]) == (403, "WRITE_DISABLED")
    assert read[0] == 200 and read[1]["revision"] == 0


def _mcp(http: httpx.Client, name: str, arguments: dict[str, Any]) -> httpx.Response:
    accept = {"Accept": "application/json, text/event-stream"}
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
    sid = http.post("/mcp", json=init, headers=accept).headers["Mcp-Session-Id"]
    headers = {"Mcp-Session-Id": sid, **accept}
    http.post(
        "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers
    )
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    body["params"] = {"name": name, "arguments": arguments}
    return http.post("/mcp", json=body, headers=headers)


def test_the_gateway_refuses_the_egress_write_tools_before_dispatch() -> None:
    calls = [
        ("gno_egress_policy_set", {"collection": "notes", "policy": "local_only"}),
        ("gno_egress_audit_delete", {"auditId": "0" * 32}),
        ("gno_egress_audit_purge", {"confirm": True}),
    ]
    with served(mode="serve") as server, httpx.Client(base_url=server.base, timeout=10) as http:
        for name, arguments in calls:
            assert_refusal(_mcp(http, name, arguments), 403, "write_disabled")
        read = _mcp(http, "gno_egress_policy_get", {"collection": "notes"})
        assert read.status_code == 200 and '"revision":0' in read.text.replace(" ", "")
