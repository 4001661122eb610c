"""Wire contracts (pydantic models) shared by the CLI, MCP, REST and the Python API.

``SCHEMAS`` names every output contract with its version; ``contracts/`` holds the JSON Schemas
generated from it (``gno_core.model.schemas``), and a test fails when they drift.
"""

from __future__ import annotations

from gno_core.model.base import WireModel
from gno_core.model.collections import (
    CollectionInfo,
    CollectionList,
    CollectionSyncResult,
    SyncFailure,
    SyncResult,
    TagCount,
    TagsList,
    TagsMeta,
)
from gno_core.model.document import (
    Capabilities,
    DocumentList,
    DocumentListMeta,
    GetResult,
    LineSpan,
    ListedDocument,
    MultiGetDocument,
    MultiGetMeta,
    MultiGetResult,
    SkippedRef,
)
from gno_core.model.embedding import EmbedFailure, EmbedResult, IndexResult
from gno_core.model.error import ErrorBody, ErrorEnvelope
from gno_core.model.gateway import (
    HttpError,
    HttpErrorData,
    HttpErrorObject,
    ProcessStatus,
)
from gno_core.model.models_list import ModelEntry, ModelsList
from gno_core.model.search import (
    ConversionInfo,
    ExplainLine,
    SearchMeta,
    SearchResult,
    SearchResults,
    SnippetRange,
    SourceInfo,
)
from gno_core.model.similar import SimilarDocument, SimilarMeta, SimilarResults
from gno_core.model.status import (
    ChunkingPolicy,
    CollectionStatus,
    IngestErrorInfo,
    Peek,
    PeekBacklog,
    PeekCounts,
    PeekRecent,
    PeekServe,
    ResidentAdmission,
    ResidentStatus,
    ResidentTransport,
    Status,
    StatusCapabilities,
)

#: schema name -> (version, model). Names and versions are wire contracts: add, never rename.
SCHEMAS: dict[str, tuple[str, type[WireModel]]] = {
    "search-result": ("1.0", SearchResult),
    "search-results": ("1.0", SearchResults),
    "get": ("1.0", GetResult),
    "multi-get": ("1.0", MultiGetResult),
    "ls": ("1.0", DocumentList),
    "status": ("1.0", Status),
    "peek": ("1.0", Peek),
    "tags-list": ("1.0", TagsList),
    "collection-list": ("1.0", CollectionList),
    "sync-result": ("1.0", SyncResult),
    "error": ("1.0", ErrorEnvelope),
    "models-list": ("1.0", ModelsList),
    "embed-result": ("1.0", EmbedResult),
    "index-result": ("1.0", IndexResult),
    "similar": ("1.0", SimilarResults),
    "mcp-http-error": ("1.0", HttpError),
    "process-status": ("1.0", ProcessStatus),
    "resident-status": ("1.0", ResidentStatus),
}

__all__ = [
    "SCHEMAS",
    "Capabilities",
    "ChunkingPolicy",
    "CollectionInfo",
    "CollectionList",
    "CollectionStatus",
    "CollectionSyncResult",
    "ConversionInfo",
    "DocumentList",
    "DocumentListMeta",
    "EmbedFailure",
    "EmbedResult",
    "ErrorBody",
    "ErrorEnvelope",
    "ExplainLine",
    "GetResult",
    "HttpError",
    "HttpErrorData",
    "HttpErrorObject",
    "IndexResult",
    "IngestErrorInfo",
    "LineSpan",
    "ListedDocument",
    "ModelEntry",
    "ModelsList",
    "MultiGetDocument",
    "MultiGetMeta",
    "MultiGetResult",
    "Peek",
    "PeekBacklog",
    "PeekCounts",
    "PeekRecent",
    "PeekServe",
    "ProcessStatus",
    "ResidentAdmission",
    "ResidentStatus",
    "ResidentTransport",
    "SearchMeta",
    "SearchResult",
    "SearchResults",
    "SimilarDocument",
    "SimilarMeta",
    "SimilarResults",
    "SkippedRef",
    "SnippetRange",
    "SourceInfo",
    "Status",
    "StatusCapabilities",
    "SyncFailure",
    "SyncResult",
    "TagCount",
    "TagsList",
    "TagsMeta",
    "WireModel",
]
