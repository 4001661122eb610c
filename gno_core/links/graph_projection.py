"""The projection the graph reads share: resolved links merged per (source, target, type),
the ``limit`` highest-degree nodes with the ``edge_limit`` heaviest links between them, and
deterministic communities over it.

Communities come from label propagation over the undirected, weighted projection, made
deterministic: nodes are visited in URI order, ties between labels go to the smallest label, and
a community's id is derived from the URI of its smallest member, so the same index always gets
the same ids (and a community keeps its id while its smallest member stays in it)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gno_core.domain import AMBIGUOUS, EXPLICIT, MARKDOWN, DocRef, Edge, LinkGraph

if TYPE_CHECKING:
    from gno_core.contracts.graph import GraphConfidence, GraphEdgeType

__all__ = ["GraphLimits", "Key"]

Key = tuple[str, str]

#: Report list sizes: enough to act on, small enough for an agent's context.
REPORT_TOP = 10
#: Label propagation stops earlier when no label changes.
PROPAGATION_ROUNDS = 12
RANK = {EXPLICIT: 0, "inferred": 1, AMBIGUOUS: 2}
#: The confidence a merged link keeps: the surest of its links (``Link.add``).
_BY_RANK = (EXPLICIT, "inferred", AMBIGUOUS)


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


@dataclass(slots=True)
class Link:
    """Every resolved link from one document to another of one link type, merged."""

    source: Key
    target: Key
    type: str
    count: int = 0
    confidence: str = AMBIGUOUS

    def add(self, confidence: str) -> None:
        self.count += 1
        if RANK.get(confidence, 2) < RANK.get(self.confidence, 2):
            self.confidence = confidence


@dataclass(slots=True)
class Projection:
    docs: dict[Key, DocRef]
    links: list[Link]
    total_nodes: int
    total_edges: int
    truncated: bool
    degree: dict[Key, int] = field(default_factory=dict)


def key_of(doc: DocRef) -> Key:
    return (doc.collection, doc.rel_path)


def merge(edges: Iterable[Edge], collection: str | None, all_docs: dict[Key, DocRef]) -> list[Link]:
    """Resolved links of ``collection`` (both ends in it) merged per (source, target, type),
    self-links left out; the documents they join are added to ``all_docs``."""
    merged: dict[tuple[Key, Key, str], Link] = {}
    for edge in edges:
        s, t = key_of(edge.source), key_of(edge.target)
        if s == t or (collection is not None and (s[0] != collection or t[0] != collection)):
            continue
        ident = (s, t, edge.link_type)
        link = merged.get(ident)
        if link is None:
            link = merged[ident] = Link(s, t, edge.link_type)
            all_docs.setdefault(s, edge.source)
            all_docs.setdefault(t, edge.target)
        link.add(edge.confidence)
    return list(merged.values())


def merge_graph(graph: LinkGraph) -> tuple[list[Link], dict[Key, DocRef]]:
    """``merge`` over the compact whole-graph read (``LinkStore.graph``): the same merged
    links, counted over positions instead of objects, and every document of the read."""
    keys = [(d.collection, d.rel_path) for d in graph.documents]
    rank = RANK.get
    merged: dict[tuple[int, int, str], list[int]] = {}
    for s, t, link_type, level in graph.edges:
        if s == t:
            continue
        found = merged.get((s, t, link_type))
        r = rank(level, 2)
        if found is None:
            merged[(s, t, link_type)] = [1, r]
        else:
            found[0] += 1
            found[1] = min(found[1], r)
    links = [
        Link(keys[s], keys[t], link_type, count, _BY_RANK[r])
        for (s, t, link_type), (count, r) in merged.items()
    ]
    return links, dict(zip(keys, graph.documents, strict=True))


def linked_docs(merged: list[Link], docs: dict[Key, DocRef]) -> dict[Key, DocRef]:
    keys = {link.source for link in merged} | {link.target for link in merged}
    return {k: docs[k] for k in keys}


def project(merged: list[Link], universe: dict[Key, DocRef], limits: GraphLimits) -> Projection:
    """Keep the ``limit`` highest-degree nodes (ties by URI order) and the ``edge_limit``
    heaviest links between them (ties by source, target)."""
    degree = degrees(merged)
    ordered = sorted(universe)
    # Positions in URI order stand in for the keys in the sorts: the same order, int compares.
    place = {k: i for i, k in enumerate(ordered)}
    keys = sorted(ordered, key=lambda k: -degree.get(k, 0))  # stable: ties stay in URI order
    kept = set(keys[: limits.limit])
    links = [link for link in merged if link.source in kept and link.target in kept]
    links.sort(key=lambda link: (-link.count, place[link.source], place[link.target], link.type))
    truncated = len(keys) > limits.limit or len(links) > limits.edge_limit
    links = links[: limits.edge_limit]
    docs = {k: universe[k] for k in ordered if k in kept}
    return Projection(
        docs=docs,
        links=links,
        total_nodes=len(universe),
        total_edges=len(merged),
        truncated=truncated,
        degree=degrees(links),
    )


def degrees(links: Iterable[Link]) -> dict[Key, int]:
    """Distinct graph links touching each document."""
    degree: dict[Key, int] = defaultdict(int)
    for link in links:
        degree[link.source] += 1
        degree[link.target] += 1
    return dict(degree)


@dataclass(frozen=True, slots=True)
class Communities:
    ids: dict[Key, str]
    #: (id, members) of every community of two or more nodes, largest first.
    listed: list[tuple[str, list[Key]]]


def communities(docs: dict[Key, DocRef], links: Iterable[Link]) -> Communities:
    order = sorted(docs)
    index = {k: i for i, k in enumerate(order)}
    neighbours: list[dict[int, int]] = [defaultdict(int) for _ in order]
    for link in links:
        a, b = index[link.source], index[link.target]
        neighbours[a][b] += link.count
        neighbours[b][a] += link.count
    near_of = [list(near.items()) for near in neighbours]
    labels = list(range(len(order)))
    # A node is visited again only when a neighbour's label changed since its last visit:
    # with its own label and its neighbours' the same, it would keep its label (the same
    # answer as visiting every node every round, for a fraction of the work).
    stale = [bool(near) for near in near_of]
    for _ in range(PROPAGATION_ROUNDS):
        changed = False
        for i, near in enumerate(near_of):
            if not stale[i]:
                continue
            stale[i] = False
            mine = labels[i]
            weight: dict[int, int] = {}
            for j, w in near:
                lab = labels[j]
                weight[lab] = weight.get(lab, 0) + w
            if len(weight) == 1:
                label = lab  # one label around: it wins unless it is already ours
            else:
                best = max(weight.values())
                label = min(lab for lab, w in weight.items() if w == best)
                if weight.get(mine, 0) >= best:
                    continue
            if label != mine:
                labels[i] = label
                changed = True
                for j, _ in near:
                    stale[j] = True
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
    return Communities(ids, listed)


def bridges(projection: Projection, community: dict[Key, str]) -> list[tuple[Key, int]]:
    """Nodes whose neighbours lie in several communities, with how many: removing them would
    cut a path between clusters, so they are where the graph is most fragile."""
    reach: dict[Key, set[str]] = defaultdict(set)
    for link in projection.links:
        reach[link.source].add(community[link.target])
        reach[link.target].add(community[link.source])
    spans = {k: len(s | {community[k]}) for k, s in reach.items()}
    ranked = sorted(
        (k for k, n in spans.items() if n >= 2),
        key=lambda k: (-spans[k], -projection.degree.get(k, 0), k),
    )[:REPORT_TOP]
    return [(k, spans[k]) for k in ranked]


def top(score: dict[Key, int], n: int = REPORT_TOP) -> list[Key]:
    return sorted((k for k, v in score.items() if v > 0), key=lambda k: (-score[k], k))[:n]


def stronger(a: Link, b: Link) -> Link:
    return (
        a if (RANK.get(a.confidence, 2), -a.count) <= (RANK.get(b.confidence, 2), -b.count) else b
    )


def edge_type(value: str) -> GraphEdgeType:
    return "markdown" if value == MARKDOWN else "wiki"


def confidence(value: str) -> GraphConfidence:
    if value == AMBIGUOUS:
        return "ambiguous"
    return "explicit" if value == EXPLICIT else "inferred"
