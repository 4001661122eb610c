"""Request models of the integrity room: ``ImpactRequest`` (``Gno.impact``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gno_core.contracts.fields import Cli
from gno_core.contracts.search_request import DocRef, Request

__all__ = ["AuditRequest", "ImpactRequest"]


class ImpactRequest(Request):
    """What depends on one document: inbound traversal over backlinks and typed edges
    (``Gno.impact``)."""

    ref: Annotated[
        DocRef, Cli(help="gno:// URI, collection/path, #docid, or a relPath or exact title")
    ]
    max_depth: Annotated[int, Cli(help="links away from the document (1-6, default 3)")] = Field(
        default=3, ge=1, le=6, description="Maximum depth (1-6)"
    )
    max_nodes: Annotated[int, Cli(help="documents listed (1-1000, default 100)")] = Field(
        default=100, ge=1, le=1000, description="Maximum impacted documents (1-1000)"
    )
    max_edges: Annotated[int, Cli(help="inbound links read (1-10000, default 1000)")] = Field(
        default=1000, ge=1, le=10000, description="Maximum inbound links read (1-10000)"
    )
    frontier_limit: Annotated[int, Cli(help="documents expanded per depth (default 100)")] = Field(
        default=100, ge=1, le=1000, description="Maximum documents expanded per depth (1-1000)"
    )
    visited_limit: Annotated[int, Cli(help="documents visited (default 500)")] = Field(
        default=500, ge=1, le=5000, description="Maximum documents visited (1-5000)"
    )


class AuditRequest(Request):
    """The knowledge audit (``Gno.audit``): read-only and offline."""

    category: Annotated[
        Literal["links", "provenance", "freshness", "all"],
        Cli(skip=True),  # the CLI takes it as a positional word,
    ] = Field(default="all", description="Rule group to run: links, provenance, freshness or all")
    collection: Annotated[str | None, Cli(help="audit one collection")] = Field(
        default=None, description="Audit one collection only"
    )
    path: Annotated[str | None, Cli(help="audit documents under this path prefix")] = Field(
        default=None, max_length=1024, description="Audit documents under this relative-path prefix"
    )
    tag: Annotated[str | None, Cli(help="audit documents with this tag")] = Field(
        default=None, max_length=256, description="Audit documents with this tag"
    )
    max_findings: Annotated[int, Cli(help="findings listed (1-1000, default 100)")] = Field(
        default=100,
        ge=1,
        le=1000,
        description="Findings returned at most (1-1000); totals stay exact",
    )
    max_age_days: Annotated[int | None, Cli(help="flag notes older than N days")] = Field(
        default=None, ge=1, le=36500, description="Flag documents older than this many days"
    )
    orphan_roots: Annotated[
        list[str] | None,
        Cli(flags=("--orphan-root",), repeat=True, help="an entry note (repeatable)"),
    ] = Field(
        default=None,
        max_length=64,
        description="Entry documents: an orphan is then a document none of them reaches",
    )
    orphan_ignore_prefixes: Annotated[
        list[str] | None,
        Cli(
            flags=("--orphan-ignore-prefix",),
            repeat=True,
            help="a path prefix never an orphan (repeatable)",
        ),
    ] = Field(
        default=None, max_length=64, description="Relative-path prefixes never reported as orphans"
    )
