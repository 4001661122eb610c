"""Document read contracts: ``get@1.0``, ``multi-get@1.0`` and the ``ls`` listing."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.search import ConversionInfo, CoordinateSpace, SourceInfo


class LineSpan(WireModel):
    start: int = Field(ge=1)
    end: int = Field(ge=0)


class Capabilities(WireModel):
    editable: bool
    tags_editable: bool
    tags_writeback: bool
    can_create_editable_copy: bool
    mode: Literal["editable", "read_only"]
    reason: str | None = None


class GetResult(WireModel):
    docid: str
    uri: str
    title: str | None = None
    content: str
    total_lines: int = Field(ge=0)
    returned_lines: LineSpan | None = None
    #: ``source``: line N is line N of the file on disk (Markdown, text); ``canonical_mirror``:
    #: lines of the Markdown a converter made of the file (PDF, DOCX, ...).
    coordinate_space: CoordinateSpace = "source"
    language: str | None = None
    source: SourceInfo
    conversion: ConversionInfo | None = None
    capabilities: Capabilities
    tags: list[str] | None = None


class MultiGetDocument(WireModel):
    docid: str
    uri: str
    title: str | None = None
    content: str
    truncated: bool
    total_lines: int = Field(ge=0)
    coordinate_space: CoordinateSpace = "source"
    source: SourceInfo


SkipReason = Literal[
    "not_found", "exceeds_maxBytes", "permission_denied", "conversion_error", "invalid_ref"
]


class SkippedRef(WireModel):
    ref: str
    reason: SkipReason
    message: str | None = None


class MultiGetMeta(WireModel):
    requested: int = Field(ge=0)
    returned: int = Field(ge=0)
    skipped: int = Field(ge=0)
    max_bytes: int | None = None


class MultiGetResult(WireModel):
    documents: list[MultiGetDocument]
    skipped: list[SkippedRef]
    meta: MultiGetMeta


class ListedDocument(WireModel):
    docid: str
    uri: str
    title: str | None = None
    source: str


class DocumentListMeta(WireModel):
    total: int = Field(ge=0)
    returned: int = Field(ge=0)
    collection: str | None = None
    prefix: str | None = None


class DocumentList(WireModel):
    documents: list[ListedDocument]
    meta: DocumentListMeta
