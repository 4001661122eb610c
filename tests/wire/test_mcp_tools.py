"""Each tool over the fake facade: model-visible text, ``structuredContent`` validated against the
committed contract in ``contracts/``, and ``isError`` results with the spec's messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp_types import methods

from tests.wire.mcp_fakes import MODERN, Peer

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
    from gno_core.model.schemas import build_schema

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
        "1. #a1b2c3d4 - gno://notes/alpha.md (1.00)\n"
        "   Title: Alpha\n"
        "   Line: 3\n"
        "   Foam notes link ideas."
    )
    assert result["structuredContent"]["meta"] == {
        "query": "foam",
        "mode": "bm25",
        "totalResults": 1,
    }


def test_search_errors(call: Any) -> None:
    assert (
        text_of(call("gno_search", query="x", collection="nope"))
        == "Error: Collection not found: nope"
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
    assert text_of(result).startswith('Found 1 result for "foam" (mode: vector)\n\n1. #a1b2c3d4')
    assert result["structuredContent"]["meta"]["vectorsUsed"] is True
    missing = call("gno_vsearch", query="novectors")
    assert missing["isError"] is True and "gno index" in text_of(missing)


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
    assert meta["explain"] == [{"stage": "fusion", "message": "RRF k=60, 2 unique"}]
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
    result = call("gno_similar", ref="#a1b2c3d4", limit=3, threshold=0.5)
    assert text_of(result) == (
        "Found 1 similar document for gno://notes/alpha.md:\n\n"
        " [#b2c3d4e5] gno://notes/sub%20dir/beta.md (0.80)"
    )
    assert result["structuredContent"]["meta"]["threshold"] == 0.5
    assert text_of(call("gno_similar", ref="#ffffff")) == "Error: Document not found: #ffffff"
    assert call("gno_similar", ref="#a1b2c3d4", limit=51)["isError"] is True


def test_get_renders_line_numbers_from_the_first_returned_line(call: Any) -> None:
    result = call("gno_get", ref="#a1b2c3d4", fromLine=3, lineCount=2)
    assert text_of(result) == "3: Foam notes link ideas.\n4: Second line."
    assert result["structuredContent"]["content"] == "Foam notes link ideas.\nSecond line.\n"
    assert result["structuredContent"]["returnedLines"] == {"start": 3, "end": 4}
    whole = call("gno_get", ref="gno://notes/alpha.md", lineNumbers=False)
    assert text_of(whole) == whole["structuredContent"]["content"]


def test_get_errors(call: Any) -> None:
    assert text_of(call("gno_get", ref="#ffffff")) == "Error: Document not found: #ffffff"
    assert call("gno_get", ref="notes")["isError"] is True
    assert call("gno_get", ref="#a1b2c3d4", fromLine=0)["isError"] is True
    missing_index = call("gno_get", ref="gno://notes/alpha.md?index=elsewhere")
    assert text_of(missing_index) == "Error: Index not found: elsewhere"


def test_multi_get(call: Any) -> None:
    result = call("gno_multi_get", refs=["#a1b2c3d4", "#ffffff"], maxBytes=12)
    text = text_of(result)
    assert text.startswith(
        "Retrieved 1 document (1 skipped)\n\n=== gno://notes/alpha.md (#a1b2c3d4) ===\n1: # Alpha"
    )
    assert "[truncated at maxBytes" in text
    assert "- #ffffff: not found (Document not found: #ffffff)" in text
    assert result["structuredContent"]["meta"] == {
        "requested": 2,
        "returned": 1,
        "skipped": 1,
        "maxBytes": 12,
    }
    both = call("gno_multi_get", refs=["#a1b2c3d4"], pattern="notes/*")
    assert text_of(both) == "Error: Provide either refs or pattern, not both"


def test_peek_and_status(call: Any) -> None:
    peek = text_of(call("gno_peek"))
    assert peek.startswith(
        "schema: peek@1.0\ninitialized: yes\ndocuments: 2\ncollections: 1\nindex: default\n"
    )
    assert "serve: not running" in peek
    status = call("gno_status")
    assert text_of(status).startswith(
        "Index: default\nCollections: 1\nDocuments: 2\nChunks: 2\nEmbedding backlog: 2\n"
    )
    assert status["structuredContent"]["resident"] == {"mode": "stdio", "resident": False}


def test_list_tags(call: Any) -> None:
    result = call("gno_list_tags", prefix="work")
    assert text_of(result) == "Found 2 tags:\n\n  work (2)\n  work/project (1)"
    assert result["structuredContent"]["meta"] == {
        "collection": None,
        "prefix": "work",
        "totalTags": 2,
    }
    assert text_of(call("gno_list_tags", collection="nope")) == "Error: Collection not found: nope"


def test_an_unexpected_failure_is_an_error_result_without_internals(
    call: Any, monkeypatch: Any
) -> None:
    from tests.wire.mcp_fakes import FakeGno

    def boom(self: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(FakeGno, "peek", boom)
    result = call("gno_peek")
    assert result["isError"] is True
    assert "secret" not in text_of(result)
