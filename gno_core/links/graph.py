"""The link graph: the whole graph with its health report (``graph``), bounded typed traversal
from one document (``query``), and neighbours and shortest paths over the same projection
``graph`` returns (``neighbors``, ``path``).

Everything is computed from the resolved-edge stream of the ``LinkStore`` (``edges``); nothing
is cached between calls, so every answer reflects the index as it is. Every read is bounded by
explicit caps and says when one was hit.

Communities come from label propagation over the undirected, weighted projection, made
deterministic: nodes are visited in URI order, ties between labels go to the smallest label, and
a community's id is derived from the URI of its smallest member, so the same index always gets
the same ids (and a community keeps its id while its smallest member stays in it)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gno_core.contracts.graph import (
    BridgeCandidate,
    Community,
    GraphAudit,
    GraphDocument,
    GraphHints,
    GraphMeta,
    GraphNeighbor,
    GraphNeighborsMeta,
    GraphNeighborsResult,
    GraphNode,
    GraphNodeRef,
    GraphPathMeta,
    GraphPathResult,
    GraphPathStep,
    GraphQueryEdge,
    GraphQueryMeta,
    GraphQueryNode,
    GraphQueryResult,
    GraphReport,
    GraphResult,
    IsolatedNotes,
    UnresolvedLinks,
)
from gno_core.domain import AMBIGUOUS, EXPLICIT, MARKDOWN, DocRef, Edge
from gno_core.errors import ValidationError
from gno_core.identity import make_docid, make_uri
from gno_core.index_handle import IndexHandle, require_collection

if TYPE_CHECKING:
    from gno_core.contracts.graph import Direction, GraphConfidence, GraphEdgeType
    from gno_core.documents import Documents

__all__ = ["Graph", "GraphLimits", "TraversalLimits"]

Key = tuple[str, str]

#: Report list sizes: enough to act on, small enough for an agent's context.
REPORT_TOP = 10
COMMUNITY_MEMBERS = 5
COMMUNITIES_LISTED = 20
#: Label propagation stops earlier when no label changes.
PROPAGATION_ROUNDS = 12
#: Unresolved links counted by type (the total is exact whatever this is).
UNRESOLVED_SCAN = 100_000
_RANK = {EXPLICIT: 0, "inferred": 1, AMBIGUOUS: 2}


@dataclass(frozen=True, slots=True)
class GraphLimits:
    """The projection ``graph``, ``neighbors`` and ``path`` read."""

    collection: str | None = None
    limit: int = 2000
    edge_limit: int = 10_000
    linked_only: bool = True
    include_similar: bool = False
    threshold: float = 0.7
    similar_top_k: int = 5


@dataclass(frozen=True, slots=True)
class TraversalLimits:
    direction: Direction = "both"
    edge_type: str | None = None
    max_depth: int = 2
    max_nodes: int = 100
    frontier_limit: int = 100
    visited_limit: int = 500


@dataclass(slots=True)
class _Link:
    """Every resolved link from one document to another of one link type, merged."""

    source: Key
    target: Key
    type: str
    count: int = 0
    confidence: str = AMBIGUOUS

    def add(self, confidence: str) -> None:
        self.count += 1
        if _RANK.get(confidence, 2) < _RANK.get(self.confidence, 2):
            self.confidence = confidence


@dataclass(slots=True)
class _Projection:
    docs: dict[Key, DocRef]
    links: list[_Link]
    total_nodes: int
    total_edges: int
    truncated: bool
    degree: dict[Key, int] = field(default_factory=dict)


class Graph:
    """The graph capability of one index."""

    def __init__(self, handle: IndexHandle, documents: Callable[[], Documents]) -> None:
        self.handle = handle
        self._documents = documents

    # -- the whole graph ------------------------------------------------------------------

    def graph(self, limits: GraphLimits) -> GraphResult:
        collection = self._collection(limits.collection)
        merged, all_docs = self._merged(collection)
        linked = _linked_docs(merged, all_docs)
        universe = linked if limits.linked_only else {**all_docs, **linked}
        projection = _project(merged, universe, limits)
        communities = _communities(projection.docs, projection.links)
        degree = projection.degree
        # Plain dicts, validated once with the whole answer: a graph has tens of thousands of
        # links, and per-item model construction costs more than the graph algorithms.
        ids = {key: make_docid(doc.source_hash) for key, doc in projection.docs.items()}
        nodes = [
            {
                "id": ids[key],
                "uri": self._uri(doc),
                "title": doc.title,
                "collection": doc.collection,
                "rel_path": doc.rel_path,
                "degree": degree.get(key, 0),
                "community_id": communities.ids[key],
            }
            for key, doc in projection.docs.items()
        ]
        links = [
            {
                "source": ids[link.source],
                "target": ids[link.target],
                "type": _edge_type(link.type),
                "weight": link.count,
                "confidence": _confidence(link.confidence),
                "audit": {
                    "resolution": "ambiguous" if link.confidence == AMBIGUOUS else "resolved",
                    "match_count": link.count,
                },
            }
            for link in projection.links
        ]
        counts = self.handle.index.links.counts(collection)
        warnings = []
        if limits.include_similar:
            warnings.append(
                "similar edges are not part of the link graph in this version: "
                "use gno_similar for semantic neighbours"
            )
        isolated = [all_docs[k] for k in sorted(all_docs) if k not in linked]
        report = GraphReport(
            hubs=[self._ref(k, projection.docs[k], degree) for k in _top(degree)],
            bridge_candidates=self._bridges(projection, communities.ids),
            isolated=IsolatedNotes(
                total=len(isolated), examples=[self._uri(d) for d in isolated[:REPORT_TOP]]
            ),
            unresolved_links=self._unresolved(collection, counts.unresolved),
            edge_types=dict(counts.edge_types),
            edge_confidence=dict(counts.confidence),
            audit=GraphAudit(
                resolved=counts.resolved,
                ambiguous=counts.ambiguous,
                unresolved=counts.unresolved,
                external=counts.external,
                pending=counts.pending,
            ),
            communities=[
                Community(
                    id=cid,
                    size=len(members),
                    members=[
                        self._uri(projection.docs[k])
                        for k in _top({m: degree.get(m, 0) for m in members}, COMMUNITY_MEMBERS)
                    ],
                )
                for cid, members in communities.listed[:COMMUNITIES_LISTED]
            ],
            total_communities=len(communities.listed),
        )
        meta = GraphMeta(
            collection=collection,
            node_limit=limits.limit,
            edge_limit=limits.edge_limit,
            total_nodes=projection.total_nodes,
            total_edges=projection.total_edges,
            total_edges_unresolved=counts.unresolved,
            returned_nodes=len(nodes),
            returned_edges=len(links),
            truncated=projection.truncated,
            linked_only=limits.linked_only,
            included_similar=False,
            similar_available=False,
            similar_top_k=limits.similar_top_k,
            warnings=warnings,
        )
        return GraphResult.model_validate(
            {"nodes": nodes, "links": links, "report": report, "meta": meta}
        )

    # -- neighbours and paths over the projection -------------------------------------------

    def neighbors(
        self, ref: str, direction: Direction, limits: GraphLimits
    ) -> GraphNeighborsResult:
        root, projection = self._rooted(ref, limits)
        found: dict[tuple[Key, str], tuple[str, _Link]] = {}
        for link in projection.links:
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
                found[(other, link.type)] = ("both", _stronger(seen[1], link))
        neighbors = [
            GraphNeighbor(
                node=self._node(other, projection),
                direction=way,
                type=_edge_type(link.type),
                weight=link.count,
                confidence=_confidence(link.confidence),
            )
            for (other, _), (way, link) in sorted(
                found.items(), key=lambda item: (-item[1][1].count, item[0])
            )
        ]
        return GraphNeighborsResult(
            root=self._document(root, projection.docs[root]),
            neighbors=neighbors,
            meta=GraphNeighborsMeta(
                **self._projection_meta(limits, projection),
                direction=direction,
                total_neighbors=len(neighbors),
            ),
        )

    def path(
        self, source_ref: str, target_ref: str, max_depth: int, limits: GraphLimits
    ) -> GraphPathResult:
        """A shortest path following links either way, by a bidirectional breadth-first search
        that reads only the links of each level's frontier (``LinkStore.adjacent``); ``limit``
        caps the nodes reached and ``edgeLimit`` the links read."""
        if not 1 <= max_depth <= 12:
            raise ValidationError(
                f"maxDepth must be between 1 and 12, got {max_depth}",
                details={"maxDepth": max_depth},
            )
        collection = self._collection(limits.collection)
        source, target = self._key(source_ref), self._key(target_ref)
        docs = {source: self._docref(source), target: self._docref(target)}
        search = _PathSearch(self.handle, collection, limits, docs)
        keys, links = search.run(source, target, max_depth)
        found = keys is not None
        steps = [
            GraphPathStep(
                source=make_docid(e.source.source_hash),
                target=make_docid(e.target.source_hash),
                type=_edge_type(e.link_type),
                confidence=_confidence(e.confidence),
                forward=_key(e.source) == here,
            )
            for here, e in links
        ]
        return GraphPathResult(
            source=self._document(source, docs[source]),
            target=self._document(target, docs[target]),
            found=found,
            hops=len(steps) if found else None,
            path=[self._document(k, docs[k]) for k in keys] if keys is not None else [],
            steps=steps,
            meta=GraphPathMeta(
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

    def query(self, ref: str, limits: TraversalLimits) -> GraphQueryResult:
        root = self._key(ref)
        store = self.handle.index.links
        docs: dict[Key, DocRef] = {root: self._docref(root)}
        depth: dict[Key, int] = {root: 0}
        edges: list[tuple[Edge, int]] = []
        seen_edges: set[tuple[Key, Key, str, str]] = set()
        hit: list[str] = []
        frontier = [root]
        level = 0
        # One adjacency read per level: the walk costs its frontiers, not the whole graph.
        while frontier and level < limits.max_depth:
            level += 1
            if len(frontier) > limits.frontier_limit:
                frontier = frontier[: limits.frontier_limit]
                _note(hit, "frontierLimit")
            incident = _incident(store.adjacent(frontier, limits.edge_type), limits.direction)
            nxt: list[Key] = []
            for key in frontier:
                for edge, other in incident.get(key, ()):
                    ident = (_key(edge.source), _key(edge.target), edge.relation, edge.link_type)
                    if other not in depth:
                        if len(depth) >= limits.visited_limit:
                            _note(hit, "visitedLimit")
                            continue
                        if len(depth) >= limits.max_nodes:
                            _note(hit, "maxNodes")
                            continue
                        depth[other] = level
                        docs.setdefault(other, edge.target if ident[1] == other else edge.source)
                        nxt.append(other)
                    if ident not in seen_edges:
                        seen_edges.add(ident)
                        edges.append((edge, level))
            frontier = nxt
        if frontier and level >= limits.max_depth:
            beyond = _incident(
                store.adjacent(frontier[: limits.frontier_limit], limits.edge_type),
                limits.direction,
            )
            if any(o not in depth for k in frontier for _, o in beyond.get(k, ())):
                _note(hit, "maxDepth")
        out: dict[Key, int] = defaultdict(int)
        inn: dict[Key, int] = defaultdict(int)
        for edge in store.adjacent(list(depth), limits.edge_type):
            out[_key(edge.source)] += 1
            inn[_key(edge.target)] += 1
        nodes = [
            GraphQueryNode(
                **self._document(k, docs[k]).model_dump(),
                depth=d,
                graph_hints=GraphHints(in_degree=inn.get(k, 0), out_degree=out.get(k, 0)),
            )
            for k, d in sorted(depth.items(), key=lambda item: (item[1], item[0]))
        ]
        return GraphQueryResult(
            root=self._document(root, docs[root]),
            nodes=nodes,
            edges=[
                GraphQueryEdge(
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
            meta=GraphQueryMeta(
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

    # -- helpers --------------------------------------------------------------------------

    def _collection(self, name: str | None) -> str | None:
        if name is None:
            return None
        return require_collection(self.handle.load_config(), name).name

    def _merged(
        self, collection: str | None, *, every_document: bool = True
    ) -> tuple[list[_Link], dict[Key, DocRef]]:
        """Resolved links of ``collection`` (both ends in it) merged per (source, target,
        type), self-links left out, and the documents they join (every active document of
        ``collection`` with ``every_document``: reading them all costs a third of the links)."""
        listed = self.handle.index.documents.list_documents(collection) if every_document else []
        all_docs = {
            (d.collection, d.rel_path): DocRef(
                d.collection, d.rel_path, d.meta.title, d.source_hash
            )
            for d in listed
        }
        merged: dict[tuple[Key, Key, str], _Link] = {}
        for edge in self.handle.index.links.edges(collection):
            s, t = _key(edge.source), _key(edge.target)
            if s == t or (collection is not None and t[0] != collection):
                continue
            ident = (s, t, edge.link_type)
            link = merged.get(ident)
            if link is None:
                link = merged[ident] = _Link(s, t, edge.link_type)
                all_docs.setdefault(s, edge.source)
                all_docs.setdefault(t, edge.target)
            link.add(edge.confidence)
        return list(merged.values()), all_docs

    def _rooted(self, ref: str, limits: GraphLimits) -> tuple[Key, _Projection]:
        root = self._key(ref)
        collection = self._collection(limits.collection)
        merged, all_docs = self._merged(collection, every_document=not limits.linked_only)
        linked = _linked_docs(merged, all_docs)
        universe = linked if limits.linked_only else {**all_docs, **linked}
        projection = _project(merged, universe, limits)
        if root not in projection.docs:
            projection.docs[root] = self._docref(root)
        return root, projection

    def _key(self, ref: str) -> Key:
        with self._documents().resolved(ref) as resolved:
            doc = resolved.document
            return (doc.collection, doc.rel_path)

    def _docref(self, key: Key) -> DocRef:
        doc = self.handle.index.documents.get_document(*key)
        if doc is None:  # resolved a moment ago: only a concurrent sync can remove it
            return DocRef(key[0], key[1])
        return DocRef(doc.collection, doc.rel_path, doc.meta.title, doc.source_hash)

    def _uri(self, doc: DocRef) -> str:
        return make_uri(doc.collection, doc.rel_path, self.handle.name)

    def _document(self, key: Key, doc: DocRef) -> GraphDocument:
        return GraphDocument(
            id=make_docid(doc.source_hash),
            uri=self._uri(doc),
            title=doc.title,
            collection=key[0],
            rel_path=key[1],
        )

    def _node(self, key: Key, projection: _Projection) -> GraphNode:
        doc = projection.docs[key]
        return GraphNode(
            id=make_docid(doc.source_hash),
            uri=self._uri(doc),
            title=doc.title,
            collection=key[0],
            rel_path=key[1],
            degree=projection.degree.get(key, 0),
        )

    def _ref(self, key: Key, doc: DocRef, degree: dict[Key, int]) -> GraphNodeRef:
        return GraphNodeRef(
            id=make_docid(doc.source_hash),
            uri=self._uri(doc),
            title=doc.title,
            degree=degree.get(key, 0),
        )

    def _bridges(self, projection: _Projection, community: dict[Key, str]) -> list[BridgeCandidate]:
        """Nodes whose neighbours lie in several communities: removing them would cut a path
        between clusters, so they are where the graph is most fragile."""
        reach: dict[Key, set[str]] = defaultdict(set)
        for link in projection.links:
            reach[link.source].add(community[link.target])
            reach[link.target].add(community[link.source])
        spans = {k: len(s | {community[k]}) for k, s in reach.items()}
        ranked = sorted(
            (k for k, n in spans.items() if n >= 2),
            key=lambda k: (-spans[k], -projection.degree.get(k, 0), k),
        )[:REPORT_TOP]
        return [
            BridgeCandidate(
                **self._ref(k, projection.docs[k], projection.degree).model_dump(),
                communities=spans[k],
            )
            for k in ranked
        ]

    def _unresolved(self, collection: str | None, total: int) -> UnresolvedLinks:
        by_type: dict[str, int] = defaultdict(int)
        for record in self.handle.index.links.unresolved(collection, limit=UNRESOLVED_SCAN):
            by_type["markdown" if record.link.link_type == MARKDOWN else "wiki"] += 1
        return UnresolvedLinks(total=total, by_type=dict(sorted(by_type.items())))

    @staticmethod
    def _projection_meta(limits: GraphLimits, projection: _Projection) -> dict[str, object]:
        return {
            "collection": limits.collection,
            "node_limit": limits.limit,
            "edge_limit": limits.edge_limit,
            "total_nodes": projection.total_nodes,
            "total_edges": projection.total_edges,
            "truncated": projection.truncated,
        }


def _key(doc: DocRef) -> Key:
    return (doc.collection, doc.rel_path)


def _linked_docs(merged: list[_Link], docs: dict[Key, DocRef]) -> dict[Key, DocRef]:
    keys = {link.source for link in merged} | {link.target for link in merged}
    return {k: docs[k] for k in keys}


def _project(merged: list[_Link], universe: dict[Key, DocRef], limits: GraphLimits) -> _Projection:
    """Keep the ``limit`` highest-degree nodes (ties by URI order) and the ``edge_limit``
    heaviest links between them (ties by source, target)."""
    degree: dict[Key, int] = defaultdict(int)
    for link in merged:
        degree[link.source] += 1
        degree[link.target] += 1
    keys = sorted(universe, key=lambda k: (-degree.get(k, 0), k))
    kept = set(keys[: limits.limit])
    links = [link for link in merged if link.source in kept and link.target in kept]
    links.sort(key=lambda link: (-link.count, link.source, link.target, link.type))
    truncated = len(keys) > limits.limit or len(links) > limits.edge_limit
    links = links[: limits.edge_limit]
    kept_degree: dict[Key, int] = defaultdict(int)
    for link in links:
        kept_degree[link.source] += 1
        kept_degree[link.target] += 1
    docs = {k: universe[k] for k in sorted(kept)}
    return _Projection(
        docs=docs,
        links=links,
        total_nodes=len(universe),
        total_edges=len(merged),
        truncated=truncated,
        degree=dict(kept_degree),
    )


@dataclass(frozen=True, slots=True)
class _Communities:
    ids: dict[Key, str]
    #: (id, members) of every community of two or more nodes, largest first.
    listed: list[tuple[str, list[Key]]]


def _communities(docs: dict[Key, DocRef], links: Iterable[_Link]) -> _Communities:
    order = sorted(docs)
    index = {k: i for i, k in enumerate(order)}
    neighbours: list[dict[int, float]] = [defaultdict(float) for _ in order]
    for link in links:
        a, b = index[link.source], index[link.target]
        neighbours[a][b] += link.count
        neighbours[b][a] += link.count
    labels = list(range(len(order)))
    for _ in range(PROPAGATION_ROUNDS):
        changed = False
        for i, near in enumerate(neighbours):
            if not near:
                continue
            weight: dict[int, float] = defaultdict(float)
            for j, w in near.items():
                weight[labels[j]] += w
            best = max(weight.values())
            label = min(lab for lab, w in weight.items() if w == best)
            if label != labels[i] and weight.get(labels[i], 0.0) < best:
                labels[i] = label
                changed = True
        if not changed:
            break
    members: dict[int, list[Key]] = defaultdict(list)
    for i, label in enumerate(labels):
        members[label].append(order[i])
    ids: dict[Key, str] = {}
    listed: list[tuple[str, list[Key]]] = []
    for group in members.values():
        # Members were appended in sorted order: group[0] is the smallest.
        cid = "c" + hashlib.sha1("/".join(group[0]).encode()).hexdigest()[:10]
        for key in group:
            ids[key] = cid
        if len(group) > 1:
            listed.append((cid, group))
    listed.sort(key=lambda item: (-len(item[1]), item[1][0]))
    return _Communities(ids, listed)


def _top(score: dict[Key, int], n: int = REPORT_TOP) -> list[Key]:
    return sorted((k for k, v in score.items() if v > 0), key=lambda k: (-score[k], k))[:n]


def _incident(edges: Iterable[Edge], direction: Direction) -> dict[Key, list[tuple[Edge, Key]]]:
    """Each document's edges the walk may follow in ``direction``, with the document at the
    other end, in edge order."""
    out: dict[Key, list[tuple[Edge, Key]]] = defaultdict(list)
    for edge in edges:
        s, t = _key(edge.source), _key(edge.target)
        if direction != "in":
            out[s].append((edge, t))
        if direction != "out":
            out[t].append((edge, s))
    return out


def _note(hit: list[str], cap: str) -> None:
    if cap not in hit:
        hit.append(cap)


def _stronger(a: _Link, b: _Link) -> _Link:
    return (
        a if (_RANK.get(a.confidence, 2), -a.count) <= (_RANK.get(b.confidence, 2), -b.count) else b
    )


def _edge_type(value: str) -> GraphEdgeType:
    return "markdown" if value == MARKDOWN else "wiki"


def _confidence(value: str) -> GraphConfidence:
    if value == AMBIGUOUS:
        return "ambiguous"
    return "explicit" if value == EXPLICIT else "inferred"


def _relation_type(edge: Edge) -> str:
    if edge.edge_source == "frontmatter-relation":
        return "frontmatter"
    return "embed" if edge.relation == "embeds" else "link"


class _PathSearch:
    """Bidirectional breadth-first search, a whole level of the smaller side at a time (so the
    first meeting gives a shortest path); candidates in URI order, then the surest link, so the
    same index always gives the same path."""

    def __init__(
        self,
        handle: IndexHandle,
        collection: str | None,
        limits: GraphLimits,
        docs: dict[Key, DocRef],
    ) -> None:
        self.handle = handle
        self.collection = collection
        self.limits = limits
        self.docs = docs
        self.visited = 0
        self.read = 0
        self.truncated = False

    def run(
        self, source: Key, target: Key, max_depth: int
    ) -> tuple[list[Key] | None, list[tuple[Key, Edge]]]:
        if source == target:
            self.visited = 1
            return [source], []
        parents: tuple[dict[Key, tuple[Key, Edge] | None], ...] = ({source: None}, {target: None})
        frontiers = [[source], [target]]
        depth = 0
        while frontiers[0] and frontiers[1] and depth < max_depth:
            side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
            reached = self._expand(frontiers[side], parents[side])
            self.visited = len(parents[0]) + len(parents[1])
            depth += 1
            meet = sorted(k for k in reached if k in parents[1 - side])
            if meet:
                return self._joined(meet[0], parents)
            if self.truncated:
                break
            frontiers[side] = reached
        return None, []

    def _expand(self, frontier: list[Key], parent: dict[Key, tuple[Key, Edge] | None]) -> list[Key]:
        edges = self.handle.index.links.adjacent(frontier)
        self.read += len(edges)
        if self.read > self.limits.edge_limit:
            self.truncated = True
            return []
        here = set(frontier)
        candidates: list[tuple[Key, Key, int, str, Edge]] = []
        for e in edges:
            s, t = _key(e.source), _key(e.target)
            if s == t or (self.collection is not None and (s[0], t[0]) != (self.collection,) * 2):
                continue
            rank = _RANK.get(e.confidence, 2)
            if s in here:
                candidates.append((s, t, rank, e.link_type, e))
            if t in here:
                candidates.append((t, s, rank, e.link_type, e))
        candidates.sort(key=lambda c: (c[0], c[1], c[2], c[3]))
        reached: list[Key] = []
        for near, other, _, _, e in candidates:
            if other in parent:
                continue
            if len(parent) >= self.limits.limit:
                self.truncated = True
                break
            parent[other] = (near, e)
            self.docs.setdefault(other, e.target if _key(e.target) == other else e.source)
            reached.append(other)
        return reached

    @staticmethod
    def _joined(
        meet: Key, parents: tuple[dict[Key, tuple[Key, Edge] | None], ...]
    ) -> tuple[list[Key], list[tuple[Key, Edge]]]:
        head: list[Key] = [meet]
        head_links: list[tuple[Key, Edge]] = []
        step = parents[0][meet]
        while step is not None:
            prev, e = step
            head_links.append((prev, e))
            head.append(prev)
            step = parents[0][prev]
        keys = head[::-1]
        links = head_links[::-1]
        here = meet
        step = parents[1][meet]
        while step is not None:
            nxt, e = step
            links.append((here, e))
            keys.append(nxt)
            here = nxt
            step = parents[1][nxt]
        return keys, links
