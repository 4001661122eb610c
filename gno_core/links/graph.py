"""The link graph: the whole graph with its health report (``graph``), bounded typed traversal
from one document (``query``), and neighbours and shortest paths over the same projection
``graph`` returns (``neighbors``, ``path``).

Everything is computed from the ``LinkStore`` (the resolved-edge stream, or the links of a
walk's frontier); nothing is cached between calls, so every answer reflects the index as it
is. Every read is bounded by explicit caps and says when one was hit. The projection and its
communities are in ``projection.py``, the report in ``report.py``, the walks in
``traversal.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_core.contracts import graph as graph_contract
from gno_core.contracts.base import Prebuilt
from gno_core.domain import EXPLICIT, DocRef, Edge
from gno_core.errors import ValidationError
from gno_core.gc_pause import collector_paused
from gno_core.identity import make_docid
from gno_core.index_handle import IndexHandle, require_collection
from gno_core.links.graph_projection import (
    GraphLimits,
    Key,
    Link,
    confidence,
    edge_type,
    key_of,
    merge,
    merge_graph,
    stronger,
)
from gno_core.links.report import doc_uri, whole_graph
from gno_core.links.traversal import PathSearch, TraversalLimits, Walk

if TYPE_CHECKING:
    from gno_core.contracts.graph import Direction
    from gno_core.documents import Documents
    from gno_core.ports.embedder import Embedder

__all__ = ["Graph", "GraphLimits", "TraversalLimits"]


class Graph:
    """The graph capability of one index."""

    def __init__(
        self,
        handle: IndexHandle,
        documents: Callable[[], Documents],
        embedder: Callable[[], Embedder | None] = lambda: None,
    ) -> None:
        self.handle = handle
        self._documents = documents
        self._embedder = embedder  # similar edges only

    # -- the whole graph ------------------------------------------------------------------

    def graph(self, limits: GraphLimits) -> graph_contract.GraphResult:
        """``graph_wire`` made the contract model (the Python API's answer)."""
        with collector_paused():  # its ~60,000 models too
            return self.graph_wire(limits).model()

    def graph_wire(self, limits: GraphLimits) -> Prebuilt[graph_contract.GraphResult]:
        """The whole graph and its report in the ``graph@1.0`` wire form (what the transports
        send): tens of thousands of links, no model per link."""
        collection = self._collection(limits.collection)
        with collector_paused():  # ~10^5 short-lived objects: collections cost a fifth
            merged, all_docs = self._merged(collection)
            return whole_graph(self.handle, limits, collection, merged, all_docs, self._embedder)

    # -- neighbours and paths over the projection -------------------------------------------

    def neighbors(
        self, ref: str, direction: Direction, limits: GraphLimits
    ) -> graph_contract.GraphNeighborsResult:
        """The links of ``ref`` merged per (neighbour, link type), from one
        ``LinkStore.adjacent`` read (so it costs the neighbourhood, not the graph), the most
        linked first; each neighbour's degree from a count-only read (``LinkStore.degrees``).
        ``limit`` caps the neighbours listed and ``edgeLimit`` the entries; ``meta.totalNodes``
        counts the root and all its neighbours, ``meta.totalEdges`` the merged links touching
        it."""
        collection = self._collection(limits.collection)
        root = self._node_key(ref, collection)
        store = self.handle.index.links
        docs = {root: self._docref(root)}
        around = merge(store.adjacent([root]), collection, docs)
        found: dict[tuple[Key, str], tuple[str, Link]] = {}
        for link in around:
            if link.source == root and direction != "in":
                other, way = link.target, "out"
            elif link.target == root and direction != "out":
                other, way = link.source, "in"
            else:
                continue
            seen = found.get((other, link.type))
            if seen is None:
                found[(other, link.type)] = (way, link)
            elif seen[0] != way:
                found[(other, link.type)] = ("both", stronger(seen[1], link))
        ranked = sorted(found.items(), key=lambda item: (-item[1][1].count, item[0]))
        everyone = {other for other, _ in found}
        kept: list[tuple[Key, str, Link]] = []
        nodes: set[Key] = set()
        for (other, _), (way, link) in ranked:
            if len(kept) >= limits.edge_limit or (
                other not in nodes and len(nodes) >= limits.limit
            ):
                continue
            nodes.add(other)
            kept.append((other, way, link))
        degree = store.degrees(sorted(nodes), collection)
        neighbors = [
            graph_contract.GraphNeighbor(
                node=self._node(other, docs[other], degree),
                direction=way,
                type=edge_type(link.type),
                weight=link.count,
                confidence=confidence(link.confidence),
            )
            for other, way, link in kept
        ]
        return graph_contract.GraphNeighborsResult(
            root=self._document(root, docs[root]),
            neighbors=neighbors,
            meta=graph_contract.GraphNeighborsMeta(
                collection=limits.collection,
                node_limit=limits.limit,
                edge_limit=limits.edge_limit,
                total_nodes=len(everyone | {root}),
                total_edges=len(around),
                truncated=len(kept) < len(ranked),
                direction=direction,
                total_neighbors=len(neighbors),
            ),
        )

    def path(
        self, source_ref: str, target_ref: str, max_depth: int, limits: GraphLimits
    ) -> graph_contract.GraphPathResult:
        """A shortest path following links either way, by a bidirectional breadth-first search
        that reads only the links of each level's frontier (``LinkStore.adjacent``); ``limit``
        caps the nodes reached and ``edgeLimit`` the links read."""
        if not 1 <= max_depth <= 12:
            raise ValidationError(
                f"maxDepth must be between 1 and 12, got {max_depth}",
                details={"maxDepth": max_depth},
            )
        collection = self._collection(limits.collection)
        source = self._node_key(source_ref, collection)
        target = self._node_key(target_ref, collection)
        docs = {source: self._docref(source), target: self._docref(target)}
        search = PathSearch(self.handle.index.links, collection, limits, docs)
        keys, links = search.run(source, target, max_depth)
        found = keys is not None
        steps = [
            graph_contract.GraphPathStep(
                source=make_docid(e.source.source_hash),
                target=make_docid(e.target.source_hash),
                type=edge_type(e.link_type),
                confidence=confidence(e.confidence),
                forward=key_of(e.source) == here,
            )
            for here, e in links
        ]
        return graph_contract.GraphPathResult(
            source=self._document(source, docs[source]),
            target=self._document(target, docs[target]),
            found=found,
            hops=len(steps) if found else None,
            path=[self._document(k, docs[k]) for k in keys] if keys is not None else [],
            steps=steps,
            meta=graph_contract.GraphPathMeta(
                collection=collection,
                node_limit=limits.limit,
                edge_limit=limits.edge_limit,
                visited_nodes=search.visited,
                read_edges=search.read,
                truncated=search.truncated,
                max_depth=max_depth,
            ),
        )

    # -- typed traversal ------------------------------------------------------------------

    def query(self, ref: str, limits: TraversalLimits) -> graph_contract.GraphQueryResult:
        root = self._key(ref)
        walk = Walk(root, self._docref(root), limits).run(self.handle.index.links)
        docs, depth, edges, hit = walk.docs, walk.depth, walk.edges, walk.hit
        nodes = [
            graph_contract.GraphQueryNode(
                **self._document(k, docs[k]).model_dump(),
                depth=d,
                graph_hints=graph_contract.GraphHints(
                    in_degree=walk.inn.get(k, 0), out_degree=walk.out.get(k, 0)
                ),
            )
            for k, d in sorted(depth.items(), key=lambda item: (item[1], item[0]))
        ]
        return graph_contract.GraphQueryResult(
            root=self._document(root, docs[root]),
            nodes=nodes,
            edges=[
                graph_contract.GraphQueryEdge(
                    source=make_docid(e.source.source_hash),
                    target=make_docid(e.target.source_hash),
                    edge_type=e.relation,
                    relation_type=_relation_type(e),
                    confidence="parsed" if e.confidence == EXPLICIT else "inferred",
                    edge_source=e.edge_source,
                    depth=d,
                )
                for e, d in edges
            ],
            meta=graph_contract.GraphQueryMeta(
                direction=limits.direction,
                edge_type=limits.edge_type,
                max_depth=limits.max_depth,
                max_nodes=limits.max_nodes,
                frontier_limit=limits.frontier_limit,
                visited_limit=limits.visited_limit,
                returned_nodes=len(nodes),
                returned_edges=len(edges),
                visited_nodes=len(depth),
                truncated=bool(hit),
                truncated_by=hit,
                warnings=[f"traversal stopped at {cap}" for cap in hit],
            ),
        )

    # -- what other rooms read of a node (the impact walk) --------------------------------

    def node_key(self, ref: str) -> Key:
        """The document ``ref`` names (a reference, a bare relPath or an exact title)."""
        return self._node_key(ref, None)

    def docref(self, key: Key) -> DocRef:
        return self._docref(key)

    def wire_document(self, key: Key, doc: DocRef) -> graph_contract.GraphDocument:
        return self._document(key, doc)

    # -- helpers --------------------------------------------------------------------------

    def _collection(self, name: str | None) -> str | None:
        if name is None:
            return None
        return require_collection(self.handle.load_config(), name).name

    def _merged(self, collection: str | None) -> tuple[list[Link], dict[Key, DocRef]]:
        """Resolved links of ``collection`` (both ends in it) merged per (source, target,
        type), self-links left out, and every active document of ``collection``."""
        return merge_graph(self.handle.index.links.graph(collection))

    def _key(self, ref: str) -> Key:
        with self._documents().resolved(ref) as resolved:
            doc = resolved.document
            return (doc.collection, doc.rel_path)

    def _node_key(self, ref: str, collection: str | None) -> Key:
        """``_key``, or, when ``ref`` is no document reference, the node the spec's other forms
        name: a bare relPath or an exact title (``gno_core.links.node_refs``)."""
        from gno_core.errors import NotFoundError
        from gno_core.links.node_refs import named_node

        try:
            return self._key(ref)
        except (ValidationError, NotFoundError) as exc:
            found = named_node(self.handle, ref, collection)
            if found is not None:
                return found
            if isinstance(exc, ValidationError):
                raise ValidationError(
                    f"No document is named {ref!r}: use a gno:// URI, collection/path or #docid, "
                    "or a document's exact relPath or title",
                    details=exc.details,
                ) from None
            raise

    def _docref(self, key: Key) -> DocRef:
        doc = self.handle.index.documents.get_document(*key)
        if doc is None:  # resolved a moment ago: only a concurrent sync can remove it
            return DocRef(key[0], key[1])
        return DocRef(doc.collection, doc.rel_path, doc.meta.title, doc.source_hash)

    def _uri(self, doc: DocRef) -> str:
        return doc_uri(self.handle.name, doc)

    def _document(self, key: Key, doc: DocRef) -> graph_contract.GraphDocument:
        return graph_contract.GraphDocument(
            id=make_docid(doc.source_hash),
            uri=self._uri(doc),
            title=doc.title,
            collection=key[0],
            rel_path=key[1],
        )

    def _node(self, key: Key, doc: DocRef, degree: dict[Key, int]) -> graph_contract.GraphNode:
        return graph_contract.GraphNode(
            id=make_docid(doc.source_hash),
            uri=self._uri(doc),
            title=doc.title,
            collection=key[0],
            rel_path=key[1],
            degree=degree.get(key, 0),
        )


def _relation_type(edge: Edge) -> str:
    if edge.edge_source == "frontmatter-relation":
        return "frontmatter"
    return "embed" if edge.relation == "embeds" else "link"
