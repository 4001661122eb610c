"""Resident gateway contracts: the closed ``mcp-http-error@1.0`` body every HTTP boundary
refusal answers with, and ``process-status@1.0`` (``gno serve|daemon --status --json``)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.egress import EgressDecisionAudit, EgressOmission, EgressRemediation
from gno_core.contracts.status import ResidentStatus
from gno_core.egress.values import ReasonCode

HttpErrorStatus = Literal[401, 403, 408, 409, 413, 429, 503]
HttpErrorCode = Literal[-32000, -32003]
HttpErrorMessage = Literal[
    "Unauthorized",
    "Forbidden",
    "Request timeout",
    "Egress policy changed: retry",
    "Operation blocked by collection egress policy",
    "Request body too large",
    "Too many requests",
    "Resident runtime unavailable",
]
#: Stable, redacted reasons: they name the rule that refused, never the secret or the value.
HttpErrorReason = Literal[
    "bearer_required",
    "bearer_invalid",
    "host_not_allowed",
    "origin_not_allowed",
    "peer_not_allowed",
    "proxied_request_unauthenticated",
    "write_disabled",
    "egress_denied",
    "egress_policy_changed",
    "body_too_large",
    "body_timeout",
    "rate_limited",
    "too_many_connections",
    "queue_full",
    "too_many_sessions",
    "shutting_down",
    "credentials_unavailable",
    "runtime_unavailable",
]


class HttpEgressRefusal(WireModel):
    """What an egress refusal adds to ``data``: the decision's code and reason code, its
    redacted evaluator audit (the policy vocabulary and collection names only, never a query,
    text, path or peer address), the omitted collections and a remediation (the local receipt
    is listed by ``gno egress-audit list``). ``EGRESS_POLICY_CHANGED`` (409) is the content-free retry of a request admitted
    before a policy change."""

    code: Literal["EGRESS_DENIED", "EGRESS_POLICY_CHANGED"]
    reason: ReasonCode | Literal["EGRESS_POLICY_CHANGED"]
    audit: EgressDecisionAudit | None = None
    omitted_collections: list[EgressOmission] | None = None
    remediation: EgressRemediation | None = None


class HttpErrorData(WireModel):
    status: HttpErrorStatus
    reason: HttpErrorReason
    egress: HttpEgressRefusal | None = None


class HttpErrorObject(WireModel):
    code: HttpErrorCode
    message: HttpErrorMessage
    data: HttpErrorData


class HttpError(WireModel):
    """``mcp-http-error@1.0``: a JSON-RPC error body; ``id`` is the request's when the refusal
    came after the body was read (the write gate), else ``null``."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"id"})

    jsonrpc: Literal["2.0"] = "2.0"
    id: str | int | None
    error: HttpErrorObject


ResidentCommand = Literal["serve", "daemon"]


class ProcessStatus(WireModel):
    """``process-status@1.0``: a resident server seen through its pid file. Keys are snake_case,
    like the pid file itself; a stopped server answers ``running: false`` with nulls."""

    model_config = ConfigDict(alias_generator=None)
    wire_nulls: ClassVar[frozenset[str]] = frozenset(
        {
            "pid",
            "port",
            "cmd",
            "version",
            "started_at",
            "uptime_seconds",
            "resident",
            "log_file",
            "log_size_bytes",
        }
    )

    running: bool
    pid: int | None
    port: int | None
    cmd: ResidentCommand | None
    version: str | None
    started_at: str | None
    uptime_seconds: float | None = Field(ge=0)
    resident: ResidentStatus | None
    pid_file: str
    log_file: str | None
    log_size_bytes: int | None = Field(ge=0)


class ApiRoute(WireModel):
    method: Literal["GET", "POST"]
    path: str
    summary: str


class ApiIndex(WireModel):
    """``api-index@1.0``: what ``GET /api`` answers, the REST routes this server has (those
    of the operations it offers), and where their OpenAPI document is."""

    schema_version: Literal["1.0"] = "1.0"
    routes: list[ApiRoute]
    openapi: str = Field(description="Path of the OpenAPI 3.1 document of these routes")
