"""Request models of the integrity room: ``ImpactRequest`` (``Gno.impact``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gno_core.contracts.fields import Cli
from gno_core.contracts.search_request import DocRef, Request

__all__ = ["ImpactRequest"]


class ImpactRequest(Request):
    """What depends on one document: inbound traversal over backlinks and typed edges
    (``Gno.impact``)."""

    ref: Annotated[
        DocRef, Cli(help="gno:// URI, collection/path, #docid, or a relPath or exact title")
    ]
    max_depth: int = Field(default=3, ge=1, le=6, description="Maximum depth (1-6)")
    max_nodes: int = Field(
        default=100, ge=1, le=1000, description="Maximum impacted documents (1-1000)"
    )
    max_edges: int = Field(
        default=1000, ge=1, le=10000, description="Maximum inbound links read (1-10000)"
    )
    frontier_limit: int = Field(
        default=100, ge=1, le=1000, description="Maximum documents expanded per depth (1-1000)"
    )
    visited_limit: int = Field(
        default=500, ge=1, le=5000, description="Maximum documents visited (1-5000)"
    )
