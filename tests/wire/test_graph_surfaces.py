"""``gno_graph``, ``gno_graph_query``, ``gno_graph_neighbors`` and ``gno_graph_path`` (both
protocol eras) and ``/api/graph...`` over the real ``Gno`` on the in-memory adapters: contracts
validated, errors with their codes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from quart import Quart

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.rest import register_rest
from gno_core.contracts.graph import GraphResult
from gno_core.contracts.requests import GraphRequest
from gno_core.facade import Gno
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

T = TypeVar("T")

NOTES = {
    "hub.md": "# Hub\n\n[[a]] [[b]]\n",
    "a.md": '---\nworks_at: "[[b]]"\n---\n# A\n\n[[hub]]\n',
    "b.md": "# B\n\n[[c]] [[gone]]\n",
    "c.md": "# C\n",
    "lone.md": "# Lone\n",
}


@pytest.fixture(scope="module")
def adapters() -> Adapters:
    made = in_memory(NOTES)
    with build(made) as gno:
        gno.sync()
    return made


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_mcp_graph_tools_in_both_eras(adapters: Adapters, era: str) -> None:
    peer = Peer(facade=lambda: build(adapters))
    if era == "modern":
        peer.modern("server/discover")
    else:
        peer.initialize()

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        params = {"name": tool, "arguments": arguments}
        response = (
            peer.modern("tools/call", params)
            if era == "modern"
            else peer.request("tools/call", params)
        )
        result: dict[str, Any] = response["result"]
        return result

    graph = call("gno_graph", linkedOnly=False)
    assert_valid("graph", graph["structuredContent"])
    assert graph["content"][0]["text"].startswith("Knowledge Graph: 5 nodes, 5 edges\n\n")
    assert graph["structuredContent"]["report"]["isolated"]["total"] == 1
    assert graph["structuredContent"]["meta"]["totalEdgesUnresolved"] == 1

    typed = call("gno_graph_query", ref="notes/a.md", direction="out", edgeType="works_at")
    assert_valid("graph-query", typed["structuredContent"])
    assert [e["edgeType"] for e in typed["structuredContent"]["edges"]] == ["works_at"]

    near = call("gno_graph_neighbors", ref="notes/hub.md", direction="in")
    assert_valid("graph-neighbors", near["structuredContent"])
    assert near["content"][0]["text"] == (
        'Found 1 neighbor of gno://notes/hub.md:\n\n [in] gno://notes/a.md "A" (wiki, explicit)'
    )

    path = call("gno_graph_path", **{"from": "notes/hub.md", "to": "notes/c.md"})
    assert_valid("graph-path", path["structuredContent"])
    assert path["structuredContent"]["hops"] == 2
    assert path["content"][0]["text"].startswith("Path of 2 hops from gno://notes/hub.md")

    assert call("gno_graph", collection="nope")["isError"] is True
    assert call("gno_graph_path", **{"from": "notes/hub.md", "to": "notes/none.md"})["isError"]
    assert call("gno_graph_query", ref="notes/a.md", edgeType="a", relation="b")["isError"]
    assert call("gno_graph_path", **{"from": "notes/hub.md", "to": "notes/c.md", "maxDepth": 13})[
        "isError"
    ]


class _Runner:
    def __init__(self, factory: Callable[[], Gno]) -> None:
        self.factory = factory

    def get(self) -> Gno:
        return self.factory()

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        return fn()


def test_rest_graph_routes(adapters: Adapters) -> None:
    app = Quart(__name__)
    register_rest(app, _Runner(lambda: build(adapters)))

    async def go() -> list[tuple[int, Any]]:
        client = app.test_client()
        out = []
        for path in (
            "/api/graph?limit=2&linkedOnly=false",
            "/api/graph/query?ref=notes/hub.md&maxDepth=3",
            "/api/graph/neighbors?ref=notes/b.md",
            "/api/graph/path?from=notes/c.md&to=notes/a.md",
            "/api/graph?collection=nope",
            "/api/graph/query?ref=notes/hub.md&maxDepth=9",
            "/api/graph/path?from=notes/c.md",
        ):
            response = await client.get(path)
            out.append((response.status_code, await response.get_json()))
        return out

    graph, query, near, path, no_coll, too_deep, no_to = asyncio.run(go())
    assert graph[0] == 200
    assert_valid("graph", graph[1])
    assert graph[1]["meta"]["truncated"] is True and graph[1]["meta"]["returnedNodes"] == 2
    assert query[0] == 200 and query[1]["meta"]["returnedNodes"] == 4
    assert_valid("graph-query", query[1])
    assert near[0] == 200 and near[1]["meta"]["totalNeighbors"] == 3
    assert path[0] == 200 and [d["uri"] for d in path[1]["path"]] == [
        "gno://notes/c.md",
        "gno://notes/b.md",
        "gno://notes/a.md",
    ]
    assert no_coll[0] == 404 and no_coll[1]["error"]["code"] == "NOT_FOUND"
    assert too_deep[0] == 400 and too_deep[1]["error"]["code"] == "VALIDATION"
    assert no_to[0] == 400


def test_similar_edges_on_mcp_and_rest(adapters: Adapters) -> None:
    embedded = in_memory(NOTES)
    with build(embedded) as gno:
        gno.index()
    peer = Peer(facade=lambda: build(embedded))
    peer.initialize()
    arguments = {"includeSimilar": True, "threshold": 0, "similarTopK": 1, "linkedOnly": False}
    mcp = peer.request("tools/call", {"name": "gno_graph", "arguments": arguments})["result"]
    content = mcp["structuredContent"]
    assert_valid("graph", content)
    similar = [k for k in content["links"] if k["type"] == "similar"]
    assert similar and all(k["confidence"] == "similarity" for k in similar)
    assert content["meta"]["includedSimilar"] and content["meta"]["similarAvailable"]

    async def go(made: Adapters) -> Any:
        app = Quart(__name__)
        register_rest(app, _Runner(lambda: build(made)))
        response = await app.test_client().get(
            "/api/graph?includeSimilar=true&threshold=0&similarTopK=1&linkedOnly=false"
        )
        assert response.status_code == 200
        return await response.get_json()

    rest = asyncio.run(go(embedded))
    assert_valid("graph", rest)
    assert rest["links"] == content["links"]
    bare = asyncio.run(go(adapters))  # synced, never embedded
    assert not bare["meta"]["similarAvailable"] and not bare["meta"]["includedSimilar"]
    assert bare["meta"]["warnings"] == [
        "similar edges skipped: no vectors for gno/hash-embedder (run gno embed)"
    ]


def test_graph_wire_is_the_models_wire(adapters: Adapters) -> None:
    """The transports send ``graph_wire`` (nodes and links built without a model each): valid
    ``graph@1.0``, and byte for byte what the model's ``wire()`` gives, whole or cut to the
    limits, with isolated notes or without; the Python API's models equal the validated ones."""
    with build(adapters) as gno:
        for request in (
            GraphRequest(linked_only=False),
            GraphRequest(),
            GraphRequest(limit=2, edge_limit=1),
            GraphRequest(collection="notes", limit=3),
        ):
            pre = gno.graph_wire(request)
            wire = pre.wire()
            assert_valid("graph", wire)
            assert json.dumps(pre.model().wire()) == json.dumps(wire)
            # Gno.graph's nodes and links are built without validation: the same models.
            assert pre.model() == gno.graph(request) == GraphResult.model_validate(wire)
        assert [
            n["relPath"] for n in gno.graph_wire(GraphRequest(linked_only=False)).wire()["nodes"]
        ] == ["a.md", "b.md", "c.md", "hub.md", "lone.md"]
