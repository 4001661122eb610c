"""The whole link graph and its health report (``gno_graph``): the projection's nodes and
merged links, hubs, bridge candidates, isolated notes, unresolved links, edge types,
confidence counts and communities."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gno_core.contracts.base import Prebuilt
from gno_core.contracts.graph import (
    BridgeCandidate,
    Community,
    GraphAudit,
    GraphLink,
    GraphLinkAudit,
    GraphMeta,
    GraphNode,
    GraphNodeRef,
    GraphReport,
    GraphResult,
    IsolatedNotes,
    UnresolvedLinks,
)
from gno_core.domain import AMBIGUOUS, DocRef
from gno_core.identity import make_docid, make_uri
from gno_core.index_handle import IndexHandle
from gno_core.links.graph_projection import (
    REPORT_TOP,
    GraphLimits,
    Key,
    Link,
    Projection,
    bridges,
    confidence,
    edge_type,
    linked_docs,
    project,
    top,
)
from gno_core.links.graph_projection import communities as find_communities
from gno_core.links.similar_edges import SimilarEdges, similar_edges

if TYPE_CHECKING:
    from gno_core.ports.embedder import Embedder

__all__ = ["doc_uri", "whole_graph"]

COMMUNITY_MEMBERS = 5
COMMUNITIES_LISTED = 20
#: Unresolved links counted by type (the total is exact whatever this is).
UNRESOLVED_SCAN = 100_000


def whole_graph(
    handle: IndexHandle,
    limits: GraphLimits,
    collection: str | None,
    merged: list[Link],
    all_docs: dict[Key, DocRef],
    embedder: Callable[[], Embedder | None] = lambda: None,
) -> Prebuilt[GraphResult]:
    """The answer of ``gno_graph`` over ``merged`` (the resolved links of ``collection``) and
    ``all_docs`` (its documents); ``embedder`` is asked for only when similar edges are."""
    linked = linked_docs(merged, all_docs)
    universe = linked if limits.linked_only else {**all_docs, **linked}
    projection = project(merged, universe, limits)
    communities = find_communities(projection.docs, projection.links)
    degree = projection.degree
    # Nodes and links built straight in the wire form: a graph has tens of thousands of
    # links, and a model per item (validated, then serialised) cost more than the graph
    # algorithms. The small parts (report, meta) are models.
    ids = {key: make_docid(doc.source_hash) for key, doc in projection.docs.items()}
    nodes = _wire_nodes(handle.name, projection, ids, communities.ids)
    links = _wire_links(projection.links, ids)
    counts = handle.index.links.counts(collection)
    similar = SimilarEdges()
    if limits.include_similar:
        similar = similar_edges(
            handle.index, embedder(), projection.docs, ids,
            threshold=limits.threshold, top_k=limits.similar_top_k,
            room=limits.edge_limit - len(links),
        )  # fmt: skip
        links.extend(similar.links)
    warnings = similar.warnings
    isolated = [all_docs[k] for k in sorted(all_docs) if k not in linked]
    report = GraphReport(
        hubs=[_ref(handle.name, k, projection.docs[k], degree) for k in top(degree)],
        bridge_candidates=_bridges(handle.name, projection, communities.ids),
        isolated=IsolatedNotes(
            total=len(isolated), examples=[doc_uri(handle.name, d) for d in isolated[:REPORT_TOP]]
        ),
        unresolved_links=_unresolved(handle, collection, counts.unresolved),
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
                    doc_uri(handle.name, projection.docs[k])
                    for k in top({m: degree.get(m, 0) for m in members}, COMMUNITY_MEMBERS)
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
        included_similar=bool(similar.links),
        similar_available=similar.available,
        similar_top_k=limits.similar_top_k,
        similar_truncated_by_compute_budget=similar.truncated_by_budget,
        warnings=warnings,
    )
    return Prebuilt(
        GraphResult,
        {"nodes": nodes, "links": links, "report": report.wire(), "meta": meta.wire()},
        _graph_model,
    )


def _graph_model(wire: dict[str, Any]) -> GraphResult:
    """The models of a ``whole_graph`` answer: its nodes and links (built above from the store,
    tens of thousands) made without validation, the report and meta validated."""
    nodes = [
        GraphNode.trusted(
            {
                "id": n["id"],
                "uri": n["uri"],
                "title": n.get("title"),
                "collection": n["collection"],
                "rel_path": n["relPath"],
                "degree": n["degree"],
                "community_id": n.get("communityId"),
            }
        )
        for n in wire["nodes"]
    ]
    links = [
        GraphLink.trusted(
            {
                "source": k["source"],
                "target": k["target"],
                "type": k["type"],
                "weight": k["weight"],
                "confidence": k["confidence"],
                "audit": GraphLinkAudit.trusted(
                    {
                        "resolution": k["audit"]["resolution"],
                        "match_count": k["audit"]["matchCount"],
                    }
                ),
            }
        )
        for k in wire["links"]
    ]
    return GraphResult.trusted(
        {
            "nodes": nodes,
            "links": links,
            "report": GraphReport.model_validate(wire["report"]),
            "meta": GraphMeta.model_validate(wire["meta"]),
        }
    )


def _wire_nodes(
    index: str, projection: Projection, ids: dict[Key, str], community: dict[Key, str]
) -> list[dict[str, object]]:
    """``GraphNode``s in their wire form (field order, no ``None`` title)."""
    degree = projection.degree.get
    nodes: list[dict[str, object]] = []
    for key, doc in projection.docs.items():
        node: dict[str, object] = {"id": ids[key], "uri": make_uri(key[0], key[1], index)}
        if doc.title is not None:
            node["title"] = doc.title
        node["collection"] = key[0]
        node["relPath"] = key[1]
        node["degree"] = degree(key, 0)
        node["communityId"] = community[key]
        nodes.append(node)
    return nodes


def _wire_links(merged: list[Link], ids: dict[Key, str]) -> list[dict[str, object]]:
    """``GraphLink``s in their wire form. What links share is built once: types, confidence
    names and audit records repeat (an audit dict is shared by the links it describes)."""
    kinds: dict[str, str] = {}
    audits: dict[tuple[str, int], tuple[str, dict[str, object]]] = {}
    links: list[dict[str, object]] = []
    for link in merged:
        kind = kinds.get(link.type)
        if kind is None:
            kind = kinds[link.type] = edge_type(link.type)
        shared = audits.get((link.confidence, link.count))
        if shared is None:
            resolution = "ambiguous" if link.confidence == AMBIGUOUS else "resolved"
            shared = audits[(link.confidence, link.count)] = (
                confidence(link.confidence),
                {"resolution": resolution, "matchCount": link.count},
            )
        links.append(
            {
                "source": ids[link.source],
                "target": ids[link.target],
                "type": kind,
                "weight": link.count,
                "confidence": shared[0],
                "audit": shared[1],
            }
        )
    return links


def doc_uri(index: str, doc: DocRef) -> str:
    return make_uri(doc.collection, doc.rel_path, index)


def _ref(index: str, key: Key, doc: DocRef, degree: dict[Key, int]) -> GraphNodeRef:
    return GraphNodeRef(
        id=make_docid(doc.source_hash),
        uri=doc_uri(index, doc),
        title=doc.title,
        degree=degree.get(key, 0),
    )


def _bridges(
    index: str, projection: Projection, community: dict[Key, str]
) -> list[BridgeCandidate]:
    return [
        BridgeCandidate(
            **_ref(index, k, projection.docs[k], projection.degree).model_dump(),
            communities=span,
        )
        for k, span in bridges(projection, community)
    ]


def _unresolved(handle: IndexHandle, collection: str | None, total: int) -> UnresolvedLinks:
    by_type: dict[str, int] = defaultdict(int)
    for record in handle.index.links.unresolved(collection, limit=UNRESOLVED_SCAN):
        by_type[edge_type(record.link.link_type)] += 1
    return UnresolvedLinks(total=total, by_type=dict(sorted(by_type.items())))
