"""What depends on a document: an inbound breadth-first walk from it over the links that
resolve to it (backlinks: wiki and Markdown links, embeds) and its typed frontmatter edges.

Each level costs one ``LinkStore.adjacent`` read of its frontier, so a walk costs its
frontiers, not the whole graph. Every impacted document keeps the first link that reached it
in a fixed order (the document's path, then the surest link, then the nearer document's path,
then the link's kind), so the same index always gives the same evidence path. Every cap the
walk meets is named in ``meta.truncatedBy``; a capped answer is never presented as whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gno_core.domain import DocRef, Edge
from gno_core.identity import make_docid
from gno_core.links.graph_projection import RANK, Key, key_of

if TYPE_CHECKING:
    from gno_core.contracts.impact import ImpactCap, ImpactResult, ImpactStep
    from gno_core.contracts.integrity_requests import ImpactRequest
    from gno_core.index_handle import IndexHandle
    from gno_core.links.graph import Graph
    from gno_core.ports.links import LinkStore

__all__ = ["Impact", "InboundWalk"]


@dataclass(slots=True)
class InboundWalk:
    """The walk itself: each reached document's depth and the link that reached it
    (``parent``: its source is the document, its target one level nearer the root)."""

    root: Key
    max_depth: int
    max_nodes: int
    max_edges: int
    frontier_limit: int
    visited_limit: int
    depth: dict[Key, int] = field(default_factory=dict)
    parent: dict[Key, Edge] = field(default_factory=dict)
    order: list[Key] = field(default_factory=list)
    read: int = 0
    hit: list[ImpactCap] = field(default_factory=list)

    def run(self, store: LinkStore) -> InboundWalk:
        self.depth[self.root] = 0
        frontier = [self.root]
        level = 0
        while frontier and level < self.max_depth:
            level += 1
            if len(frontier) > self.frontier_limit:
                frontier = frontier[: self.frontier_limit]
                self._note("frontierLimit")
            frontier = self._level(store, frontier, level)
            if "maxEdges" in self.hit:
                return self
        if frontier and level >= self.max_depth:
            beyond = _inbound(store.adjacent(frontier[: self.frontier_limit]), set(frontier))
            if any(key_of(e.source) not in self.depth for e in beyond):
                self._note("maxDepth")
        return self

    def _level(self, store: LinkStore, frontier: list[Key], level: int) -> list[Key]:
        reached: list[Key] = []
        for edge in _inbound(store.adjacent(frontier), set(frontier)):
            if self.read >= self.max_edges:
                self._note("maxEdges")
                break
            self.read += 1
            source = key_of(edge.source)
            if source in self.depth:
                continue
            if len(self.depth) >= self.visited_limit:
                self._note("visitedLimit")
                continue
            if len(self.order) >= self.max_nodes:
                self._note("maxNodes")
                continue
            self.depth[source] = level
            self.parent[source] = edge
            self.order.append(source)
            reached.append(source)
        return sorted(reached)

    def path(self, key: Key) -> list[Edge]:
        """The links from ``key`` to the root, one per hop."""
        steps: list[Edge] = []
        while key != self.root:
            edge = self.parent[key]
            steps.append(edge)
            key = key_of(edge.target)
        return steps

    def _note(self, cap: ImpactCap) -> None:
        if cap not in self.hit:
            self.hit.append(cap)


def _inbound(edges: list[Edge], targets: set[Key]) -> list[Edge]:
    """The links of ``edges`` into ``targets`` from another document, in the walk's order: by
    source path, surest first, then target path and the link's kind."""
    inbound = [
        e for e in edges if key_of(e.target) in targets and key_of(e.source) != key_of(e.target)
    ]
    inbound.sort(
        key=lambda e: (
            key_of(e.source),
            RANK.get(e.confidence, 3),
            key_of(e.target),
            e.relation,
            e.link_type,
            e.edge_source,
        )
    )
    return inbound


class Impact:
    """The impact read of one index."""

    def __init__(self, handle: IndexHandle, graph: Callable[[], Graph]) -> None:
        self.handle = handle
        self._graph = graph

    def impact(self, request: ImpactRequest) -> ImpactResult:
        from gno_core.contracts.impact import ImpactedDocument, ImpactMeta, ImpactResult

        graph = self._graph()
        root = graph.node_key(request.ref)
        root_doc = graph.docref(root)
        walk = InboundWalk(
            root,
            request.max_depth,
            request.max_nodes,
            request.max_edges,
            request.frontier_limit,
            request.visited_limit,
        ).run(self.handle.index.links)
        docs: dict[Key, DocRef] = {root: root_doc}
        for key in walk.order:
            docs[key] = walk.parent[key].source
        ranked = sorted(walk.order, key=lambda k: (walk.depth[k], k))
        impacted = [
            ImpactedDocument(
                document=graph.wire_document(k, docs[k]),
                depth=walk.depth[k],
                evidence_path=[self._step(e, docs) for e in walk.path(k)],
            )
            for k in ranked
        ]
        return ImpactResult(
            root=graph.wire_document(root, root_doc),
            impacted=impacted,
            meta=ImpactMeta(
                max_depth=request.max_depth,
                max_nodes=request.max_nodes,
                max_edges=request.max_edges,
                frontier_limit=request.frontier_limit,
                visited_limit=request.visited_limit,
                returned_nodes=len(impacted),
                returned_edges=walk.read,
                visited_nodes=len(walk.depth),
                truncated=bool(walk.hit),
                truncated_by=list(walk.hit),
                warnings=[
                    f"traversal stopped at {cap}: more documents may depend on it"
                    for cap in walk.hit
                ],
            ),
        )

    def _step(self, edge: Edge, docs: dict[Key, DocRef]) -> ImpactStep:
        from gno_core.contracts.impact import ImpactStep
        from gno_core.links.report import doc_uri

        source, target = docs[key_of(edge.source)], docs[key_of(edge.target)]
        typed = edge.edge_source == "frontmatter-relation"
        return ImpactStep(
            source=make_docid(source.source_hash),
            source_uri=doc_uri(self.handle.name, source),
            target=make_docid(target.source_hash),
            target_uri=doc_uri(self.handle.name, target),
            projection="typed" if typed else "backlink",
            edge_type=edge.relation,
            link_type=edge.link_type,
            edge_source=edge.edge_source,
            confidence=edge.confidence,
        )
