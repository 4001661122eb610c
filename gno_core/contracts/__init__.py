"""Wire contracts (pydantic models) shared by the CLI, MCP, REST and the Python API.

``SCHEMAS`` names every output contract with its version; ``contracts/`` holds the JSON Schemas
generated from it (``gno_core.contracts.schemas``), and a test fails when they drift.

Names are imported on first use (PEP 562): a pydantic class costs about a millisecond to
create, and a command that prints one contract should not build all sixty.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gno_core.contracts.base import WireModel
    from gno_core.contracts.clients import McpEntry, McpInstallResult, McpStatus, McpTargetStatus
    from gno_core.contracts.collections import (
        CollectionInfo,
        CollectionList,
        CollectionSyncResult,
        SyncFailure,
        SyncResult,
        TagCount,
        TagsList,
        TagsMeta,
    )
    from gno_core.contracts.document import (
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
    from gno_core.contracts.embedding import EmbedFailure, EmbedResult, IndexResult
    from gno_core.contracts.error import ErrorBody, ErrorEnvelope
    from gno_core.contracts.evidence import (
        AskResult,
        CapsuleVerification,
        ContextCapsule,
        QueryDiagnosis,
        SectionResult,
    )
    from gno_core.contracts.gateway import (
        HttpError,
        HttpErrorData,
        HttpErrorObject,
        ProcessStatus,
    )
    from gno_core.contracts.links import (
        Backlink,
        BacklinksMeta,
        BacklinksResult,
        LinkedDocument,
        LinkPosition,
        LinksMeta,
        LinksResult,
        LinkTotals,
        OutgoingLink,
    )
    from gno_core.contracts.models_list import ModelEntry, ModelsList
    from gno_core.contracts.search import (
        ConversionInfo,
        ExplainLine,
        SearchMeta,
        SearchResult,
        SearchResults,
        SnippetRange,
        SourceInfo,
    )
    from gno_core.contracts.similar import SimilarDocument, SimilarMeta, SimilarResults
    from gno_core.contracts.status import (
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
    from gno_core.contracts.writes import (
        AddCollectionResult,
        CaptureReceipt,
        CaptureSource,
        ClearEmbeddingsResult,
        FolderResult,
        JobList,
        JobProgress,
        JobStarted,
        JobStatus,
        RemoveResult,
        StepState,
        SyncToolResult,
    )

#: public name -> the module that defines it
_WHERE: dict[str, str] = {
    "WireModel": "gno_core.contracts.base",
    "McpEntry": "gno_core.contracts.clients",
    "McpInstallResult": "gno_core.contracts.clients",
    "McpStatus": "gno_core.contracts.clients",
    "McpTargetStatus": "gno_core.contracts.clients",
    "CollectionInfo": "gno_core.contracts.collections",
    "CollectionList": "gno_core.contracts.collections",
    "CollectionSyncResult": "gno_core.contracts.collections",
    "SyncFailure": "gno_core.contracts.collections",
    "SyncResult": "gno_core.contracts.collections",
    "TagCount": "gno_core.contracts.collections",
    "TagsList": "gno_core.contracts.collections",
    "TagsMeta": "gno_core.contracts.collections",
    "Capabilities": "gno_core.contracts.document",
    "DocumentList": "gno_core.contracts.document",
    "DocumentListMeta": "gno_core.contracts.document",
    "GetResult": "gno_core.contracts.document",
    "LineSpan": "gno_core.contracts.document",
    "ListedDocument": "gno_core.contracts.document",
    "MultiGetDocument": "gno_core.contracts.document",
    "MultiGetMeta": "gno_core.contracts.document",
    "MultiGetResult": "gno_core.contracts.document",
    "SkippedRef": "gno_core.contracts.document",
    "EmbedFailure": "gno_core.contracts.embedding",
    "EmbedResult": "gno_core.contracts.embedding",
    "IndexResult": "gno_core.contracts.embedding",
    "ErrorBody": "gno_core.contracts.error",
    "ContextCapsule": "gno_core.contracts.evidence",
    "CapsuleVerification": "gno_core.contracts.evidence",
    "SectionResult": "gno_core.contracts.evidence",
    "AskResult": "gno_core.contracts.evidence",
    "QueryDiagnosis": "gno_core.contracts.evidence",
    "ErrorEnvelope": "gno_core.contracts.error",
    "HttpError": "gno_core.contracts.gateway",
    "HttpErrorData": "gno_core.contracts.gateway",
    "HttpErrorObject": "gno_core.contracts.gateway",
    "ProcessStatus": "gno_core.contracts.gateway",
    "ModelEntry": "gno_core.contracts.models_list",
    "ModelsList": "gno_core.contracts.models_list",
    "ConversionInfo": "gno_core.contracts.search",
    "ExplainLine": "gno_core.contracts.search",
    "SearchMeta": "gno_core.contracts.search",
    "SearchResult": "gno_core.contracts.search",
    "SearchResults": "gno_core.contracts.search",
    "SnippetRange": "gno_core.contracts.search",
    "SourceInfo": "gno_core.contracts.search",
    "Backlink": "gno_core.contracts.links",
    "BacklinksMeta": "gno_core.contracts.links",
    "BacklinksResult": "gno_core.contracts.links",
    "LinkedDocument": "gno_core.contracts.links",
    "LinkPosition": "gno_core.contracts.links",
    "LinksMeta": "gno_core.contracts.links",
    "LinksResult": "gno_core.contracts.links",
    "LinkTotals": "gno_core.contracts.links",
    "OutgoingLink": "gno_core.contracts.links",
    "SimilarDocument": "gno_core.contracts.similar",
    "SimilarMeta": "gno_core.contracts.similar",
    "SimilarResults": "gno_core.contracts.similar",
    "ChunkingPolicy": "gno_core.contracts.status",
    "CollectionStatus": "gno_core.contracts.status",
    "IngestErrorInfo": "gno_core.contracts.status",
    "Peek": "gno_core.contracts.status",
    "PeekBacklog": "gno_core.contracts.status",
    "PeekCounts": "gno_core.contracts.status",
    "PeekRecent": "gno_core.contracts.status",
    "PeekServe": "gno_core.contracts.status",
    "ResidentAdmission": "gno_core.contracts.status",
    "ResidentStatus": "gno_core.contracts.status",
    "ResidentTransport": "gno_core.contracts.status",
    "Status": "gno_core.contracts.status",
    "StatusCapabilities": "gno_core.contracts.status",
    "AddCollectionResult": "gno_core.contracts.writes",
    "CaptureReceipt": "gno_core.contracts.writes",
    "CaptureSource": "gno_core.contracts.writes",
    "ClearEmbeddingsResult": "gno_core.contracts.writes",
    "FolderResult": "gno_core.contracts.writes",
    "JobList": "gno_core.contracts.writes",
    "JobProgress": "gno_core.contracts.writes",
    "JobStarted": "gno_core.contracts.writes",
    "JobStatus": "gno_core.contracts.writes",
    "RemoveResult": "gno_core.contracts.writes",
    "StepState": "gno_core.contracts.writes",
    "SyncToolResult": "gno_core.contracts.writes",
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
    "links": ("1.0", "LinksResult"),
    "backlinks": ("1.0", "BacklinksResult"),
    "mcp-http-error": ("1.0", "HttpError"),
    "process-status": ("1.0", "ProcessStatus"),
    "resident-status": ("1.0", "ResidentStatus"),
    "mcp-install": ("1.0", "McpInstallResult"),
    "mcp-status": ("1.0", "McpStatus"),
    "capture-receipt": ("1.0", "CaptureReceipt"),
    "mcp-capture-result": ("1.0", "CaptureReceipt"),
    "mcp-add-collection-result": ("1.0", "AddCollectionResult"),
    "mcp-remove-result": ("1.0", "RemoveResult"),
    "mcp-sync-result": ("1.0", "SyncToolResult"),
    "mcp-embed-result": ("1.0", "JobStarted"),
    "mcp-index-result": ("1.0", "JobStarted"),
    "mcp-job-status": ("1.0", "JobStatus"),
    "mcp-job-list": ("1.0", "JobList"),
    "context-capsule-v1": ("1.1", "ContextCapsule"),
    "context-capsule-verification": ("1.0", "CapsuleVerification"),
    "section": ("1.0", "SectionResult"),
    "query-diagnose": ("1.0", "QueryDiagnosis"),
    "ask": ("1.0", "AskResult"),
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
    "AddCollectionResult",
    "AskResult",
    "Backlink",
    "BacklinksMeta",
    "BacklinksResult",
    "Capabilities",
    "CapsuleVerification",
    "CaptureReceipt",
    "CaptureSource",
    "ChunkingPolicy",
    "ClearEmbeddingsResult",
    "CollectionInfo",
    "CollectionList",
    "CollectionStatus",
    "CollectionSyncResult",
    "ContextCapsule",
    "ConversionInfo",
    "DocumentList",
    "DocumentListMeta",
    "EmbedFailure",
    "EmbedResult",
    "ErrorBody",
    "ErrorEnvelope",
    "ExplainLine",
    "FolderResult",
    "GetResult",
    "HttpError",
    "HttpErrorData",
    "HttpErrorObject",
    "IndexResult",
    "IngestErrorInfo",
    "JobList",
    "JobProgress",
    "JobStarted",
    "JobStatus",
    "LineSpan",
    "LinkPosition",
    "LinkTotals",
    "LinkedDocument",
    "LinksMeta",
    "LinksResult",
    "ListedDocument",
    "McpEntry",
    "McpInstallResult",
    "McpStatus",
    "McpTargetStatus",
    "ModelEntry",
    "ModelsList",
    "MultiGetDocument",
    "MultiGetMeta",
    "MultiGetResult",
    "OutgoingLink",
    "Peek",
    "PeekBacklog",
    "PeekCounts",
    "PeekRecent",
    "PeekServe",
    "ProcessStatus",
    "QueryDiagnosis",
    "RemoveResult",
    "ResidentAdmission",
    "ResidentStatus",
    "ResidentTransport",
    "SearchMeta",
    "SearchResult",
    "SearchResults",
    "SectionResult",
    "SimilarDocument",
    "SimilarMeta",
    "SimilarResults",
    "SkippedRef",
    "SnippetRange",
    "SourceInfo",
    "Status",
    "StatusCapabilities",
    "StepState",
    "SyncFailure",
    "SyncResult",
    "SyncToolResult",
    "TagCount",
    "TagsList",
    "TagsMeta",
    "WireModel",
]
