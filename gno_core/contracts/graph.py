"""``graph@1.0`` (the link graph with its health report), ``graph-query@1.0`` (bounded typed
traversal from one document), and the neighbour and path reads over the graph projection
(``graph-neighbors@1.0``, ``graph-path@1.0``)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.links import RELATION_PATTERN, EdgeSource

GraphEdgeType = Literal["wiki", "markdown", "similar"]
GraphConfidence = Literal["explicit", "inferred", "ambiguous", "similarity"]
Direction = Literal["both", "out", "in"]
DOCID_PATTERN = r"^#[0-9a-f]{6,8}$"


class GraphNode(WireModel):
    id: str = Field(pattern=DOCID_PATTERN)
    uri: str
    title: str | None = None
    collection: str
    rel_path: str
    degree: int = Field(ge=0, description="Distinct graph links touching this node")
    community_id: str | None = None


class GraphLinkAudit(WireModel):
    resolution: Literal["resolved", "ambiguous", "similarity"]
    match_count: int = Field(ge=1, description="Source links merged into this graph link")


class GraphLink(WireModel):
    source: str = Field(pattern=DOCID_PATTERN)
    target: str = Field(pattern=DOCID_PATTERN)
    type: GraphEdgeType
    weight: int | float = Field(gt=0)
    confidence: GraphConfidence
    audit: GraphLinkAudit


class GraphNodeRef(WireModel):
    id: str = Field(pattern=DOCID_PATTERN)
    uri: str
    title: str | None = None
    degree: int = Field(ge=0)


class BridgeCandidate(GraphNodeRef):
    communities: int = Field(
        ge=2, description="Distinct communities among the node and its neighbours"
    )


class IsolatedNotes(WireModel):
    total: int = Field(ge=0)
    examples: list[str] = Field(description="URIs of the first isolated notes, in path order")


class UnresolvedLinks(WireModel):
    total: int = Field(ge=0)
    by_type: dict[str, int]


class GraphAudit(WireModel):
    resolved: int = Field(ge=0)
    ambiguous: int = Field(ge=0)
    unresolved: int = Field(ge=0)
    external: int = Field(ge=0)
    pending: int = Field(ge=0)


class Community(WireModel):
    id: str
    size: int = Field(ge=1)
    members: list[str] = Field(description="URIs of the community's highest-degree members")


class GraphReport(WireModel):
    hubs: list[GraphNodeRef]
    bridge_candidates: list[BridgeCandidate]
    isolated: IsolatedNotes
    unresolved_links: UnresolvedLinks
    edge_types: dict[str, int]
    edge_confidence: dict[str, int]
    audit: GraphAudit
    communities: list[Community]
    total_communities: int = Field(ge=0)


class _ProjectionSize(WireModel):
    """The first fields of a projection's ``meta``: its collection (an explicit null for all),
    its limits and its totals (``graph`` and ``graph neighbors``)."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"collection"})

    collection: str | None
    node_limit: int = Field(ge=1)
    edge_limit: int = Field(ge=1)
    total_nodes: int = Field(ge=0)
    total_edges: int = Field(ge=0)


class GraphMeta(_ProjectionSize):
    total_edges_unresolved: int = Field(ge=0)
    returned_nodes: int = Field(ge=0)
    returned_edges: int = Field(ge=0)
    truncated: bool
    linked_only: bool
    included_similar: bool
    similar_available: bool
    similar_top_k: int = Field(ge=1)
    similar_truncated_by_compute_budget: bool = False
    warnings: list[str] = Field(default_factory=list)


class GraphResult(WireModel):
    nodes: list[GraphNode]
    links: list[GraphLink]
    report: GraphReport
    meta: GraphMeta


class GraphDocument(WireModel):
    id: str = Field(pattern=DOCID_PATTERN)
    uri: str
    title: str | None = None
    collection: str
    rel_path: str


class GraphHints(WireModel):
    in_degree: int = Field(ge=0)
    out_degree: int = Field(ge=0)


class GraphQueryNode(GraphDocument):
    depth: int = Field(ge=0)
    graph_hints: GraphHints


class GraphQueryEdge(WireModel):
    source: str = Field(pattern=DOCID_PATTERN)
    target: str = Field(pattern=DOCID_PATTERN)
    edge_type: str = Field(pattern=RELATION_PATTERN)
    relation_type: Literal["link", "embed", "frontmatter"]
    confidence: Literal["parsed", "configured", "manual", "inferred"]
    edge_source: EdgeSource
    depth: int = Field(ge=1)


class GraphQueryMeta(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"edge_type"})

    direction: Direction
    edge_type: str | None
    max_depth: int = Field(ge=1)
    max_nodes: int = Field(ge=1)
    frontier_limit: int = Field(ge=1)
    visited_limit: int = Field(ge=1)
    returned_nodes: int = Field(ge=0)
    returned_edges: int = Field(ge=0)
    visited_nodes: int = Field(ge=0)
    truncated: bool
    truncated_by: list[Literal["maxNodes", "frontierLimit", "visitedLimit", "maxDepth"]]
    warnings: list[str] = Field(default_factory=list)


class GraphQueryResult(WireModel):
    schema_version: Literal["1.0"] = "1.0"
    root: GraphDocument
    nodes: list[GraphQueryNode]
    edges: list[GraphQueryEdge]
    meta: GraphQueryMeta


class GraphNeighbor(WireModel):
    node: GraphNode
    direction: Literal["in", "out", "both"]
    type: GraphEdgeType
    weight: int | float = Field(gt=0)
    confidence: GraphConfidence


class ProjectionMeta(_ProjectionSize):
    truncated: bool = Field(description="The projection searched was cut by a node or edge limit")


class GraphNeighborsMeta(ProjectionMeta):
    direction: Direction
    total_neighbors: int = Field(ge=0)


class GraphNeighborsResult(WireModel):
    root: GraphDocument
    neighbors: list[GraphNeighbor]
    meta: GraphNeighborsMeta


class GraphPathStep(WireModel):
    source: str = Field(pattern=DOCID_PATTERN)
    target: str = Field(pattern=DOCID_PATTERN)
    type: GraphEdgeType
    confidence: GraphConfidence
    forward: bool = Field(description="The link runs from the earlier to the later path node")


class GraphPathMeta(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"collection"})

    collection: str | None
    node_limit: int = Field(ge=1, description="Nodes each side of the search may reach")
    edge_limit: int = Field(ge=1, description="Links the search may read")
    visited_nodes: int = Field(ge=0)
    read_edges: int = Field(ge=0)
    truncated: bool = Field(description="A limit stopped the search before it was complete")
    max_depth: int = Field(ge=1)


class GraphPathResult(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"hops"})

    source: GraphDocument = Field(alias="from")
    target: GraphDocument = Field(alias="to")
    found: bool
    hops: int | None = Field(ge=0)
    path: list[GraphDocument]
    steps: list[GraphPathStep]
    meta: GraphPathMeta
