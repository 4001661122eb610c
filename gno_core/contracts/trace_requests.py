"""Requests of the retrieval-trace tools (``gno_trace_*``, ``gno trace ...``, ``/api/traces``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gno_core.contracts.fields import Cli
from gno_core.contracts.search_request import Request

__all__ = [
    "TraceDeleteRequest",
    "TraceExportRequest",
    "TraceLabelRequest",
    "TraceListRequest",
    "TracePurgeRequest",
    "TraceReplayRequest",
    "TraceShowRequest",
]

TraceId = Annotated[
    str,
    Cli(help="a trace id (trc_...)"),
    Field(min_length=5, max_length=64, description="Trace id (trc_...)"),
]


class TraceListRequest(Request):
    """A page of trace summaries, newest first (``Gno.trace_list``)."""

    cursor: str | None = Field(
        default=None, max_length=64, description="nextCursor of the previous page"
    )
    limit: Annotated[int, Cli(flags=("-n", "--limit"), help="summaries per page")] = Field(
        default=50, ge=1, le=500, description="Summaries per page (1-500)"
    )


class TraceShowRequest(Request):
    """One trace's detail receipt (``Gno.trace_show``)."""

    trace_id: TraceId
    limit: Annotated[int, Cli(flags=("-n", "--limit"), help="events shown at most")] = Field(
        default=1000, ge=1, le=10_000, description="Events shown at most (totals stay exact)"
    )


class TraceLabelRequest(Request):
    """One explicit judgment on a trace (``Gno.trace_label``): ``relevant``/``irrelevant`` name a
    recorded event; ``missing_expected`` names a document by docid or gno:// URI only."""

    trace_id: TraceId
    label: Annotated[
        Literal["relevant", "irrelevant", "missing_expected"],
        Cli(help="relevant | irrelevant | missing_expected"),
    ] = Field(description="relevant, irrelevant or missing_expected")
    event_id: Annotated[int | None, Cli(flags=("--event",), help="the judged event's id")] = Field(
        default=None, ge=1, description="Recorded event id (relevant/irrelevant)"
    )
    document: Annotated[
        str | None, Cli(flags=("--document",), help="docid or gno:// URI (missing_expected)")
    ] = Field(
        default=None,
        max_length=1024,
        description="Docid (#abc123) or gno:// URI of the expected document (missing_expected)",
    )
    idempotency_key: Annotated[
        str | None, Cli(flags=("--key",), help="idempotency key (default: derived)")
    ] = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="The same key again returns the stored judgment (default: derived from it)",
    )


class TraceDeleteRequest(Request):
    """Delete one trace and everything it owns (``Gno.trace_delete``)."""

    trace_id: TraceId


class TracePurgeRequest(Request):
    """Delete every trace receipt (``Gno.trace_purge``); ``confirm`` must be true."""

    confirm: Annotated[bool, Cli(flags=("--yes",), help="confirm deleting every trace")] = Field(
        default=False, description="Must be true"
    )


class TraceExportRequest(Request):
    """A deterministic export of finished traces (``Gno.trace_export``): an
    ``agentic-receipt`` of what was searched, found, opened and judged, or their ``qrels``."""

    trace_ids: Annotated[list[str], Cli(help="trace ids (trc_...)")] = Field(
        min_length=1, max_length=1000, description="Finished traces to export"
    )
    format: Annotated[
        Literal["agentic-receipt", "qrels"],
        Cli(flags=("--format",), help="agentic-receipt | qrels"),
    ] = Field(default="agentic-receipt", description="agentic-receipt (default) or qrels")


class TraceReplayRequest(Request):
    """Run the judged traces again with one retrieval mode and compare (``Gno.trace_replay``);
    changes no configuration."""

    trace_ids: Annotated[list[str], Cli(help="trace ids (default: every judged trace)")] = Field(
        default_factory=list, max_length=1000, description="Traces to replay (default: all judged)"
    )
    mode: Annotated[
        Literal["bm25", "vector", "hybrid"], Cli(flags=("--mode",), help="bm25 | vector | hybrid")
    ] = Field(default="hybrid", description="Retrieval mode to replay with")
    k: Annotated[int, Cli(flags=("-k",), help="rank cut-off of nDCG and recall")] = Field(
        default=10, ge=1, le=100, description="nDCG@k and recall@k cut-off"
    )
    epsilon: float = Field(
        default=0.01, ge=0, le=1, description="nDCG difference counted as a change"
    )
    expand: Annotated[bool, Cli(help="hybrid only: with feedback expansion")] = Field(
        default=False, description="Hybrid only: add pseudo-relevance feedback expansion"
    )
