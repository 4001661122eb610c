"""Each tool over the real in-memory facade (``real_facade.NOTES``): model-visible text, ``structuredContent`` validated against the
committed contract in ``contracts/``, and ``isError`` results with the spec's messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp_types import methods

from tests.wire.mcp_fakes import FakeGno
from tests.wire.real_facade import ALPHA, BETA, MODERN, Peer, adapters, docids, factory

CONTRACTS = Path(__file__).resolve().parents[2] / "contracts"
OUTPUTS = {
    "gno_search": "search-results",
    "gno_get": "get",
    "gno_multi_get": "multi-get",
    "gno_peek": "peek",
    "gno_status": "status",
    "gno_list_tags": "tags-list",
    "gno_vsearch": "search-results",
    "gno_query": "search-results",
    "gno_similar": "similar",
}


def contract(name: str) -> dict[str, Any]:
    path = CONTRACTS / f"{name}.schema.json"
    if path.is_file():
        loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return loaded
    from gno_core.contracts.schemas import build_schema

    return build_schema(name)


@pytest.fixture(params=["legacy", "modern"])
def call(request: pytest.FixtureRequest) -> Any:
    """``call(tool, **arguments)`` on a fresh connection of each era; every result is checked
    against the era's wire shape and, on success, against the tool's output contract."""
    peer = Peer()
    modern = request.param == "modern"
    if modern:
        peer.modern("server/discover")
    else:
        peer.initialize()

    def run(tool: str, **arguments: Any) -> dict[str, Any]:
        params = {"name": tool, "arguments": arguments}
        response = (
            peer.modern("tools/call", params) if modern else peer.request("tools/call", params)
        )
        result: dict[str, Any] = response["result"]
        methods.validate_server_result("tools/call", MODERN if modern else "2025-11-25", result)
        if not result.get("isError"):
            Draft202012Validator(contract(OUTPUTS[tool])).validate(result["structuredContent"])
        return result

    return run


def text_of(result: dict[str, Any]) -> str:
    (block,) = result["content"]
    assert block["type"] == "text"
    text: str = block["text"]
    return text


def test_search(call: Any) -> None:
    result = call("gno_search", query="foam", limit=1)
    assert text_of(result) == (
        'Found 1 result for "foam"\n\n'
        f"1. {docids()['alpha']} - {ALPHA} (1.00)\n"
        "   Title: Alpha\n"
        "   Line: 6\n"
        "   Foam notes link ideas.\n"
        "   Second line."
    )
    assert result["structuredContent"]["meta"] == {
        "query": "foam",
        "mode": "bm25",
        "totalResults": 1,
    }


def test_search_errors(call: Any) -> None:
    assert (
        text_of(call("gno_search", query="x", collection="nope"))
        == "Error: Collection not found: nope (collections: notes)"
    )
    empty = call("gno_search", query="  ")
    assert empty["isError"] is True and "query must not be empty" in text_of(empty)
    missing = call("gno_search")
    assert missing["isError"] is True
    assert (
        text_of(missing)
        == "Error: Invalid arguments for tool gno_search: 'query' is a required property"
    )
    too_many = call("gno_search", query="x", limit=101)
    assert too_many["isError"] is True and "limit" in text_of(too_many)


def test_search_accepts_project_hints_without_effect(call: Any) -> None:
    plain = call("gno_search", query="foam")
    hinted = call("gno_search", query="foam", projectHints=["/home/me/repo"])
    assert hinted["structuredContent"] == plain["structuredContent"]


def test_vsearch(call: Any) -> None:
    result = call("gno_vsearch", query="foam", limit=1, exclude=["draft"], intent="notes")
    assert text_of(result).startswith(
        f'Found 1 result for "foam" (mode: vector)\n\n1. {docids()["alpha"]} - {ALPHA} (0.83)'
    )
    assert result["structuredContent"]["meta"]["vectorsUsed"] is True


def test_vsearch_before_embedding_names_the_command_to_run() -> None:
    peer = Peer(facade=factory(adapters(embedded=False)))
    peer.initialize()
    params = {"name": "gno_vsearch", "arguments": {"query": "foam"}}
    missing = peer.request("tools/call", params)["result"]
    assert missing["isError"] is True
    assert text_of(missing) == (
        "Error: No vectors for gno/hash-embedder in this index yet: run `gno embed` "
        "(or `gno index`) first"
    )


def test_query_passes_every_control_through(call: Any) -> None:
    result = call(
        "gno_query",
        query="foam",
        limit=2,
        candidateLimit=7,
        queryModes=[{"mode": "term", "text": " link "}, {"mode": "hyde", "text": "Notes link."}],
        explain=True,
        fast=False,
        graph=False,
        projectHints=["/repo"],
    )
    meta = result["structuredContent"]["meta"]
    assert (meta["mode"], meta["candidateLimit"], meta["vectorsUsed"]) == ("hybrid", 7, True)
    assert meta["queryModes"] == [
        {"mode": "term", "text": "link"},
        {"mode": "hyde", "text": "Notes link."},
    ]
    explain = {line["stage"]: line["message"] for line in meta["explain"]}
    assert explain["depth"].startswith("balanced: candidateLimit 7,")
    assert explain["term1"] == "1 hits (limit 20): link"  # the term mode ran, trimmed
    assert explain["expansion"] == "skipped: queryModes given"
    assert explain["graph"].startswith("skipped:")  # graph=False, and no link graph either
    assert explain["fusion"].startswith("RRF k=60, 2 unique from bm25(2), term1(0.5)")
    uris = [r["uri"] for r in result["structuredContent"]["results"]]
    assert uris == [ALPHA, BETA]
    assert text_of(result).endswith("(vectorsUsed: true, reranked: false, expanded: false)")


def test_query_validation(call: Any) -> None:
    two_hyde = call(
        "gno_query",
        query="q",
        queryModes=[{"mode": "hyde", "text": "a"}, {"mode": "hyde", "text": "b"}],
    )
    assert two_hyde["isError"] is True and "at most one hyde" in text_of(two_hyde)
    blank = call("gno_query", query="q", queryModes=[{"mode": "term", "text": "  "}])
    assert blank["isError"] is True and "must not be empty" in text_of(blank)
    bad_mode = call("gno_query", query="q", queryModes=[{"mode": "lex", "text": "x"}])
    assert bad_mode["isError"] is True
    assert call("gno_query", query="q", candidateLimit=101)["isError"] is True
    both = call("gno_query", query="q", fast=True, thorough=True)
    assert both["isError"] is True


def test_similar(call: Any) -> None:
    result = call("gno_similar", ref=docids()["alpha"], limit=3, threshold=0.5)
    assert text_of(result) == (
        f"Found 1 similar document for {ALPHA}:\n\n [{docids()['beta']}] {BETA} (0.59)"
    )
    assert result["structuredContent"]["meta"]["threshold"] == 0.5
    strict = call("gno_similar", ref=ALPHA, threshold=0.9)
    assert strict["structuredContent"]["similar"] == []
    assert text_of(call("gno_similar", ref="#ffffff")) == "Error: Document not found: #ffffff"
    assert call("gno_similar", ref=ALPHA, limit=51)["isError"] is True


def test_get_renders_line_numbers_from_the_first_returned_line(call: Any) -> None:
    result = call("gno_get", ref=docids()["alpha"], fromLine=6, lineCount=2)
    assert text_of(result) == "6: Foam notes link ideas.\n7: Second line."
    assert result["structuredContent"]["content"] == "Foam notes link ideas.\nSecond line.\n"
    assert result["structuredContent"]["returnedLines"] == {"start": 6, "end": 7}
    assert result["structuredContent"]["tags"] == ["work", "work/project"]
    whole = call("gno_get", ref="gno://notes/alpha.md", lineNumbers=False)
    assert text_of(whole) == whole["structuredContent"]["content"]


def test_get_errors(call: Any) -> None:
    assert text_of(call("gno_get", ref="#ffffff")) == "Error: Document not found: #ffffff"
    assert call("gno_get", ref="notes")["isError"] is True
    assert call("gno_get", ref=docids()["alpha"], fromLine=0)["isError"] is True
    past = call("gno_get", ref=ALPHA, fromLine=9)
    assert past["isError"] is True and "past the end" in text_of(past)
    missing_index = call("gno_get", ref="gno://notes/alpha.md?index=elsewhere")
    assert text_of(missing_index) == "Error: Index not found: elsewhere"


def test_multi_get(call: Any) -> None:
    alpha = docids()["alpha"]
    result = call("gno_multi_get", refs=[alpha, "#ffffff"], maxBytes=12)
    text = text_of(result)
    assert text.startswith(
        f"Retrieved 1 document (1 skipped)\n\n=== {ALPHA} ({alpha}) ===\n1: ---\n"
    )
    assert "[truncated at maxBytes" in text
    assert "- #ffffff: not found (Document not found: #ffffff)" in text
    assert result["structuredContent"]["meta"] == {
        "requested": 2,
        "returned": 1,
        "skipped": 1,
        "maxBytes": 12,
    }
    both = call("gno_multi_get", refs=[alpha], pattern="notes/*")
    assert text_of(both) == "Error: Provide either refs or pattern, not both"


def test_peek_and_status(call: Any) -> None:
    peek = text_of(call("gno_peek"))
    assert peek.startswith(
        "schema: peek@1.0\ninitialized: yes\ndocuments: 2\ncollections: 1\nindex: default\n"
    )
    assert "serve: not running" in peek
    assert f"  {docids()['alpha']} {ALPHA} (" in peek
    status = call("gno_status")
    assert text_of(status).startswith(
        "Index: default\nCollections: 1\nDocuments: 2\nChunks: 2\nEmbedding backlog: 0\n"
    )
    assert status["structuredContent"]["resident"] == {"mode": "stdio", "resident": False}
    # gno has no content-type ranking rules: the spec's redacted projection is the neutral one.
    assert status["structuredContent"]["contentTypeBoost"] == {"rulesFingerprint": "", "rules": []}


def test_list_tags(call: Any) -> None:
    result = call("gno_list_tags", prefix="work")
    assert text_of(result) == "Found 2 tags:\n\n  work (2)\n  work/project (1)"
    assert result["structuredContent"]["meta"] == {
        "collection": None,
        "prefix": "work",
        "totalTags": 2,
    }
    assert (
        text_of(call("gno_list_tags", collection="nope"))
        == "Error: Collection not found: nope (collections: notes)"
    )


def test_an_unexpected_failure_is_an_error_result_without_internals() -> None:
    failing = FakeGno(failing={"peek": RuntimeError("secret internals")})
    peer = Peer(facade=lambda: failing)
    peer.initialize()
    result = peer.request("tools/call", {"name": "gno_peek", "arguments": {}})["result"]
    assert result["isError"] is True
    assert "secret" not in text_of(result)
    assert text_of(result).startswith("Error: ")
