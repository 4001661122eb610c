"""``impact@1.0``: what depends on a document. The documents that reach it by inbound links
(backlinks: wiki and Markdown links, embeds) and typed frontmatter edges, each with its depth
and one deterministic evidence path to the root, under explicit caps."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.graph import DOCID_PATTERN, GraphDocument
from gno_core.contracts.links import RELATION_PATTERN, EdgeSource

ImpactCap = Literal["maxDepth", "maxNodes", "maxEdges", "frontierLimit", "visitedLimit"]


class ImpactStep(WireModel):
    """One link of an evidence path: ``source`` links to ``target`` (one hop nearer the root)."""

    source: str = Field(pattern=DOCID_PATTERN)
    source_uri: str
    target: str = Field(pattern=DOCID_PATTERN)
    target_uri: str
    projection: Literal["backlink", "typed"] = Field(
        description="backlink: a link or embed in the body; typed: a frontmatter relation"
    )
    edge_type: str = Field(pattern=RELATION_PATTERN)
    link_type: str
    edge_source: EdgeSource
    confidence: Literal["explicit", "inferred", "ambiguous"]


class ImpactedDocument(WireModel):
    document: GraphDocument
    depth: int = Field(ge=1, description="Links between this document and the root")
    evidence_path: list[ImpactStep] = Field(
        min_length=1,
        description="From this document to the root, one step per hop (depth steps); the "
        "surest link first, then path order, so the same index gives the same path",
    )


class ImpactMeta(WireModel):
    max_depth: int = Field(ge=1)
    max_nodes: int = Field(ge=1)
    max_edges: int = Field(ge=1)
    frontier_limit: int = Field(ge=1)
    visited_limit: int = Field(ge=1)
    returned_nodes: int = Field(ge=0, description="Impacted documents listed")
    returned_edges: int = Field(ge=0, description="Inbound links read by the traversal")
    visited_nodes: int = Field(ge=0, description="Documents reached, the root included")
    truncated: bool = Field(description="A cap stopped the traversal: more may depend on it")
    truncated_by: list[ImpactCap]
    warnings: list[str] = Field(default_factory=list)


class ImpactResult(WireModel):
    schema_version: Literal["1.0"] = "1.0"
    root: GraphDocument
    impacted: list[ImpactedDocument]
    meta: ImpactMeta
