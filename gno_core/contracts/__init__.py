"""Wire contracts (pydantic models) shared by the CLI, MCP, REST and the Python API.

``SCHEMAS`` names every output contract with its version; ``contracts/`` holds the JSON Schemas
generated from it (``gno_core.contracts.schemas``), and a test fails when they drift.

Names are imported on first use (PEP 562): a pydantic class costs about a millisecond to
create, and a command that prints one contract should not build all sixty.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gno_core.contracts.catalogue import SCHEMA_NAMES, WHERE

if TYPE_CHECKING:
    from gno_core.contracts.ask import AskResult
    from gno_core.contracts.audit import (
        AuditCounts,
        AuditEvidence,
        AuditFinding,
        AuditFingerprints,
        AuditLocation,
        AuditPolicy,
        AuditReport,
        AuditRule,
        AuditScope,
        AuditSubject,
        AuditTiming,
        AuditTruncation,
        AuditVersions,
    )
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
        CapsuleVerification,
        ContextCapsule,
        QueryDiagnosis,
        SectionResult,
    )
    from gno_core.contracts.gateway import (
        ApiIndex,
        ApiRoute,
        HttpError,
        HttpErrorData,
        HttpErrorObject,
        ProcessStatus,
    )
    from gno_core.contracts.graph import (
        BridgeCandidate,
        Community,
        GraphAudit,
        GraphDocument,
        GraphHints,
        GraphLink,
        GraphLinkAudit,
        GraphMeta,
        GraphNeighbor,
        GraphNeighborsMeta,
        GraphNeighborsResult,
        GraphNode,
        GraphNodeRef,
        GraphPathMeta,
        GraphPathResult,
        GraphPathStep,
        GraphQueryEdge,
        GraphQueryMeta,
        GraphQueryNode,
        GraphQueryResult,
        GraphReport,
        GraphResult,
        IsolatedNotes,
        ProjectionMeta,
        UnresolvedLinks,
    )
    from gno_core.contracts.impact import (
        ImpactedDocument,
        ImpactMeta,
        ImpactResult,
        ImpactStep,
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
    from gno_core.contracts.memory import (
        FactView,
        MemoryCandidate,
        MemoryMatching,
        MemorySync,
        RecallBudget,
        RecalledFact,
        RecallReceipt,
        RecallResult,
        RecallRetrieval,
        RememberResult,
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
        FactDiagnosticInfo,
        IngestErrorInfo,
        MemoryStatus,
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


def __getattr__(name: str) -> Any:
    if name == "SCHEMAS":
        # schema name -> (version, model), built (and every contract imported) on first use.
        schemas = {
            key: (version, __getattr__(model)) for key, (version, model) in SCHEMA_NAMES.items()
        }
        globals()["SCHEMAS"] = schemas
        return schemas
    module = WHERE.get(name)
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
    "ApiIndex",
    "ApiRoute",
    "AskResult",
    "AuditCounts",
    "AuditEvidence",
    "AuditFinding",
    "AuditFingerprints",
    "AuditLocation",
    "AuditPolicy",
    "AuditReport",
    "AuditRule",
    "AuditScope",
    "AuditSubject",
    "AuditTiming",
    "AuditTruncation",
    "AuditVersions",
    "Backlink",
    "BacklinksMeta",
    "BacklinksResult",
    "BridgeCandidate",
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
    "Community",
    "ContextCapsule",
    "ConversionInfo",
    "DocumentList",
    "DocumentListMeta",
    "EmbedFailure",
    "EmbedResult",
    "ErrorBody",
    "ErrorEnvelope",
    "ExplainLine",
    "FactDiagnosticInfo",
    "FactView",
    "FolderResult",
    "GetResult",
    "GraphAudit",
    "GraphDocument",
    "GraphHints",
    "GraphLink",
    "GraphLinkAudit",
    "GraphMeta",
    "GraphNeighbor",
    "GraphNeighborsMeta",
    "GraphNeighborsResult",
    "GraphNode",
    "GraphNodeRef",
    "GraphPathMeta",
    "GraphPathResult",
    "GraphPathStep",
    "GraphQueryEdge",
    "GraphQueryMeta",
    "GraphQueryNode",
    "GraphQueryResult",
    "GraphReport",
    "GraphResult",
    "HttpError",
    "HttpErrorData",
    "HttpErrorObject",
    "ImpactMeta",
    "ImpactResult",
    "ImpactStep",
    "ImpactedDocument",
    "IndexResult",
    "IngestErrorInfo",
    "IsolatedNotes",
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
    "MemoryCandidate",
    "MemoryMatching",
    "MemoryStatus",
    "MemorySync",
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
    "ProjectionMeta",
    "QueryDiagnosis",
    "RecallBudget",
    "RecallReceipt",
    "RecallResult",
    "RecallRetrieval",
    "RecalledFact",
    "RememberResult",
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
    "UnresolvedLinks",
    "WireModel",
]
