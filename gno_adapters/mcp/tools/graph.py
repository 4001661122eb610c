"""``gno_graph`` (the link graph and its report), ``gno_graph_query`` (bounded typed
traversal), ``gno_graph_neighbors`` and ``gno_graph_path`` (over the graph projection)."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts import (
        GraphNeighborsResult,
        GraphPathResult,
        GraphQueryResult,
    )

#: Nodes named in the text of ``gno_graph``: the structured content carries them all.
TEXT_TOP_NODES = 10


def render_graph(wire: dict[str, Any]) -> str:
    """The text of a ``graph@1.0`` answer in its wire form."""
    meta, report = wire["meta"], wire["report"]
    lines = [f"Knowledge Graph: {meta['returnedNodes']} nodes, {meta['returnedEdges']} edges"]
    if meta["truncated"]:
        lines[0] += f" (of {meta['totalNodes']} nodes, {meta['totalEdges']} edges)"
    ranked = heapq.nsmallest(TEXT_TOP_NODES, wire["nodes"], key=lambda n: (-n["degree"], n["uri"]))
    if ranked:
        lines += ["", "Top nodes by degree:"]
        lines += [
            f' [{n["id"]}] {n["uri"]} "{n.get("title") or ""}" (degree: {n["degree"]})'
            for n in ranked
        ]
    lines += [
        "",
        f"Communities: {report['totalCommunities']}; bridge candidates: "
        f"{len(report['bridgeCandidates'])}; isolated notes: {report['isolated']['total']}; "
        f"unresolved links: {report['unresolvedLinks']['total']}",
    ]
    lines += [f"Warning: {w}" for w in meta["warnings"]]
    return "\n".join(lines)


def render_graph_query(res: GraphQueryResult) -> str:
    meta = res.meta
    head = (
        f"Traversed {meta.returned_nodes} nodes and {meta.returned_edges} edges from "
        f"{res.root.uri} (direction {meta.direction}, max depth {meta.max_depth})"
    )
    if meta.truncated:
        head += f"; truncated by {', '.join(meta.truncated_by)}"
    lines = [f" depth {n.depth}: {n.uri}" for n in res.nodes[1:]]
    return head + (":\n\n" + "\n".join(lines) if lines else "")


def render_graph_neighbors(res: GraphNeighborsResult) -> str:
    count = len(res.neighbors)
    head = f"Found {count} {'neighbor' if count == 1 else 'neighbors'} of {res.root.uri}"
    lines = [
        f' [{n.direction}] {n.node.uri} "{n.node.title or ""}" ({n.type}, {n.confidence})'
        for n in res.neighbors
    ]
    return head + (":\n\n" + "\n".join(lines) if lines else "")


def render_graph_path(res: GraphPathResult) -> str:
    if not res.found:
        return f"No path from {res.source.uri} to {res.target.uri} within {res.meta.max_depth} hops"
    lines = [f" {i}. {d.uri}" for i, d in enumerate(res.path)]
    return f"Path of {res.hops} hops from {res.source.uri} to {res.target.uri}:\n\n" + "\n".join(
        lines
    )


def _graph(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import GraphRequest

    req = validated(GraphRequest, call.arguments)
    res = call.facade.graph_wire(req)
    return tool_result(render_graph(res.wire()), res)


def _graph_query(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import GraphQueryRequest

    req = validated(GraphQueryRequest, call.arguments)
    res = call.facade.graph_query(req)
    return tool_result(render_graph_query(res), res)


def _graph_neighbors(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import GraphNeighborsRequest

    req = validated(GraphNeighborsRequest, call.arguments)
    res = call.facade.graph_neighbors(req)
    return tool_result(render_graph_neighbors(res), res)


def _graph_path(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import GraphPathRequest

    req = validated(GraphPathRequest, call.arguments)
    res = call.facade.graph_path(req)
    return tool_result(render_graph_path(res), res)


GRAPH = ToolDef(
    name="gno_graph",
    input_schema=DerivedSchema("GraphRequest"),
    output="graph",
    handler=_graph,
    requires="graph",
)
GRAPH_QUERY = ToolDef(
    name="gno_graph_query",
    input_schema=DerivedSchema("GraphQueryRequest"),
    output="graph-query",
    handler=_graph_query,
    requires="graph_query",
)
GRAPH_NEIGHBORS = ToolDef(
    name="gno_graph_neighbors",
    input_schema=DerivedSchema("GraphNeighborsRequest"),
    output="graph-neighbors",
    handler=_graph_neighbors,
    requires="graph_neighbors",
)
GRAPH_PATH = ToolDef(
    name="gno_graph_path",
    input_schema=DerivedSchema("GraphPathRequest"),
    output="graph-path",
    handler=_graph_path,
    requires="graph_path",
)
