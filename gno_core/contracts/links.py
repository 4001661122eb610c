"""``links@1.0`` (a document's outgoing links) and ``backlinks@1.0`` (the links to it), and the
link totals of ``status@1.0``."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

LinkType = Literal["wiki", "markdown"]
EdgeSource = Literal["wikilink", "markdown-link", "frontmatter-relation"]
Confidence = Literal["explicit", "inferred", "ambiguous"]
Resolution = Literal["resolved", "ambiguous", "unresolved", "external", "pending"]
#: Edge types are snake_case: ``links_to``, ``embeds`` or a frontmatter key (``works_at``).
RELATION_PATTERN = r"^[^\W_](?:\w*[^\W_])?$"


class LinkPosition(WireModel):
    """1-based line and column in the canonical mirror (as ``gno get`` numbers lines); the end
    column is that of the link's last character."""

    start_line: int = Field(ge=1)
    start_col: int = Field(ge=1)
    end_line: int | None = Field(default=None, ge=1)
    end_col: int | None = Field(default=None, ge=1)


class LinkedDocument(WireModel):
    """A document a link resolves to."""

    docid: str = Field(pattern=r"^#[0-9a-f]{6,8}$")
    uri: str
    title: str | None = None
    confidence: Confidence
    method: str


class OutgoingLink(WireModel):
    target_ref: str
    target_anchor: str | None = None
    target_collection: str | None = None
    link_type: LinkType
    link_text: str | None = None
    position: LinkPosition
    edge_source: EdgeSource
    relation: str = Field(pattern=RELATION_PATTERN)
    embed: bool = False
    external: bool = False
    resolution: Resolution
    confidence: Confidence | None = None
    targets: list[LinkedDocument] = Field(default_factory=list)


class LinksMeta(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"title", "filter_type"})

    docid: str
    uri: str
    title: str | None
    total_links: int = Field(ge=0)
    filter_type: LinkType | None
    unresolved_links: int = Field(default=0, ge=0)


class LinksResult(WireModel):
    links: list[OutgoingLink]
    meta: LinksMeta


class Backlink(WireModel):
    source_doc_uri: str
    source_docid: str = Field(pattern=r"^#[0-9a-f]{6,8}$")
    source_doc_title: str | None = None
    link_text: str | None = None
    link_type: LinkType
    edge_source: EdgeSource
    relation: str = Field(pattern=RELATION_PATTERN)
    target_anchor: str | None = None
    position: LinkPosition
    confidence: Confidence
    context: str = Field(description="The source line around the mention (at most ~160 chars)")


class BacklinksMeta(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"title", "filter_collection"})

    docid: str
    uri: str
    title: str | None
    total_backlinks: int = Field(ge=0)
    filter_collection: str | None


class BacklinksResult(WireModel):
    backlinks: list[Backlink]
    meta: BacklinksMeta


class LinkTotals(WireModel):
    """Links of active documents: by resolution, resolved ones by edge type and confidence."""

    total: int = Field(ge=0)
    resolved: int = Field(ge=0)
    ambiguous: int = Field(ge=0)
    unresolved: int = Field(ge=0)
    external: int = Field(ge=0)
    pending: int = Field(ge=0)
    edge_types: dict[str, int]
    confidence: dict[str, int]
