"""Port: the retrieval-trace store (``gno_core.traces``): trace headers, their runs and evidence
events, judgments (append-only, one per idempotency key) and export receipts, under retention
bounds the caller passes (``TraceRetention``).

Retention: opening a trace first drops expired traces, then the oldest until the count bound
leaves room; recording a run drops the oldest other traces while the byte bound is exceeded;
a trace keeps at most ``max_records_per_trace`` runs and events (the rest are dropped and the
trace is marked ``truncated``). Deleting a trace deletes everything it owns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gno_core.traces.values import (
    NewEvent,
    NewExport,
    NewJudgment,
    NewRun,
    NewTrace,
    TraceEvent,
    TraceExport,
    TraceHeader,
    TraceJudgment,
    TraceRetention,
    TraceRun,
    TraceStatus,
    TraceUsage,
)

__all__ = ["TraceStore"]


class TraceStore(Protocol):
    def open_trace(self, trace: NewTrace, retention: TraceRetention) -> TraceHeader:
        """Store a new ``open`` trace with a fresh id (``trc_`` and 32 hex), expiring
        ``max_age_days`` after ``trace.created_ns``; applies age and count retention first."""
        ...

    def record(
        self,
        trace_id: str,
        run: NewRun,
        events: Sequence[NewEvent],
        retention: TraceRetention,
        now_ns: int,
    ) -> int | None:
        """Append one run and its events to an ``open`` trace; returns the run id, or None when
        the trace is gone, not open, or already at its record bound (then marked truncated)."""
        ...

    def finish(self, trace_id: str, status: TraceStatus) -> bool:
        """Move an ``open`` trace to a terminal status (``partial`` when it was truncated and
        ``completed`` is asked); False when it is gone or already terminal."""
        ...

    def header(self, trace_id: str) -> TraceHeader | None: ...

    def headers(self, *, before: str | None = None, limit: int = 50) -> list[TraceHeader]:
        """Newest first; ``before``: a trace id, the page starts after it (None: the start)."""
        ...

    def runs(self, trace_id: str) -> list[TraceRun]: ...

    def events(self, trace_id: str, *, limit: int = 10_000) -> list[TraceEvent]:
        """The trace's events in the order they were recorded."""
        ...

    def add_judgment(self, judgment: NewJudgment) -> tuple[TraceJudgment, bool]:
        """Append a judgment; ``(it, True)``. The same idempotency key again returns the stored
        judgment with False when it says the same, ``CONFLICT`` when it does not. ``NOT_FOUND``
        for a missing trace; ``VALIDATION`` when the event is not one of the trace's."""
        ...

    def judgments(self, trace_id: str) -> list[TraceJudgment]:
        """In the order they were made."""
        ...

    def add_export(self, export: NewExport) -> tuple[TraceExport, bool]:
        """Record an export receipt; the same format, traces and digest again returns the
        existing receipt with False."""
        ...

    def exports(self, trace_id: str) -> list[TraceExport]:
        """The receipts of exports that included the trace, oldest first."""
        ...

    def delete(self, trace_id: str) -> bool:
        """Delete one trace and everything it owns; False when there was none."""
        ...

    def purge(self) -> int:
        """Delete every trace, judgment and export receipt; the number of traces deleted."""
        ...

    def enforce(self, retention: TraceRetention, now_ns: int) -> int:
        """Apply the age, count and byte bounds now; the number of traces dropped."""
        ...

    def usage(self) -> TraceUsage: ...
