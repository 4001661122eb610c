"""Every HTTP route ``gno serve`` answers under ``/api``, as data: what it does, what it takes
(a JSON body or query-string fields, by pydantic request model) and what it answers (a wire
contract). ``GET /api`` lists the routes an app registered with their summaries from here, and
``gno_adapters.rest.openapi`` builds the OpenAPI document from the same rows; a test holds this
table equal to the routes the app registers.

A model is named ``module:Class`` (``gno_core.contracts`` modules), resolved only when the
OpenAPI document is built or a query-string route reads its fields, so listing the routes
imports no contract.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal

#: The contract of an error answer (``error@1.0``), for every 4xx/5xx a route gives.
ERROR_MODEL = "gno_core.contracts.error:ErrorEnvelope"
#: The document names that the REST reads accept (``ref``), as the routes' help says them.
REF_FORMS = "a gno:// URI, collection/path, or #docid"


@dataclass(frozen=True)
class RestRoute:
    method: Literal["GET", "POST"]
    path: str
    summary: str
    #: The facade operation the route needs (``None``: always there).
    operation: str | None = None
    #: The request model and where its fields come from.
    request: str | None = None
    source: Literal["body", "query"] | None = None
    #: The answer's contract model(s): one, or several when the route answers one of them.
    response: tuple[str, ...] = ()
    status: int = 200
    write: bool = False
    #: Query parameters kept for older callers: name -> the field it stands for.
    deprecated: tuple[tuple[str, str], ...] = ()


def resolve_model(name: str) -> Any:
    """The class a ``module:Class`` model name names (imports its module)."""
    module, _, attr = name.partition(":")
    return getattr(importlib.import_module(module), attr)


def _m(module: str, name: str) -> str:
    return f"gno_core.contracts.{module}:{name}"


_REFACTOR_ANSWERS = (_m("refactors", "RefactorPreview"), _m("refactors", "RefactorApplyResult"))

ROUTES: tuple[RestRoute, ...] = (
    RestRoute(
        "GET",
        "/api",
        "this list of routes (method, path, summary)",
        response=(_m("gateway", "ApiIndex"),),
    ),
    RestRoute("GET", "/api/openapi.json", "the OpenAPI 3.1 document of these routes"),
    RestRoute("GET", "/api/health", 'liveness: {"ok": true}'),
    RestRoute(
        "GET",
        "/api/resident/status",
        "the serving gateway: transport, admission, sessions",
        response=(_m("status", "ResidentStatus"),),
    ),
    RestRoute(
        "GET",
        "/api/status",
        "index status: collections, counts, capabilities, chunking, the serving gateway",
        response=(_m("status", "Status"),),
    ),
    RestRoute(
        "POST",
        "/api/search",
        "keyword (BM25) search",
        request=_m("requests", "SearchRequest"),
        source="body",
        response=(_m("search", "SearchResults"),),
    ),
    RestRoute(
        "POST",
        "/api/query",
        "hybrid search: keywords and meaning fused, reranked when a reranker is there",
        operation="query",
        request=_m("requests", "QueryRequest"),
        source="body",
        response=(_m("search", "SearchResults"),),
    ),
    RestRoute(
        "POST",
        "/api/query/diagnose",
        "why a target document does or does not rank for a query",
        operation="query_diagnose",
        request=_m("evidence_requests", "DiagnoseRequest"),
        source="body",
        response=(_m("evidence", "QueryDiagnosis"),),
    ),
    RestRoute(
        "POST",
        "/api/context",
        "compile a Context Capsule: exact evidence for a goal under a token budget",
        operation="context",
        request=_m("evidence_requests", "ContextRequest"),
        source="body",
        response=(_m("evidence", "ContextCapsule"),),
    ),
    RestRoute(
        "POST",
        "/api/context/verify",
        're-check a saved capsule against the index (body {"capsule": ...})',
        operation="context_verify",
        source="body",
        response=(_m("evidence", "CapsuleVerification"),),
    ),
    RestRoute(
        "POST",
        "/api/section",
        "create or resolve a durable section target in one document",
        operation="section",
        request=_m("evidence_requests", "SectionRequest"),
        source="body",
        response=(_m("evidence", "SectionResult"),),
    ),
    RestRoute(
        "POST",
        "/api/ask",
        "answer a question with verified citations from a capsule, or abstain",
        operation="ask",
        request=_m("evidence_requests", "AskRequest"),
        source="body",
        response=(_m("ask", "AskResult"),),
    ),
    RestRoute(
        "GET",
        "/api/doc",
        f"one document, whole or a line range (ref: {REF_FORMS})",
        request=_m("requests", "GetRequest"),
        source="query",
        response=(_m("document", "GetResult"),),
        deprecated=(("uri", "ref"),),
    ),
    RestRoute(
        "GET",
        "/api/links",
        f"the outgoing links of one document (ref: {REF_FORMS})",
        operation="links",
        request=_m("requests", "LinksRequest"),
        source="query",
        response=(_m("links", "LinksResult"),),
    ),
    RestRoute(
        "GET",
        "/api/backlinks",
        f"the links of other documents to one document (ref: {REF_FORMS})",
        operation="backlinks",
        request=_m("requests", "BacklinksRequest"),
        source="query",
        response=(_m("links", "BacklinksResult"),),
    ),
    RestRoute(
        "GET",
        "/api/changes",
        "the change journal after a time or cursor, oldest first (metadata only, no bodies)",
        operation="changes",
        request=_m("delta_requests", "ChangesRequest"),
        source="query",
        response=(_m("delta", "ChangesResult"),),
    ),
    RestRoute(
        "GET",
        "/api/diff",
        f"the structural diff of one document for a change (ref: {REF_FORMS})",
        operation="diff",
        request=_m("delta_requests", "DiffRequest"),
        source="query",
        response=(_m("delta", "DocumentDiff"),),
    ),
    RestRoute(
        "GET",
        "/api/traces",
        "retrieval trace summaries, newest first (no query text); nextCursor pages on",
        operation="trace_list",
        request=_m("trace_requests", "TraceListRequest"),
        source="query",
        response=(_m("traces", "TraceList"),),
    ),
    RestRoute(
        "GET",
        "/api/traces/show",
        "one retrieval trace: runs, events, judgments, exports, exact totals",
        operation="trace_show",
        request=_m("trace_requests", "TraceShowRequest"),
        source="query",
        response=(_m("traces", "TraceShow"),),
    ),
    RestRoute(
        "POST",
        "/api/traces/judgments",
        "judge a recorded event relevant/irrelevant, or a missing_expected document (write access)",
        operation="trace_label",
        request=_m("trace_requests", "TraceLabelRequest"),
        source="body",
        response=(_m("traces", "TraceJudgmentResult"),),
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/traces/delete",
        "delete one retrieval trace and what it owns (write access)",
        operation="trace_delete",
        request=_m("trace_requests", "TraceDeleteRequest"),
        source="body",
        response=(_m("traces", "TraceDeleteResult"),),
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/traces/purge",
        "delete every retrieval trace; confirm: true (write access)",
        operation="trace_purge",
        request=_m("trace_requests", "TracePurgeRequest"),
        source="body",
        response=(_m("traces", "TracePurgeResult"),),
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/traces/export",
        "export finished traces (agentic-receipt or qrels), egress policy checked first (write access)",
        operation="trace_export",
        request=_m("trace_requests", "TraceExportRequest"),
        source="body",
        response=(_m("traces", "TraceExportResult"),),
        write=True,
    ),
    RestRoute(
        "GET",
        "/api/graph",
        "the link graph with its health report",
        operation="graph",
        request=_m("requests", "GraphRequest"),
        source="query",
        response=(_m("graph", "GraphResult"),),
    ),
    RestRoute(
        "GET",
        "/api/graph/query",
        f"bounded typed-edge traversal from one document (ref: {REF_FORMS})",
        operation="graph_query",
        request=_m("requests", "GraphQueryRequest"),
        source="query",
        response=(_m("graph", "GraphQueryResult"),),
    ),
    RestRoute(
        "GET",
        "/api/graph/neighbors",
        f"the neighbours of one document in the graph (ref: {REF_FORMS})",
        operation="graph_neighbors",
        request=_m("requests", "GraphNeighborsRequest"),
        source="query",
        response=(_m("graph", "GraphNeighborsResult"),),
    ),
    RestRoute(
        "GET",
        "/api/graph/path",
        f"the shortest link path between two documents (from, to: {REF_FORMS})",
        operation="graph_path",
        request=_m("requests", "GraphPathRequest"),
        source="query",
        response=(_m("graph", "GraphPathResult"),),
    ),
    RestRoute(
        "GET",
        "/api/impact",
        f"what depends on one document: inbound links and typed edges (ref: {REF_FORMS})",
        operation="impact",
        request=_m("integrity_requests", "ImpactRequest"),
        source="query",
        response=(_m("impact", "ImpactResult"),),
    ),
    RestRoute(
        "POST",
        "/api/audit",
        "the read-only knowledge audit: links, provenance, freshness (audit-report@1.0)",
        operation="audit",
        request=_m("integrity_requests", "AuditRequest"),
        source="body",
        response=(_m("audit", "AuditReport"),),
    ),
    RestRoute(
        "POST",
        "/api/memory/recall",
        "recall remembered facts for a query",
        operation="recall",
        request=_m("memory_requests", "RecallRequest"),
        source="body",
        response=(_m("memory", "RecallResult"),),
    ),
    RestRoute(
        "POST",
        "/api/memory/remember",
        "remember a fact (write access)",
        operation="remember",
        request=_m("memory_requests", "RememberRequest"),
        source="body",
        response=(_m("memory", "RememberResult"),),
        write=True,
    ),
    RestRoute(
        "GET",
        "/api/egress/policy",
        "one collection's egress policy: configured, effective, source, revision",
        operation="egress_policy_get",
        request=_m("egress_requests", "EgressPolicyGetRequest"),
        source="query",
        response=(_m("egress", "EgressPolicyState"),),
    ),
    RestRoute(
        "POST",
        "/api/egress/policy",
        "set a collection's egress policy: tighten at once, relax with the one-use "
        "confirmation (write access)",
        operation="egress_policy_set",
        request=_m("egress_requests", "EgressPolicySetRequest"),
        source="body",
        response=(_m("egress", "EgressPolicySetResult"),),
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/egress/check",
        "explain an egress decision for a scope, action, zone and content class (does nothing)",
        operation="egress_check",
        request=_m("egress_requests", "EgressCheckRequest"),
        source="body",
        response=(_m("egress", "EgressCheckResult"),),
    ),
    RestRoute(
        "GET",
        "/api/egress/audits",
        "content-free egress receipts, newest first (limit, cursor)",
        operation="egress_audit_list",
        request=_m("egress_requests", "EgressAuditListRequest"),
        source="query",
        response=(_m("egress", "EgressAuditManagement"),),
    ),
    RestRoute(
        "GET",
        "/api/egress/audit",
        "one content-free egress receipt (auditId)",
        operation="egress_audit_show",
        request=_m("egress_requests", "EgressAuditShowRequest"),
        source="query",
        response=(_m("egress", "EgressAuditManagement"),),
    ),
    RestRoute(
        "GET",
        "/api/egress/audits/status",
        "the egress receipts held and their retention",
        operation="egress_audit_status",
        response=(_m("egress", "EgressAuditManagement"),),
    ),
    RestRoute(
        "POST",
        "/api/egress/audits/delete",
        "delete exactly one egress receipt (write access)",
        operation="egress_audit_delete",
        request=_m("egress_requests", "EgressAuditDeleteRequest"),
        source="body",
        response=(_m("egress", "EgressAuditManagement"),),
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/egress/audits/purge",
        'delete every egress receipt, never a policy; body {"confirm": true} (write access)',
        operation="egress_audit_purge",
        request=_m("egress_requests", "EgressAuditPurgeRequest"),
        source="body",
        response=(_m("egress", "EgressAuditManagement"),),
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/capture",
        "create a note in a collection (write access)",
        request=_m("write_requests", "CaptureRequest"),
        source="body",
        response=(_m("writes", "CaptureReceipt"),),
        status=201,
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/docs/rename",
        "rename a note, its references rewritten: preview, or apply (write access)",
        operation="rename_note",
        request=_m("refactors", "RenameNoteRequest"),
        source="body",
        response=_REFACTOR_ANSWERS,
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/docs/move",
        "move a note to another folder, references rewritten: preview, or apply (write access)",
        operation="move_note",
        request=_m("refactors", "MoveNoteRequest"),
        source="body",
        response=_REFACTOR_ANSWERS,
        write=True,
    ),
    RestRoute(
        "POST",
        "/api/docs/duplicate",
        "copy a note: preview, or apply (write access)",
        operation="duplicate_note",
        request=_m("refactors", "DuplicateNoteRequest"),
        source="body",
        response=_REFACTOR_ANSWERS,
        write=True,
    ),
)

BY_ROUTE: dict[tuple[str, str], RestRoute] = {(r.method, r.path): r for r in ROUTES}
