"""``Facade``: what the transports (MCP, HTTP, REST) call on an index, and the names of those
operations. ``gno_core.facade.Gno`` provides all of it; a transport gets a ``FacadeFactory``
from its caller and never knows which adapters stand behind it.

Importing this module is cheap: the contract models are only named for type checkers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gno_core import contracts as wire
    from gno_core.contracts import (
        delta,
        delta_requests,
        egress,
        egress_requests,
        evidence_requests,
        integrity_requests,
        memory_requests,
        refactors,
        requests,
        trace_requests,
        traces,
        write_requests,
    )
    from gno_core.contracts.base import Prebuilt
    from gno_core.egress.decision import CollectionPolicy
    from gno_core.egress.plan import EgressPlan, PartialMode
    from gno_core.facts import MemoryIdentity

__all__ = ["OPERATIONS", "Facade", "FacadeFactory"]


class Facade(Protocol):
    """The read surface of one index, as every transport sees it."""

    def search(self, request: requests.SearchRequest) -> wire.SearchResults: ...

    def vsearch(self, request: requests.SearchRequest) -> wire.SearchResults: ...

    def query(self, request: requests.QueryRequest) -> wire.SearchResults: ...

    def vector_gap_message(self, collections: list[str] | None = None) -> str | None: ...

    def similar(
        self,
        ref: str,
        *,
        limit: int = 5,
        threshold: float | None = None,
        cross_collection: bool = False,
    ) -> wire.SimilarResults: ...

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> wire.GetResult: ...

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> wire.MultiGetResult: ...

    def status(self) -> wire.Status: ...

    def ls(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> wire.DocumentList: ...

    def peek(self) -> wire.Peek: ...

    def tags(self, collection: str | None = None, prefix: str | None = None) -> wire.TagsList: ...

    def capture(
        self,
        request: write_requests.CaptureRequest,
        *,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> wire.CaptureReceipt: ...

    def create_folder(self, request: write_requests.CreateFolderRequest) -> wire.FolderResult: ...
    def context(self, request: evidence_requests.ContextRequest) -> wire.ContextCapsule: ...

    def context_verify(self, capsule: dict[str, Any]) -> wire.CapsuleVerification: ...
    def links(self, ref: str, *, link_type: str | None = None) -> wire.LinksResult: ...

    def backlinks(self, ref: str, *, collection: str | None = None) -> wire.BacklinksResult: ...

    def backlinks_wire(
        self, ref: str, *, collection: str | None = None
    ) -> Prebuilt[wire.BacklinksResult]: ...

    def graph(self, request: requests.GraphRequest) -> wire.GraphResult: ...

    def graph_wire(self, request: requests.GraphRequest) -> Prebuilt[wire.GraphResult]: ...

    def graph_neighbors(
        self, request: requests.GraphNeighborsRequest
    ) -> wire.GraphNeighborsResult: ...

    def graph_path(self, request: requests.GraphPathRequest) -> wire.GraphPathResult: ...

    def graph_query(self, request: requests.GraphQueryRequest) -> wire.GraphQueryResult: ...

    def impact(self, request: integrity_requests.ImpactRequest) -> wire.ImpactResult: ...

    def audit(
        self,
        request: integrity_requests.AuditRequest,
        cancelled: Callable[[], bool] | None = None,
    ) -> wire.AuditReport: ...

    def list_collections(self) -> wire.CollectionList: ...

    def add_collection_at(
        self, request: write_requests.AddCollectionRequest
    ) -> wire.CollectionInfo: ...

    def remove_collection_kept(self, name: str) -> wire.RemoveResult: ...

    def clear_embeddings(
        self, request: write_requests.ClearEmbeddingsRequest
    ) -> wire.ClearEmbeddingsResult: ...

    # Long runs: ``cancelled`` is checked before each file and batch; ``progress`` callbacks
    # receive ``gno_core.indexing`` progress records.
    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[Any], None] | None = None,
        *,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
        force: bool = ...,
    ) -> wire.SyncResult: ...

    def embed(
        self,
        collections: list[str] | None = None,
        *,
        batch_size: int = ...,
        force: bool = False,
        dry_run: bool = False,
        progress: Callable[[Any], None] | None = None,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> wire.EmbedResult: ...

    def index(
        self,
        collections: list[str] | None = None,
        *,
        embed: bool = True,
        batch_size: int = ...,
        sync_progress: Callable[[Any], None] | None = None,
        embed_progress: Callable[[Any], None] | None = None,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> wire.IndexResult: ...

    @property
    def fingerprint(self) -> str | None: ...

    def section(self, request: evidence_requests.SectionRequest) -> wire.SectionResult: ...

    def query_diagnose(self, request: evidence_requests.DiagnoseRequest) -> wire.QueryDiagnosis: ...

    def ask(
        self, request: evidence_requests.AskRequest, cancelled: Callable[[], bool] | None = None
    ) -> wire.AskResult: ...

    def recall(
        self, request: memory_requests.RecallRequest, identity: MemoryIdentity
    ) -> wire.RecallResult: ...

    def remember(
        self,
        request: memory_requests.RememberRequest,
        identity: MemoryIdentity,
        *,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> wire.RememberResult: ...

    def rename_note(
        self, request: refactors.RenameNoteRequest
    ) -> refactors.RefactorPreview | refactors.RefactorApplyResult: ...

    def move_note(
        self, request: refactors.MoveNoteRequest
    ) -> refactors.RefactorPreview | refactors.RefactorApplyResult: ...

    def duplicate_note(
        self, request: refactors.DuplicateNoteRequest
    ) -> refactors.RefactorApplyResult: ...

    def changes(self, request: delta_requests.ChangesRequest) -> delta.ChangesResult: ...

    def changes_wire(
        self, request: delta_requests.ChangesRequest
    ) -> Prebuilt[delta.ChangesResult]: ...

    def diff(self, request: delta_requests.DiffRequest) -> delta.DocumentDiff: ...

    # Retrieval traces: each returns the trace id, or None (having done nothing) when tracing
    # is off; the id travels only in a result's top-level ``_meta``.
    def trace_results(self, tool: str, request: Any, wire: dict[str, Any]) -> str | None: ...

    def trace_capsule(self, tool: str, request: Any, wire: dict[str, Any]) -> str | None: ...

    def trace_get(self, trace_id: str | None, ref: str, got: wire.GetResult) -> str | None: ...

    def trace_list(self, request: trace_requests.TraceListRequest) -> traces.TraceList: ...

    def trace_show(self, request: trace_requests.TraceShowRequest) -> traces.TraceShow: ...

    def trace_label(
        self, request: trace_requests.TraceLabelRequest
    ) -> traces.TraceJudgmentResult: ...

    def trace_delete(
        self, request: trace_requests.TraceDeleteRequest
    ) -> traces.TraceDeleteResult: ...

    def trace_purge(self, request: trace_requests.TracePurgeRequest) -> traces.TracePurgeResult: ...

    def trace_export(
        self,
        request: trace_requests.TraceExportRequest,
        *,
        zone: str = ...,
        authenticated: bool = ...,
    ) -> traces.TraceExportResult: ...

    def egress_policy_get(self, collection: str) -> egress.EgressPolicyState: ...

    def egress_policy_set(
        self,
        collection: str,
        policy: str,
        confirmation: egress_requests.RelaxationConfirmationInput | None = None,
    ) -> egress.EgressPolicySetResult: ...

    def egress_check(
        self,
        *,
        collections: Sequence[str] | None = None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool,
        authorized: bool,
        partial: PartialMode = "deny",
    ) -> egress.EgressCheckResult: ...

    def egress_authorize(
        self,
        *,
        collections: Sequence[str] | None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool,
        authorized: bool,
        partial: PartialMode = "deny",
        operation: str | None = None,
        record: bool | None = None,
    ) -> EgressPlan: ...

    def egress_epoch(self) -> int: ...

    def egress_sources(
        self, collections: Sequence[str] | None = None
    ) -> tuple[CollectionPolicy, ...]: ...

    def egress_audit_list(
        self, limit: int = 100, cursor: str | None = None
    ) -> egress.EgressAuditManagement: ...

    def egress_audit_show(self, audit_id: str) -> egress.EgressAuditManagement: ...

    def egress_audit_status(self) -> egress.EgressAuditManagement: ...

    def egress_audit_delete(self, audit_id: str) -> egress.EgressAuditManagement: ...

    def egress_audit_purge(self, confirm: bool) -> egress.EgressAuditManagement: ...


FacadeFactory = Callable[[], Facade]

#: Every operation of ``Facade``: the capabilities a transport offers unless its caller gives
#: a narrower set (a tool or route whose operation is missing is not registered).
OPERATIONS: frozenset[str] = frozenset(
    {
        "search",
        "vsearch",
        "query",
        "similar",
        "get",
        "multi_get",
        "status",
        "ls",
        "peek",
        "tags",
        "capture",
        "create_folder",
        "context",
        "context_verify",
        "list_collections",
        "add_collection_at",
        "remove_collection_kept",
        "clear_embeddings",
        "sync",
        "embed",
        "index",
        "links",
        "backlinks",
        "graph",
        "graph_neighbors",
        "graph_path",
        "graph_query",
        "impact",
        "audit",
        "section",
        "query_diagnose",
        "ask",
        "recall",
        "remember",
        "rename_note",
        "move_note",
        "duplicate_note",
        "changes",
        "diff",
        "trace_list",
        "trace_show",
        "trace_label",
        "trace_delete",
        "trace_purge",
        "trace_export",
        "egress_policy_get",
        "egress_policy_set",
        "egress_check",
        "egress_authorize",
        "egress_epoch",
        "egress_sources",
        "egress_audit_list",
        "egress_audit_show",
        "egress_audit_status",
        "egress_audit_delete",
        "egress_audit_purge",
    }
)
