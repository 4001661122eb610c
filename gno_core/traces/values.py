"""The values of the retrieval-trace store: a trace's header, its runs, the evidence events each
run recorded, the person's judgments on them, the export receipts, and the retention bounds.

A trace is private: in ``metadata`` mode its header keeps a digest and the shape of the query,
never the text; ``replay`` mode keeps the text so that the query can be run again. Every record
carries its size in bytes (its JSON form), which retention sums.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gno_core.errors import ConflictError, ValidationError

__all__ = [
    "JUDGMENT_LABELS",
    "TERMINAL",
    "ExportFormat",
    "JudgmentLabel",
    "NewEvent",
    "NewExport",
    "NewJudgment",
    "NewRun",
    "NewTrace",
    "RedactionMode",
    "RunKind",
    "TraceEvent",
    "TraceExport",
    "TraceHeader",
    "TraceJudgment",
    "TraceRetention",
    "TraceRun",
    "TraceStatus",
    "TraceUsage",
    "fit",
    "record_size",
    "safe_document_identity",
]

TraceStatus = Literal["open", "completed", "partial", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "partial", "failed", "cancelled"})
RunKind = Literal["retrieval", "context", "get"]
JudgmentLabel = Literal["relevant", "irrelevant", "missing_expected"]
JUDGMENT_LABELS: tuple[str, ...] = ("relevant", "irrelevant", "missing_expected")
ExportFormat = Literal["agentic-receipt", "qrels"]
RedactionMode = Literal["metadata", "replay"]

NS_PER_DAY = 86_400 * 1_000_000_000
MIN_BYTES = 64 * 1024

#: A document named without its content or a filesystem path: a docid or a ``gno://`` URI.
_DOCID = re.compile(r"#[0-9a-f]{6,8}")
_URI = re.compile(r"gno://[^\s/\\][^\s\\]*")


def safe_document_identity(value: str) -> str:
    """``value`` when it is a docid (``#`` and 6-8 hex) or a ``gno://`` URI without ``..``
    segments; otherwise ``VALIDATION`` (raw content and filesystem paths are refused)."""
    value = value.strip()
    if _DOCID.fullmatch(value):
        return value
    if (
        len(value) <= 1024
        and _URI.fullmatch(value)
        and ".." not in value[len("gno://") :].split("/")
    ):
        return value
    raise ValidationError(
        "A missing_expected judgment names a document by its docid (#abc123) or its gno:// URI, "
        "never by content or a filesystem path",
        details={"field": "document"},
    )


def record_size(payload: Any) -> int:
    """The bytes a record counts for retention: its compact JSON, UTF-8."""
    return len(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())


@dataclass(frozen=True, slots=True)
class TraceRetention:
    max_age_days: float = 30.0
    max_traces: int = 1000
    max_records_per_trace: int = 10_000
    max_bytes: int = 16 * 1024 * 1024

    def __post_init__(self) -> None:
        if self.max_bytes < MIN_BYTES:
            raise ValidationError(
                f"retrievalTraces.retention.maxBytes must be at least {MIN_BYTES}",
                details={"field": "maxBytes", "minimum": MIN_BYTES},
            )
        if self.max_traces < 1 or self.max_records_per_trace < 1 or self.max_age_days <= 0:
            raise ValidationError("retrievalTraces.retention bounds must be positive")

    @property
    def max_age_ns(self) -> int:
        return int(self.max_age_days * NS_PER_DAY)


@dataclass(frozen=True, slots=True)
class NewTrace:
    """A trace as it is opened. ``query_text`` is None in ``metadata`` mode (and must be)."""

    tool: str
    redaction_mode: RedactionMode
    query_digest: str
    query_shape: dict[str, int]
    filters: dict[str, Any]
    fingerprints: dict[str, str]
    created_ns: int
    query_text: str | None = None

    def __post_init__(self) -> None:
        if self.redaction_mode == "metadata" and self.query_text is not None:
            raise ValidationError("metadata redaction keeps no query text")

    @property
    def size(self) -> int:
        return record_size(
            [self.tool, self.query_digest, self.query_shape, self.filters, self.fingerprints]
        ) + len((self.query_text or "").encode())


@dataclass(frozen=True, slots=True)
class TraceHeader:
    trace_id: str
    tool: str
    redaction_mode: RedactionMode
    query_digest: str
    query_shape: dict[str, int]
    filters: dict[str, Any]
    fingerprints: dict[str, str]
    created_ns: int
    expires_ns: int
    status: TraceStatus
    query_text: str | None
    records: int  # runs and events kept
    size_bytes: int  # header and records
    truncated: bool  # records were dropped at the per-trace bound


@dataclass(frozen=True, slots=True)
class NewEvent:
    """One piece of evidence: a ranked result (``result``) or an exact span opened (``opened``)."""

    kind: Literal["result", "opened"]
    docid: str
    uri: str
    rank: int | None = None
    score: float | None = None
    start_line: int | None = None
    end_line: int | None = None

    @property
    def size(self) -> int:
        return record_size(
            [self.kind, self.docid, self.uri, self.rank, self.score, self.start_line, self.end_line]
        )


@dataclass(frozen=True, slots=True)
class TraceEvent:
    event_id: int
    trace_id: str
    run_id: int
    kind: Literal["result", "opened"]
    docid: str
    uri: str
    rank: int | None
    score: float | None
    start_line: int | None
    end_line: int | None


@dataclass(frozen=True, slots=True)
class NewRun:
    kind: RunKind
    mode: str  # bm25 | vector | hybrid | get | context ...
    status: Literal["completed", "failed"] = "completed"
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return record_size([self.kind, self.mode, self.status, self.detail])


@dataclass(frozen=True, slots=True)
class TraceRun:
    run_id: int
    trace_id: str
    kind: RunKind
    mode: str
    status: str
    detail: dict[str, Any]
    created_ns: int


@dataclass(frozen=True, slots=True)
class NewJudgment:
    """``relevant``/``irrelevant`` point at a recorded event of the trace; ``missing_expected``
    names a document (``safe_document_identity``) that should have been found."""

    trace_id: str
    label: JudgmentLabel
    idempotency_key: str
    created_ns: int
    event_id: int | None = None
    document: str | None = None

    def __post_init__(self) -> None:
        if self.label not in JUDGMENT_LABELS:
            raise ValidationError(f"Unknown judgment label {self.label!r}")
        if not 1 <= len(self.idempotency_key) <= 128:
            raise ValidationError("idempotencyKey must be 1-128 characters")
        if self.label == "missing_expected":
            if self.event_id is not None or self.document is None:
                raise ValidationError(
                    "missing_expected names a document, not a recorded event",
                    details={"field": "document"},
                )
            object.__setattr__(self, "document", safe_document_identity(self.document))
        elif self.event_id is None or self.document is not None:
            raise ValidationError(
                f"A {self.label} judgment points at a recorded event (eventId) of the trace",
                details={"field": "eventId"},
            )

    def check_replay(self, stored: TraceJudgment) -> None:
        """A retry under ``stored``'s idempotency key must say the same thing (the stored
        document is the event's, so an event judgment is compared by its event); else a
        ``ConflictError``."""
        if (
            stored.label != self.label
            or (self.event_id is not None and stored.event_id != self.event_id)
            or (self.document is not None and stored.document != self.document)
        ):
            raise ConflictError(
                "This idempotency key already labelled something else",
                details={"idempotencyKey": self.idempotency_key},
            )


@dataclass(frozen=True, slots=True)
class TraceJudgment:
    judgment_id: int
    trace_id: str
    label: JudgmentLabel
    idempotency_key: str
    event_id: int | None
    document: str | None  # the judged document's docid or URI (the event's, for an event)
    created_ns: int


@dataclass(frozen=True, slots=True)
class NewExport:
    format: ExportFormat
    trace_ids: tuple[str, ...]
    digest: str  # sha256 of the exported bytes: the receipt of one deterministic export
    size_bytes: int
    created_ns: int


@dataclass(frozen=True, slots=True)
class TraceExport:
    export_id: int
    format: ExportFormat
    trace_ids: tuple[str, ...]
    digest: str
    size_bytes: int
    created_ns: int


@dataclass(frozen=True, slots=True)
class TraceUsage:
    traces: int
    records: int
    bytes: int


def fit(
    run: NewRun, events: Sequence[NewEvent], room: int, budget: int
) -> tuple[list[NewEvent], int]:
    """The events of ``run`` a trace keeps with ``room`` records and ``budget`` bytes left (the
    run itself takes one record), and the bytes they and the run take; ``([], 0)`` when the run
    itself does not fit."""
    size = run.size
    if room < 1 or size > budget:
        return [], 0
    kept: list[NewEvent] = []
    for event in events[: room - 1]:
        if size + event.size > budget:
            break
        kept.append(event)
        size += event.size
    return kept, size
