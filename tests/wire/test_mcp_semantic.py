"""``gno_vsearch``, ``gno_query`` and ``gno_similar`` over the real ``Gno`` facade (in-memory
store, hash embedder, overlap reranker): structured results validate against the contracts and
the spec's degradations and errors reach the model as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gno_adapters.mcp.context import Connection
from gno_adapters.mcp.server import GnoHandlers, build_engine
from gno_core.facade import Gno
from tests.schema_check import assert_valid
from tests.semantic_support import CORPUS, HashEmbedder, OverlapReranker, make_env


class RealPeer:
    def __init__(self, gno: Gno) -> None:
        handlers = GnoHandlers(lambda: gno, profile="full", enable_write=False)
        self.engine = build_engine(handlers)
        self.connection = Connection.pinned_by_first_request("test")
        self.next = 0
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        )

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next += 1
        reply = self.engine.handle(
            self.connection, {"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}
        )
        response = reply.work() if reply.work is not None else reply.response
        assert response is not None
        return response

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.request("tools/call", {"name": tool, "arguments": arguments})[
            "result"
        ]
        return result


@pytest.fixture
def peer(tmp_path: Path) -> RealPeer:
    env = make_env(
        tmp_path,
        CORPUS,
        embedder=HashEmbedder(256),
        reranker=OverlapReranker(),
        collections=("notes", "work"),
    )
    env.gno.index()
    return RealPeer(env.gno)


def test_tools_are_listed_for_the_real_facade(peer: RealPeer) -> None:
    names = [t["name"] for t in peer.request("tools/list", {})["result"]["tools"]]
    assert {"gno_vsearch", "gno_query", "gno_similar"} <= set(names)


def test_query_over_the_real_facade(peer: RealPeer) -> None:
    result = peer.call(
        "gno_query",
        query="bread dough",
        limit=2,
        explain=True,
        queryModes=[{"mode": "term", "text": "bake"}],
    )
    assert not result.get("isError")
    structured = result["structuredContent"]
    assert_valid("search-results", structured)
    meta = structured["meta"]
    assert (meta["mode"], meta["vectorsUsed"], meta["reranked"]) == ("hybrid", True, True)
    assert structured["results"][0]["uri"] == "gno://notes/cooking.md"
    assert result["content"][0]["text"].startswith(
        'Found 2 results for "bread dough" (mode: hybrid)'
    )


def test_vsearch_and_similar_over_the_real_facade(peer: RealPeer) -> None:
    found = peer.call("gno_vsearch", query="rockets orbit", collection="work")
    assert_valid("search-results", found["structuredContent"])
    assert [r["uri"] for r in found["structuredContent"]["results"]] == ["gno://work/plan.md"]
    similar = peer.call("gno_similar", ref="notes/space.md", crossCollection=True, limit=1)
    assert_valid("similar", similar["structuredContent"])
    assert similar["structuredContent"]["similar"][0]["uri"] == "gno://work/plan.md"
    missing = peer.call("gno_similar", ref="notes/none.md")
    assert missing["isError"] is True and "Document not found" in missing["content"][0]["text"]


def test_vsearch_without_vectors_suggests_indexing(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    peer = RealPeer(env.gno)
    result = peer.call("gno_vsearch", query="rockets")
    assert result["isError"] is True and "gno index" in result["content"][0]["text"]
    query = peer.call("gno_query", query="rockets")
    assert query["structuredContent"]["meta"]["mode"] == "bm25_only"
