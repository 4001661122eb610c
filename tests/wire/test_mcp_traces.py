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
        events = gno.trace_show(tid).events
    opened = [e for e in events if e.kind == "opened"]
    assert [(e.start_line, e.end_line) for e in opened] == [(span["start"], span["end"])]
    # Out of range and failed gets record nothing and carry no id.
    past = call(p, "gno_get", ref=ALPHA, fromLine=500, lineCount=2, traceId=tid)
    missing = call(p, "gno_get", ref="gno://notes/nope.md", traceId=tid)
    assert (missing.get("isError") and "_meta" not in missing) or "gno" not in missing["_meta"]
    with build(made) as gno:
        after = gno.trace_show(tid).events
    assert [e for e in after if e.kind == "opened"] == opened
    assert past.get("isError") or "retrievalTrace" not in past.get("_meta", {}).get("gno", {})


def test_metadata_mode_stores_no_query_text() -> None:
    made = adapters()
    tracing(made, enabled=True)
    p = peer(made)
    tid = trace_id(call(p, "gno_query", query="foam ideas secret"))
    with build(made) as gno:
        header = gno.trace_show(tid).header
    assert header.query_text is None and "secret" not in repr(header)
