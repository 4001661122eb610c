"""``InMemoryTraceStore``: the ``TraceStore`` port as plain Python, with the SQLite store's
rules (``tests/contract/test_trace_store.py`` runs against both)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gno_core.errors import NotFoundError, ValidationError
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
    fit,
)

__all__ = ["InMemoryTraceStore"]


@dataclass
class _Trace:
    seq: int
    header: TraceHeader
    runs: list[TraceRun] = field(default_factory=list)
    events: list[TraceEvent] = field(default_factory=list)
    judgments: list[TraceJudgment] = field(default_factory=list)


class InMemoryTraceStore:
    def __init__(self) -> None:
        self._traces: dict[str, _Trace] = {}  # insertion order: oldest first
        self._exports: list[TraceExport] = []
        self._ids = 0

    def _next(self) -> int:
        self._ids += 1
        return self._ids

    def _evict(self, retention: TraceRetention, now_ns: int, *, room: int, keep: str = "") -> int:
        gone = [t for t, v in self._traces.items() if v.header.expires_ns <= now_ns and t != keep]
        others = [t for t in self._traces if t != keep and t not in gone]
        excess = len(self._traces) - len(gone) + room - retention.max_traces
        if excess > 0:
            gone += others[:excess]
            others = others[excess:]
        total = sum(v.header.size_bytes for t, v in self._traces.items() if t not in gone)
        for t in others:
            if total <= retention.max_bytes:
                break
            gone.append(t)
            total -= self._traces[t].header.size_bytes
        for t in gone:
            del self._traces[t]
        return len(gone)

    def open_trace(self, trace: NewTrace, retention: TraceRetention) -> TraceHeader:
        self._evict(retention, trace.created_ns, room=1)
        header = TraceHeader(
            trace_id="trc_" + secrets.token_hex(16),
            tool=trace.tool,
            redaction_mode=trace.redaction_mode,
            query_digest=trace.query_digest,
            query_shape=dict(trace.query_shape),
            filters=dict(trace.filters),
            fingerprints=dict(trace.fingerprints),
            created_ns=trace.created_ns,
            expires_ns=trace.created_ns + retention.max_age_ns,
            status="open",
            query_text=trace.query_text,
            records=0,
            size_bytes=trace.size,
            truncated=False,
        )
        self._traces[header.trace_id] = _Trace(self._next(), header)
        return header

    def record(
        self,
        trace_id: str,
        run: NewRun,
        events: Sequence[NewEvent],
        retention: TraceRetention,
        now_ns: int,
    ) -> int | None:
        t = self._traces.get(trace_id)
        if t is None or t.header.status != "open" or t.header.expires_ns <= now_ns:
            return None
        kept, size = fit(
            run,
            events,
            retention.max_records_per_trace - t.header.records,
            retention.max_bytes - t.header.size_bytes,
        )
        if size == 0:
            t.header = replace(t.header, truncated=True)
            return None
        run_id = self._next()
        t.runs.append(
            TraceRun(run_id, trace_id, run.kind, run.mode, run.status, dict(run.detail), now_ns)
        )
        for e in kept:
            t.events.append(
                TraceEvent(
                    self._next(),
                    trace_id,
                    run_id,
                    e.kind,
                    e.docid,
                    e.uri,
                    e.rank,
                    e.score,
                    e.start_line,
                    e.end_line,
                )
            )
        t.header = replace(
            t.header,
            records=t.header.records + 1 + len(kept),
            size_bytes=t.header.size_bytes + size,
            truncated=t.header.truncated or len(kept) < len(events),
        )
        self._evict(retention, now_ns, room=0, keep=trace_id)
        return run_id

    def finish(self, trace_id: str, status: TraceStatus) -> bool:
        t = self._traces.get(trace_id)
        if t is None or t.header.status != "open":
            return False
        final: TraceStatus = "partial" if t.header.truncated and status == "completed" else status
        t.header = replace(t.header, status=final)
        return True

    def header(self, trace_id: str) -> TraceHeader | None:
        t = self._traces.get(trace_id)
        return None if t is None else t.header

    def headers(self, *, before: str | None = None, limit: int = 50) -> list[TraceHeader]:
        newest = list(reversed(self._traces.values()))
        if before is not None:
            cut = self._traces.get(before)
            newest = [t for t in newest if cut is not None and t.seq < cut.seq]
        return [t.header for t in newest[:limit]]

    def runs(self, trace_id: str) -> list[TraceRun]:
        t = self._traces.get(trace_id)
        return [] if t is None else list(t.runs)

    def events(self, trace_id: str, *, limit: int = 10_000) -> list[TraceEvent]:
        t = self._traces.get(trace_id)
        return [] if t is None else t.events[:limit]

    def add_judgment(self, judgment: NewJudgment) -> tuple[TraceJudgment, bool]:
        t = self._traces.get(judgment.trace_id)
        if t is None:
            raise NotFoundError("No such retrieval trace", details={"traceId": judgment.trace_id})
        for stored in t.judgments:
            if stored.idempotency_key == judgment.idempotency_key:
                judgment.check_replay(stored)
                return stored, False
        document = judgment.document
        if judgment.event_id is not None:
            event = next((e for e in t.events if e.event_id == judgment.event_id), None)
            if event is None:
                raise ValidationError(
                    f"Event {judgment.event_id} is not recorded evidence of this trace",
                    details={"eventId": judgment.event_id},
                )
            document = event.docid
        made = TraceJudgment(
            self._next(),
            judgment.trace_id,
            judgment.label,
            judgment.idempotency_key,
            judgment.event_id,
            document,
            judgment.created_ns,
        )
        t.judgments.append(made)
        return made, True

    def judgments(self, trace_id: str) -> list[TraceJudgment]:
        t = self._traces.get(trace_id)
        return [] if t is None else list(t.judgments)

    def add_export(self, export: NewExport) -> tuple[TraceExport, bool]:
        for stored in self._exports:
            if (stored.format, stored.digest) == (export.format, export.digest):
                return stored, False
        made = TraceExport(
            self._next(),
            export.format,
            export.trace_ids,
            export.digest,
            export.size_bytes,
            export.created_ns,
        )
        self._exports.append(made)
        return made, True

    def exports(self, trace_id: str) -> list[TraceExport]:
        if trace_id not in self._traces:
            return []
        return [e for e in self._exports if trace_id in e.trace_ids]

    def delete(self, trace_id: str) -> bool:
        return self._traces.pop(trace_id, None) is not None

    def purge(self) -> int:
        count = len(self._traces)
        self._traces.clear()
        self._exports.clear()
        return count

    def enforce(self, retention: TraceRetention, now_ns: int) -> int:
        return self._evict(retention, now_ns, room=0)

    def usage(self) -> TraceUsage:
        heads = [t.header for t in self._traces.values()]
        return TraceUsage(
            len(heads), sum(h.records for h in heads), sum(h.size_bytes for h in heads)
        )
