"""Walks over the link store that read only the links of each level's frontier
(``LinkStore.adjacent``), so a walk costs its frontiers, not the whole graph: the bounded typed
traversal behind ``graph query`` (every cap it hits is recorded) and the bidirectional shortest
path search behind ``graph path``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gno_core.domain import DocRef, Edge
from gno_core.links.graph_projection import RANK, GraphLimits, Key, key_of

if TYPE_CHECKING:
    from gno_core.contracts.graph import Direction
    from gno_core.ports.links import LinkStore

__all__ = ["PathSearch", "TraversalLimits", "Walk"]


@dataclass(frozen=True, slots=True)
class TraversalLimits:
    direction: Direction = "both"
    edge_type: str | None = None
    max_depth: int = 2
    max_nodes: int = 100
    frontier_limit: int = 100
    visited_limit: int = 500


@dataclass(slots=True)
class Walk:
    """A breadth-first walk from ``root`` under ``limits``: each reached document's depth, the
    edges followed with the level they were found at, the caps hit, and the in/out degrees of
    the reached documents."""

    root: Key
    root_doc: DocRef
    limits: TraversalLimits
    docs: dict[Key, DocRef] = field(default_factory=dict)
    depth: dict[Key, int] = field(default_factory=dict)
    edges: list[tuple[Edge, int]] = field(default_factory=list)
    hit: list[str] = field(default_factory=list)
    out: dict[Key, int] = field(default_factory=dict)
    inn: dict[Key, int] = field(default_factory=dict)

    def run(self, store: LinkStore) -> Walk:
        limits, root = self.limits, self.root
        docs, depth, edges, hit = self.docs, self.depth, self.edges, self.hit
        docs[root] = self.root_doc
        depth[root] = 0
        seen_edges: set[tuple[Key, Key, str, str]] = set()
        frontier = [root]
        level = 0
        # One adjacency read per level: the walk costs its frontiers, not the whole graph.
        while frontier and level < limits.max_depth:
            level += 1
            if len(frontier) > limits.frontier_limit:
                frontier = frontier[: limits.frontier_limit]
                note(hit, "frontierLimit")
            incident_ = incident(store.adjacent(frontier, limits.edge_type), limits.direction)
            nxt: list[Key] = []
            for key in frontier:
                for edge, other in incident_.get(key, ()):
                    ident = (
                        key_of(edge.source),
                        key_of(edge.target),
                        edge.relation,
                        edge.link_type,
                    )
                    if other not in depth:
                        if len(depth) >= limits.visited_limit:
                            note(hit, "visitedLimit")
                            continue
                        if len(depth) >= limits.max_nodes:
                            note(hit, "maxNodes")
                            continue
                        depth[other] = level
                        docs.setdefault(other, edge.target if ident[1] == other else edge.source)
                        nxt.append(other)
                    if ident not in seen_edges:
                        seen_edges.add(ident)
                        edges.append((edge, level))
            frontier = nxt
        if frontier and level >= limits.max_depth:
            beyond = incident(
                store.adjacent(frontier[: limits.frontier_limit], limits.edge_type),
                limits.direction,
            )
            if any(o not in depth for k in frontier for _, o in beyond.get(k, ())):
                note(hit, "maxDepth")
        out: dict[Key, int] = defaultdict(int)
        inn: dict[Key, int] = defaultdict(int)
        for edge in store.adjacent(list(depth), limits.edge_type):
            out[key_of(edge.source)] += 1
            inn[key_of(edge.target)] += 1
        self.out, self.inn = dict(out), dict(inn)
        return self


def incident(edges: Iterable[Edge], direction: Direction) -> dict[Key, list[tuple[Edge, Key]]]:
    """Each document's edges the walk may follow in ``direction``, with the document at the
    other end, in edge order."""
    out: dict[Key, list[tuple[Edge, Key]]] = defaultdict(list)
    for edge in edges:
        s, t = key_of(edge.source), key_of(edge.target)
        if direction != "in":
            out[s].append((edge, t))
        if direction != "out":
            out[t].append((edge, s))
    return out


def note(hit: list[str], cap: str) -> None:
    if cap not in hit:
        hit.append(cap)


class PathSearch:
    """Bidirectional breadth-first search, a whole level of the smaller side at a time (so the
    first meeting gives a shortest path); candidates in URI order, then the surest link, so the
    same index always gives the same path."""

    def __init__(
        self,
        store: LinkStore,
        collection: str | None,
        limits: GraphLimits,
        docs: dict[Key, DocRef],
    ) -> None:
        self.store = store
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
        edges = self.store.adjacent(frontier)
        self.read += len(edges)
        if self.read > self.limits.edge_limit:
            self.truncated = True
            return []
        here = set(frontier)
        candidates: list[tuple[Key, Key, int, str, Edge]] = []
        for e in edges:
            s, t = key_of(e.source), key_of(e.target)
            if s == t or (self.collection is not None and (s[0], t[0]) != (self.collection,) * 2):
                continue
            rank = RANK.get(e.confidence, 2)
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
            self.docs.setdefault(other, e.target if key_of(e.target) == other else e.source)
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
