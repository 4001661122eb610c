"""Wire contracts (pydantic models) shared by the CLI, MCP, REST and the Python API.

``SCHEMAS`` names every output contract with its version; ``contracts/`` holds the JSON Schemas
generated from it (``gno_core.model.schemas``), and a test fails when they drift.

Names are imported on first use (PEP 562): a pydantic class costs about a millisecond to
create, and a command that prints one contract should not build all sixty.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: public name -> the module that defines it
_WHERE: dict[str, str] = {
    "WireModel": "gno_core.model.base",
    "CollectionInfo": "gno_core.model.collections",
    "CollectionList": "gno_core.model.collections",
    "CollectionSyncResult": "gno_core.model.collections",
    "SyncFailure": "gno_core.model.collections",
    "SyncResult": "gno_core.model.collections",
    "TagCount": "gno_core.model.collections",
    "TagsList": "gno_core.model.collections",
    "TagsMeta": "gno_core.model.collections",
    "Capabilities": "gno_core.model.document",
    "DocumentList": "gno_core.model.document",
    "DocumentListMeta": "gno_core.model.document",
    "GetResult": "gno_core.model.document",
    "LineSpan": "gno_core.model.document",
    "ListedDocument": "gno_core.model.document",
    "MultiGetDocument": "gno_core.model.document",
    "MultiGetMeta": "gno_core.model.document",
    "MultiGetResult": "gno_core.model.document",
    "SkippedRef": "gno_core.model.document",
    "EmbedFailure": "gno_core.model.embedding",
    "EmbedResult": "gno_core.model.embedding",
    "IndexResult": "gno_core.model.embedding",
    "ErrorBody": "gno_core.model.error",
    "ErrorEnvelope": "gno_core.model.error",
    "HttpError": "gno_core.model.gateway",
    "HttpErrorData": "gno_core.model.gateway",
    "HttpErrorObject": "gno_core.model.gateway",
    "ProcessStatus": "gno_core.model.gateway",
    "ModelEntry": "gno_core.model.models_list",
    "ModelsList": "gno_core.model.models_list",
    "ConversionInfo": "gno_core.model.search",
    "ExplainLine": "gno_core.model.search",
    "SearchMeta": "gno_core.model.search",
    "SearchResult": "gno_core.model.search",
    "SearchResults": "gno_core.model.search",
    "SnippetRange": "gno_core.model.search",
    "SourceInfo": "gno_core.model.search",
    "SimilarDocument": "gno_core.model.similar",
    "SimilarMeta": "gno_core.model.similar",
    "SimilarResults": "gno_core.model.similar",
    "ChunkingPolicy": "gno_core.model.status",
    "CollectionStatus": "gno_core.model.status",
    "IngestErrorInfo": "gno_core.model.status",
    "Peek": "gno_core.model.status",
    "PeekBacklog": "gno_core.model.status",
    "PeekCounts": "gno_core.model.status",
    "PeekRecent": "gno_core.model.status",
    "PeekServe": "gno_core.model.status",
    "ResidentAdmission": "gno_core.model.status",
    "ResidentStatus": "gno_core.model.status",
    "ResidentTransport": "gno_core.model.status",
    "Status": "gno_core.model.status",
    "StatusCapabilities": "gno_core.model.status",
}

#: schema name -> (version, model name). Names and versions are wire contracts: add, never rename.
_SCHEMA_NAMES: dict[str, tuple[str, str]] = {
    "search-result": ("1.0", "SearchResult"),
    "search-results": ("1.0", "SearchResults"),
    "get": ("1.0", "GetResult"),
    "multi-get": ("1.0", "MultiGetResult"),
    "ls": ("1.0", "DocumentList"),
    "status": ("1.0", "Status"),
    "peek": ("1.0", "Peek"),
    "tags-list": ("1.0", "TagsList"),
    "collection-list": ("1.0", "CollectionList"),
    "sync-result": ("1.0", "SyncResult"),
    "error": ("1.0", "ErrorEnvelope"),
    "models-list": ("1.0", "ModelsList"),
    "embed-result": ("1.0", "EmbedResult"),
    "index-result": ("1.0", "IndexResult"),
    "similar": ("1.0", "SimilarResults"),
    "mcp-http-error": ("1.0", "HttpError"),
    "process-status": ("1.0", "ProcessStatus"),
    "resident-status": ("1.0", "ResidentStatus"),
}


def __getattr__(name: str) -> Any:
    if name == "SCHEMAS":
        # schema name -> (version, model), built (and every contract imported) on first use.
        schemas = {
            key: (version, __getattr__(model)) for key, (version, model) in _SCHEMA_NAMES.items()
        }
        globals()["SCHEMAS"] = schemas
        return schemas
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    SCHEMAS: dict[str, tuple[str, type[WireModel]]]

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
