"""Facade operations of the graph room: the link graph report, neighbours, paths and typed
traversal (``gno_core.links.graph``); the requests become the capability's limits here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts.base import Prebuilt
    from gno_core.contracts.graph import (
        GraphNeighborsResult,
        GraphPathResult,
        GraphQueryResult,
        GraphResult,
    )
    from gno_core.contracts.requests import (
        GraphNeighborsRequest,
        GraphPathRequest,
        GraphQueryRequest,
        GraphRequest,
    )
    from gno_core.links.graph import GraphLimits, TraversalLimits

__all__ = ["GraphCalls"]


class GraphCalls(FacadeBase):
    def graph(self, request: GraphRequest) -> GraphResult:
        """The link graph (nodes, merged links, communities) and its health report."""
        return self.graphing.graph(_graph_limits(request))

    def graph_wire(self, request: GraphRequest) -> Prebuilt[GraphResult]:
        """``graph`` in its wire form, no model per node or link (what the transports send)."""
        return self.graphing.graph_wire(_graph_limits(request))

    def graph_neighbors(self, request: GraphNeighborsRequest) -> GraphNeighborsResult:
        """Neighbours of one document in the projection ``graph`` returns."""
        return self.graphing.neighbors(request.ref, request.direction, _graph_limits(request))

    def graph_path(self, request: GraphPathRequest) -> GraphPathResult:
        """A shortest link path between two documents in the projection ``graph`` returns."""
        return self.graphing.path(
            request.source, request.target, request.max_depth, _graph_limits(request)
        )

    def graph_query(self, request: GraphQueryRequest) -> GraphQueryResult:
        """Bounded typed-edge traversal from one document."""
        return self.graphing.query(request.ref, _traversal_limits(request))


def _graph_limits(request: GraphRequest) -> GraphLimits:
    from gno_core.links.graph import GraphLimits

    return GraphLimits(
        collection=request.collection,
        limit=request.limit,
        edge_limit=request.edge_limit,
        linked_only=request.linked_only,
        include_similar=request.include_similar,
        threshold=request.threshold,
        similar_top_k=request.similar_top_k,
    )


def _traversal_limits(request: GraphQueryRequest) -> TraversalLimits:
    from gno_core.links.graph import TraversalLimits

    return TraversalLimits(
        direction=request.direction,
        edge_type=request.wanted_edge_type,
        max_depth=request.max_depth,
        max_nodes=request.max_nodes,
        frontier_limit=request.frontier_limit,
        visited_limit=request.visited_limit,
    )
