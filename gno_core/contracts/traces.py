"""The ``retrieval-trace-*`` contracts: a trace's summary (never its query text) and detail, a
page of summaries, a judgment receipt, delete and purge receipts, exports and replay. Built by
``gno_core.traces.views`` from the store's values."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

TraceStatus = Literal["open", "completed", "partial", "failed", "cancelled"]
TRACE_ID = r"^trc_[0-9a-f]{32}$"


class TraceQueryShape(WireModel):
    chars: int = Field(ge=0)
    terms: int = Field(ge=0)


class TraceSummary(WireModel):
    """``retrieval-trace-summary@1.0``: one trace without its query or goal text."""

    trace_id: str = Field(pattern=TRACE_ID)
    tool: str
    status: TraceStatus
    redaction_mode: Literal["metadata", "replay"]
    created_at: str
    expires_at: str
    query_digest: str
    query_shape: TraceQueryShape
    records: int = Field(ge=0)
    size_bytes: int = Field(ge=0)
    truncated: bool


class TraceList(WireModel):
    """``retrieval-trace-list@1.0``: newest first; ``nextCursor`` (a trace id) pages on."""

    traces: list[TraceSummary]
    next_cursor: str | None = None


class TraceHeaderView(TraceSummary):
    """The header in a detail receipt: the summary, the filters and fingerprints, and the query
    text when the trace was recorded in ``replay`` mode."""

    filters: dict[str, Any]
    fingerprints: dict[str, str]
    query: str | None = None


class TraceRunView(WireModel):
    run_id: int
    kind: Literal["retrieval", "context", "get"]
    mode: str
    status: str
    created_at: str
    detail: dict[str, Any]


class TraceEventView(WireModel):
    event_id: int
    run_id: int
    kind: Literal["result", "opened"]
    docid: str
    uri: str
    rank: int | None = None
    score: float | None = None
    start_line: int | None = None
    end_line: int | None = None


class TraceJudgmentView(WireModel):
    judgment_id: int
    label: Literal["relevant", "irrelevant", "missing_expected"]
    idempotency_key: str
    event_id: int | None = None
    document: str | None = None
    created_at: str


class TraceExportView(WireModel):
    export_id: int
    format: Literal["agentic-receipt", "qrels"]
    trace_ids: list[str]
    digest: str
    size_bytes: int
    created_at: str


class TraceTotals(WireModel):
    runs: int
    events: int
    judgments: int
    exports: int


class TraceTruncation(WireModel):
    events: bool
    records: bool  # the store dropped records at the per-trace bound


class TraceShow(WireModel):
    """``retrieval-trace-show@1.0``: one bounded detail receipt with exact totals."""

    trace: TraceHeaderView
    runs: list[TraceRunView]
    events: list[TraceEventView]
    judgments: list[TraceJudgmentView]
    exports: list[TraceExportView]
    totals: TraceTotals
    truncated: TraceTruncation


class TraceJudgmentResult(WireModel):
    """``retrieval-trace-judgment@1.0``: the stored judgment; ``created`` false when the
    idempotency key had already recorded it."""

    trace_id: str
    judgment: TraceJudgmentView
    created: bool


class TraceDeleteResult(WireModel):
    """``retrieval-trace-delete@1.0``."""

    trace_id: str
    deleted: bool


class TracePurgeResult(WireModel):
    """``retrieval-trace-purge@1.0``: how many traces (and everything they owned) went."""

    deleted: int
