"""The typed metadata ``filter`` on MCP (``gno_search``, ``gno_vsearch``, ``gno_query``,
``gno_context``, ``gno_ask``) and REST (``/api/search``, ``/api/query``, ``/api/context``,
``/api/ask``) over the real facade: filtered answers hold only matching documents, echo the
normalised predicate, warn about documents whose metadata is invalid, and an invalid predicate
is refused with its field path before any retrieval."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from quart import Quart

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.rest import register_rest
from gno_core.surface import OPERATIONS
from tests.wire.real_facade import Peer, factory
from tests.wire.test_rest_params import Runner

NOTES = {
    "approved.md": (
        "---\ngno:\n  metadata:\n    status: approved\n    rank: 2\n---\n# A\n\n"
        "Kettle release steps. See [[draft]] and [[linked]].\n"
    ),
    "linked.md": "---\ngno:\n  metadata:\n    status: draft\n---\n# L\n\nNothing about it here.\n",
    "draft.md": "---\ngno:\n  metadata:\n    status: draft\n    rank: 1\n---\n# D\n\nKettle release steps too.\n",
    "bare.md": "# B\n\nKettle release steps without metadata.\n",
    "bad.md": "---\ngno:\n  metadata:\n    status: [a, 1]\n---\n# X\n\nKettle release steps, broken.\n",
}
APPROVED = {"op": "eq", "key": "status", "value": "approved"}


@pytest.fixture(scope="module")
def made() -> Any:
    adapters = in_memory(NOTES)
    with build(adapters) as gno:
        gno.sync()
        gno.embed()
    return adapters


def mcp(made: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    peer = Peer(facade=factory(made))
    peer.initialize()
    result: dict[str, Any] = peer.request("tools/call", {"name": tool, "arguments": arguments})[
        "result"
    ]
    return result


def uris(structured: dict[str, Any]) -> list[str]:
    return sorted(r["uri"] for r in structured["results"])


@pytest.mark.parametrize("tool", ["gno_search", "gno_vsearch", "gno_query"])
def test_mcp_retrieval_tools_filter(made: Any, tool: str) -> None:
    result = mcp(made, tool, {"query": "kettle release", "filter": APPROVED})
    assert not result.get("isError"), result
    structured = result["structuredContent"]
    assert uris(structured) == ["gno://notes/approved.md"]
    assert structured["meta"]["filter"] == APPROVED
    assert structured["meta"]["metadataCoverage"]["invalidDocuments"] == 1
    # the same search without the filter finds the others too
    wide = mcp(made, tool, {"query": "kettle release"})["structuredContent"]
    assert "gno://notes/draft.md" in uris(wide)


def test_graph_expansion_never_lifts_a_linked_note_outside_the_filter(made: Any) -> None:
    # approved.md links to linked.md (status: draft), which no leg retrieves for this query:
    # unfiltered, the graph stage lifts it; filtered, it must not.
    wide = mcp(made, "gno_query", {"query": "kettle release steps", "graph": True})
    assert "gno://notes/linked.md" in uris(wide["structuredContent"])
    result = mcp(
        made, "gno_query", {"query": "kettle release steps", "graph": True, "filter": APPROVED}
    )
    assert uris(result["structuredContent"]) == ["gno://notes/approved.md"]


def test_mcp_not_matches_missing_keys_and_never_invalid_documents(made: Any) -> None:
    result = mcp(
        made, "gno_search", {"query": "kettle", "filter": {"op": "not", "predicate": APPROVED}}
    )
    assert uris(result["structuredContent"]) == ["gno://notes/bare.md", "gno://notes/draft.md"]


def test_mcp_context_and_ask_record_the_predicate(made: Any) -> None:
    capsule = mcp(
        made,
        "gno_context",
        {"goal": "kettle release steps", "budgetTokens": 4000, "filter": APPROVED},
    )["structuredContent"]
    assert capsule["schemaVersion"] == "1.2"
    assert capsule["scope"]["filter"] == APPROVED
    assert {e["uri"] for e in capsule["evidence"]} == {"gno://notes/approved.md"}
    assert "metadata_coverage_incomplete" in capsule["warnings"]
    assert capsule["coverage"]["complete"] is False
    ask = mcp(
        made, "gno_ask", {"query": "kettle release steps", "verify": True, "filter": APPROVED}
    )
    verification = ask["structuredContent"]["verification"]
    assert verification["capsule"]["scope"]["filter"] == APPROVED


@pytest.mark.parametrize(
    ("predicate", "path"),
    [
        ({"op": "in", "key": "status", "values": []}, "values"),
        ({"op": "eq", "key": "__proto__", "value": "x"}, "key"),
        ({"op": "in", "key": "status", "values": ["a", 1]}, "values"),
        ({"op": "and", "predicates": []}, "predicates"),
    ],
)
def test_mcp_invalid_predicates_fail_validation_with_a_path(
    made: Any, predicate: dict[str, Any], path: str
) -> None:
    result = mcp(made, "gno_search", {"query": "kettle", "filter": predicate})
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "filter" in text and path in text
    assert result["_meta"]["gno/error"]["code"] == "VALIDATION"


def test_mcp_diagnose_does_not_advertise_filter(made: Any) -> None:
    result = mcp(
        made,
        "gno_query_diagnose",
        {"query": "kettle", "target": "notes/approved.md", "filter": APPROVED},
    )
    assert result["isError"] is True and "filter" in result["content"][0]["text"]


def rest(made: Any, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    async def go() -> tuple[int, Any]:
        app = Quart(__name__)
        with build(made) as gno:
            register_rest(app, Runner(gno), OPERATIONS)
            response = await app.test_client().post(path, json=body)
            return response.status_code, await response.get_json()

    return asyncio.run(go())


def test_rest_search_and_query_filter(made: Any) -> None:
    for path in ("/api/search", "/api/query"):
        status, body = rest(made, path, {"query": "kettle release", "filter": APPROVED})
        assert status == 200, body
        assert uris(body) == ["gno://notes/approved.md"]
    status, body = rest(
        made, "/api/search", {"query": "kettle", "filter": {"op": "gt", "key": "rank", "value": 1}}
    )
    assert uris(body) == ["gno://notes/approved.md"]


def test_rest_context_records_the_predicate(made: Any) -> None:
    status, capsule = rest(
        made, "/api/context", {"goal": "kettle release", "budgetTokens": 4000, "filter": APPROVED}
    )
    assert status == 200, capsule
    assert capsule["scope"]["filter"] == APPROVED


def test_rest_refuses_an_invalid_predicate_with_its_path(made: Any) -> None:
    status, body = rest(
        made,
        "/api/search",
        {"query": "kettle", "filter": {"op": "gt", "key": "rank", "value": "1"}},
    )
    assert status == 400
    assert body["error"]["code"] == "VALIDATION"
    assert any(f.startswith("filter") for f in body["error"]["details"]["fields"]), body


def test_a_filtered_capsule_is_valid_and_verify_reruns_its_ranking_with_the_predicate() -> None:
    from gno_core.contracts.evidence_requests import ContextRequest
    from tests.schema_check import assert_valid

    adapters = in_memory(NOTES)
    with build(adapters) as gno:
        gno.sync()
        capsule = gno.context(
            ContextRequest(goal="kettle release steps", budget_tokens=4000, filter=APPROVED)
        ).wire()
        assert_valid("context-capsule-v1", capsule)
        assert capsule["scope"]["filter"] == APPROVED
        gno.embed()  # drift: verify ranks again, with the recorded predicate
        after = gno.context_verify(capsule).wire()
    assert after["status"] == "fresh", after
    assert after["rankingStatus"] == "unchanged", after
