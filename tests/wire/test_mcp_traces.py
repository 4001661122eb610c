"""Private retrieval metadata over MCP: with tracing on, the six retrieval tools carry
``_meta.gno.retrievalTrace.traceId`` and nothing else changes (content and
``structuredContent`` identical to tracing off); ``gno_get`` with ``traceId`` records the exact
span it returned, and a failed or out-of-range get records nothing; with tracing off no
``_meta``, no trace and no write."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.bootstrap import Adapters, build
from gno_core.config import RetrievalTracesConfig
from tests.wire.real_facade import ALPHA, Peer, adapters, factory

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("gno_search", {"query": "foam"}),
    ("gno_vsearch", {"query": "foam ideas"}),
    ("gno_query", {"query": "foam ideas"}),
    ("gno_get", {"ref": ALPHA, "fromLine": 5, "lineCount": 2}),
    ("gno_context", {"goal": "foam ideas", "budgetTokens": 4000}),
    ("gno_ask", {"query": "foam ideas", "verify": True}),
]


def tracing(made: Adapters, **settings: Any) -> None:
    config = made.config.load()
    made.config.save(
        config.model_copy(update={"retrieval_traces": RetrievalTracesConfig(**settings)})
    )


def peer(made: Adapters) -> Peer:
    p = Peer(facade=factory(made))
    p.initialize()
    return p


def call(p: Peer, tool: str, **arguments: Any) -> dict[str, Any]:
    result: dict[str, Any] = p.request("tools/call", {"name": tool, "arguments": arguments})[
        "result"
    ]
    return result


def usage(made: Adapters) -> int:
    with build(made) as gno:
        return gno.handle.index.traces.usage().traces


def trace_id(result: dict[str, Any]) -> str:
    tid: str = result["_meta"]["gno"]["retrievalTrace"]["traceId"]
    return tid


@pytest.fixture(scope="module")
def off_results() -> list[dict[str, Any]]:
    made = adapters()
    p = peer(made)
    results = [call(p, tool, **args) for tool, args in CALLS]
    assert usage(made) == 0
    return results


def test_off_no_meta_no_trace(off_results: list[dict[str, Any]]) -> None:
    for result in off_results:
        assert not result.get("isError"), result
        assert "_meta" not in result


def test_on_adds_only_the_private_trace_id(off_results: list[dict[str, Any]]) -> None:
    made = adapters()
    tracing(made, enabled=True)
    p = peer(made)
    ids = []
    for (tool, args), off in zip(CALLS, off_results, strict=True):
        on = call(p, tool, **args)
        tid = trace_id(on)
        assert tid.startswith("trc_"), tool
        assert tid not in str(on["content"]) and tid not in str(on["structuredContent"])
        on.pop("_meta")
        assert on == off, tool
        ids.append(tid)
    assert len(set(ids)) == len(ids) and usage(made) == len(ids)


def test_get_with_trace_id_records_the_exact_span() -> None:
    made = adapters()
    tracing(made, enabled=True)
    p = peer(made)
    tid = trace_id(call(p, "gno_search", query="foam"))
    got = call(p, "gno_get", ref=ALPHA, fromLine=5, lineCount=2, traceId=tid)
    assert trace_id(got) == tid
    span = got["structuredContent"]["returnedLines"]
    with build(made) as gno:
        events = gno.tracing.show(tid).events
    opened = [e for e in events if e.kind == "opened"]
    assert [(e.start_line, e.end_line) for e in opened] == [(span["start"], span["end"])]
    # Out of range and failed gets record nothing and carry no id.
    past = call(p, "gno_get", ref=ALPHA, fromLine=500, lineCount=2, traceId=tid)
    missing = call(p, "gno_get", ref="gno://notes/nope.md", traceId=tid)
    assert (missing.get("isError") and "_meta" not in missing) or "gno" not in missing["_meta"]
    with build(made) as gno:
        after = gno.tracing.show(tid).events
    assert [e for e in after if e.kind == "opened"] == opened
    assert past.get("isError") or "retrievalTrace" not in past.get("_meta", {}).get("gno", {})


def test_metadata_mode_stores_no_query_text() -> None:
    made = adapters()
    tracing(made, enabled=True)
    p = peer(made)
    tid = trace_id(call(p, "gno_query", query="foam ideas secret"))
    with build(made) as gno:
        header = gno.tracing.show(tid).header
    assert header.query_text is None and "secret" not in repr(header)


def test_receipts_list_show_label_delete_purge() -> None:
    made = adapters()
    tracing(made, enabled=True, redaction_mode="replay")
    reader = peer(made)
    assert {"gno_trace_list", "gno_trace_show"} <= tool_names(reader)
    assert not {"gno_trace_label", "gno_trace_delete", "gno_trace_purge"} & tool_names(reader)
    first = trace_id(call(reader, "gno_search", query="foam"))
    second = trace_id(call(reader, "gno_query", query="foam ideas"))
    listed = call(reader, "gno_trace_list", limit=1)["structuredContent"]
    assert [t["traceId"] for t in listed["traces"]] == [second]
    assert "query" not in listed["traces"][0]  # summaries omit the query text
    rest = call(reader, "gno_trace_list", cursor=listed["nextCursor"])["structuredContent"]
    assert [t["traceId"] for t in rest["traces"]] == [first] and "nextCursor" not in rest
    shown = call(reader, "gno_trace_show", traceId=first)["structuredContent"]
    assert shown["trace"]["query"] == "foam" and shown["totals"]["events"] == 1
    event = shown["events"][0]["eventId"]
    unknown = reader.request(
        "tools/call",
        {"name": "gno_trace_label", "arguments": {"traceId": first, "label": "relevant"}},
    )
    assert "Unknown tool" in unknown["error"]["message"]  # not registered without writes

    writer = Peer(facade=factory(made), enable_write=True)
    writer.initialize()
    made_once = call(writer, "gno_trace_label", traceId=first, label="relevant", eventId=event)
    again = call(writer, "gno_trace_label", traceId=first, label="relevant", eventId=event)
    assert made_once["structuredContent"]["created"] and not again["structuredContent"]["created"]
    path = call(writer, "gno_trace_label", traceId=first, label="missing_expected", document="/x")
    assert path["isError"] and path["_meta"]["gno/error"]["code"] == "VALIDATION"
    foreign = call(writer, "gno_trace_label", traceId=first, label="irrelevant", eventId=10**6)
    assert foreign["isError"]
    shown = call(writer, "gno_trace_show", traceId=first)["structuredContent"]
    assert [j["label"] for j in shown["judgments"]] == ["relevant"]
    gone = call(writer, "gno_trace_delete", traceId=first)["structuredContent"]
    assert gone == {"traceId": first, "deleted": True}
    missing = call(writer, "gno_trace_show", traceId=first)
    assert missing["_meta"]["gno/error"]["code"] == "NOT_FOUND"
    assert call(writer, "gno_trace_purge")["isError"]  # confirm: true is required
    assert call(writer, "gno_trace_purge", confirm=True)["structuredContent"] == {"deleted": 1}
    assert usage(made) == 0


def tool_names(p: Peer) -> set[str]:
    return {t["name"] for t in p.request("tools/list")["result"]["tools"]}


def test_http_refuses_trace_mutations_before_dispatch_without_echoing_them() -> None:
    import httpx

    from tests.http_support import assert_refusal, served
    from tests.wire.test_http_writes import _mcp_call

    canary = "trc_" + "c0ffee" * 5 + "ab"
    with served(mode="serve") as server, httpx.Client(base_url=server.base, timeout=10) as http:
        for rid, (name, args) in enumerate(
            [
                ("gno_trace_label", {"traceId": canary, "label": "relevant", "eventId": 1}),
                ("gno_trace_delete", {"traceId": canary}),
                ("gno_trace_purge", {"confirm": True}),
            ],
            1,
        ):
            refused = _mcp_call(http, rid, name, args)
            assert_refusal(refused, 403, "write_disabled")
            assert canary not in refused.text


def test_rest_trace_routes_read_and_write_gated() -> None:
    import httpx

    from tests.http_support import served

    made = adapters()
    tracing(made, enabled=True, redaction_mode="replay")
    first = trace_id(call(peer(made), "gno_search", query="foam"))
    with (
        served(mode="serve", factory=factory(made)) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        listed = http.get("/api/traces", params={"limit": 5}).json()
        assert [t["traceId"] for t in listed["traces"]] == [first]
        shown = http.get("/api/traces/show", params={"traceId": first}).json()
        event = shown["events"][0]["eventId"]
        label = {"traceId": first, "label": "relevant", "eventId": event}
        refused = http.post("/api/traces/judgments", json=label)
        assert refused.status_code == 403 and first not in refused.text
        assert refused.json()["error"]["code"] == "WRITE_DISABLED"
        assert http.post("/api/traces/purge", json={"confirm": True}).status_code == 403
        unknown = http.get("/api/traces", params={"bogus": 1})
        assert unknown.status_code == 400
    with (
        served(mode="serve", factory=factory(made), enable_write=True) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        made_one = http.post("/api/traces/judgments", json=label)
        assert made_one.status_code == 200 and made_one.json()["created"] is True
        assert http.post("/api/traces/delete", json={"traceId": first}).json()["deleted"]
        assert http.get("/api/traces/show", params={"traceId": first}).status_code == 404


def test_export_over_a_connection_with_no_known_zone_fails_closed() -> None:
    made = adapters()
    tracing(made, enabled=True)
    writer = Peer(facade=factory(made), enable_write=True)
    writer.initialize()
    assert writer.connection.transport != "stdio"
    tid = trace_id(call(writer, "gno_search", query="foam"))
    missing = call(writer, "gno_trace_export", traceIds=["trc_" + "0" * 32])
    assert missing["_meta"]["gno/error"]["code"] == "NOT_FOUND"  # before the policy
    made.clock.advance(600)  # type: ignore[attr-defined]
    denied = call(writer, "gno_trace_export", traceIds=[tid], format="qrels")
    assert denied["_meta"]["gno/error"]["code"] == "EGRESS_DENIED"
    assert "foam" not in str(denied)
    shown = call(writer, "gno_trace_show", traceId=tid)["structuredContent"]
    assert shown["exports"] == []  # nothing was written
