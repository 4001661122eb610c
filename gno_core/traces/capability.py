"""``Traces``: the retrieval-trace use cases over one index's ``TraceStore``.

Recording is opt-in (``retrievalTraces.enabled``): when it is off, ``begin`` reads the setting
and returns None, and nothing else happens (no id, no digest, no fingerprint, no write). When
it is on, a retrieval opens a trace and records its ranked results; the trace stays ``open``
for ``OPEN_SECONDS`` after its last record so that a ``get`` with its id can add the exact
span it returned, and is settled (``completed``, or ``partial`` when records were dropped) on
the next read of the store after that.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gno_core.errors import NotFoundError
from gno_core.traces.values import (
    NewEvent,
    NewJudgment,
    NewRun,
    NewTrace,
    TraceHeader,
    TraceJudgment,
    TraceRetention,
)

if TYPE_CHECKING:
    from gno_core.config import RetrievalTracesConfig
    from gno_core.index_handle import IndexHandle
    from gno_core.ports.traces import TraceStore

__all__ = [
    "OPEN_SECONDS",
    "TraceDetail",
    "Traces",
    "capsule_events",
    "filters_of",
    "hit_events",
    "query_digest",
    "result_events",
]

#: How long a trace stays open after its last record for a ``get`` to continue it.
OPEN_SECONDS = 300
NS = 1_000_000_000


def query_digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()


#: Request fields that are text the person typed (kept only as the query in ``replay`` mode).
_TEXT_FIELDS = frozenset({"query", "goal", "intent", "query_modes", "project_hints", "ref"})
_FILTER_FIELDS = (
    "collection", "limit", "min_score", "lang", "exclude", "since", "until", "categories",
    "author", "tags_all", "tags_any", "path_prefix", "filter",
)  # fmt: skip


def filters_of(request: Any) -> dict[str, Any]:
    """The filters of a retrieval request (a pydantic request or a plain one), without the
    text fields, JSON values only."""
    dump = getattr(request, "model_dump", None)
    if callable(dump):
        values: dict[str, Any] = dump(mode="json", exclude_defaults=True)
        return {k: v for k, v in values.items() if k not in _TEXT_FIELDS}
    out: dict[str, Any] = {}
    for name in _FILTER_FIELDS:
        value = getattr(request, name, None)
        if value is not None and not callable(value):
            out[name] = value if isinstance(value, str | int | float | bool | list) else str(value)
    return out


def result_events(wire: dict[str, Any]) -> list[NewEvent]:
    """The ranked results of a ``search-results`` answer in its wire form."""
    events = []
    for rank, hit in enumerate(wire.get("results", []), 1):
        span = hit.get("snippetRange") or {}
        line = hit.get("line")
        events.append(
            NewEvent(
                "result",
                hit["docid"],
                hit["uri"],
                rank,
                hit.get("score"),
                span.get("startLine", line),
                span.get("endLine", line),
            )
        )
    return events


def capsule_events(wire: dict[str, Any]) -> list[NewEvent]:
    """The evidence passages of a context capsule (or of an Ask answer's capsule), in order."""
    capsule = wire.get("verification", {}).get("capsule", wire) if "verification" in wire else wire
    return [
        NewEvent(
            "result",
            item["docid"],
            item["uri"],
            item.get("retrievalRank", rank),
            None,
            item["startLine"],
            item["endLine"],
        )
        for rank, item in enumerate(capsule.get("evidence", []), 1)
    ]


def hit_events(hits: Sequence[Any]) -> list[NewEvent]:
    """Plain ranked hits (``RankedHit``: document, score, uri, passage) as result events."""
    return [
        NewEvent(
            "result",
            h.document.docid,
            h.uri,
            rank,
            h.score,
            h.passage.start_line if h.passage else None,
            h.passage.end_line if h.passage else None,
        )
        for rank, h in enumerate(hits, 1)
    ]


class TraceDetail:
    """One trace with everything it owns, as ``show`` reads it."""

    def __init__(self, store: TraceStore, header: TraceHeader, limit: int) -> None:
        self.header = header
        self.runs = store.runs(header.trace_id)
        self.events = store.events(header.trace_id, limit=limit)
        self.judgments = store.judgments(header.trace_id)
        self.exports = store.exports(header.trace_id)
        self.event_total = max(header.records - len(self.runs), 0)


class Traces:
    def __init__(
        self, handle: IndexHandle, fingerprint: Callable[[], str | None] = lambda: None
    ) -> None:
        self._handle = handle
        self._fingerprint = fingerprint

    # -- settings ---------------------------------------------------------------------------

    def enabled(self) -> bool:
        """Whether tracing is on, from the configuration's plain section (no model built)."""
        raw = self._handle.config.section("retrieval_traces")
        return isinstance(raw, dict) and bool(raw.get("enabled"))

    def settings(self) -> RetrievalTracesConfig | None:
        """The trace settings when tracing is on, else None."""
        # Off is the common case: decided from the plain section, no model built.
        raw = self._handle.config.section("retrieval_traces")
        if not isinstance(raw, dict) or not raw.get("enabled"):
            return None
        return self._handle.load_config().retrieval_traces

    def retention(self) -> TraceRetention:
        return _retention(self._handle.load_config_or_default().retrieval_traces)

    def now_ns(self) -> int:
        return self._handle.clock.now_ns()

    @property
    def store(self) -> TraceStore:
        return self._handle.index.traces

    # -- recording ----------------------------------------------------------------------------

    def begin(
        self, tool: str, query: str, filters: dict[str, Any], mode: str, *, keep_text: bool = True
    ) -> tuple[str, TraceRetention] | None:
        """Open a trace for one retrieval call; None (and no work) when tracing is off."""
        raw = self._handle.config.section("retrieval_traces")
        if not isinstance(raw, dict) or not raw.get("enabled"):
            return None
        config = self._handle.load_config()  # once: the settings and the fingerprint
        settings = config.retrieval_traces
        retention = _retention(settings)
        fingerprints = {
            "pipeline": f"{tool}:{mode}",
            "config": hashlib.sha256(config.model_dump_json().encode()).hexdigest()[:16],
            "index": hashlib.sha256(self._handle.provider.location.encode()).hexdigest()[:16],
        }
        model = self._fingerprint() if mode in ("vector", "hybrid") else None
        if model:
            fingerprints["model"] = model
        replay = settings.redaction_mode == "replay" and keep_text
        trace = NewTrace(
            tool=tool,
            redaction_mode="replay" if replay else "metadata",
            query_digest=query_digest(query),
            query_shape={"chars": len(query), "terms": len(query.split())},
            filters={k: v for k, v in sorted(filters.items()) if v not in (None, [], {}, "")},
            fingerprints=fingerprints,
            created_ns=self._handle.clock.now_ns(),
            query_text=query if replay else None,
        )
        return self.store.open_trace(trace, retention).trace_id, retention

    def retrieval(
        self,
        tool: str,
        query: str,
        filters: dict[str, Any],
        mode: str,
        hits: Sequence[NewEvent],
        kind: str = "retrieval",
    ) -> str | None:
        """Open a trace for a finished retrieval and record its ranked results; its id, or None
        when tracing is off."""
        opened = self.begin(tool, query, filters, mode)
        if opened is None:
            return None
        trace_id, retention = opened
        run = NewRun(kind, mode, detail={"results": len(hits)})  # type: ignore[arg-type]
        store = self.store
        if store.record(trace_id, run, hits, retention, self._handle.clock.now_ns()) is not None:
            return trace_id  # a trace always outlives its own record
        # No dead id: retention may have had to drop the trace at once.
        return trace_id if store.header(trace_id) is not None else None

    def get(
        self, trace_id: str | None, ref: str, docid: str, uri: str, start: int, end: int
    ) -> str | None:
        """A ``get`` that returned lines ``start``-``end``: added to the open trace
        ``trace_id`` when there is one, else recorded as a trace of its own (the ref is kept
        as a digest only); None when tracing is off or no line was returned."""
        if end < start or start < 1 or not self.enabled():
            return None
        if trace_id is not None:
            recorded = self.opened(trace_id, docid, uri, start, end)
            if recorded is not None:
                return recorded
        opened = self.begin("gno_get", ref, {}, "get", keep_text=False)
        if opened is None:
            return None
        new_id, retention = opened
        event = NewEvent("opened", docid, uri, start_line=start, end_line=end)
        run = NewRun("get", "get", detail={"lines": end - start + 1})
        store = self.store
        store.record(new_id, run, [event], retention, self._handle.clock.now_ns())
        return new_id if store.header(new_id) is not None else None

    def opened(self, trace_id: str, docid: str, uri: str, start: int, end: int) -> str | None:
        """Record the exact span a ``get`` returned in an open trace; the trace id when it was
        recorded, None when tracing is off or the trace is not open (nothing is fabricated)."""
        settings = self.settings()
        if settings is None or end < start or start < 1:
            return None
        retention = _retention(settings)  # the settings already loaded: no second load
        now = self._handle.clock.now_ns()
        header = self.store.header(trace_id)
        if header is None or header.status != "open" or self._idle(header, now):
            return None
        event = NewEvent("opened", docid, uri, start_line=start, end_line=end)
        run = NewRun("get", "get", detail={"lines": end - start + 1})
        recorded = self.store.record(trace_id, run, [event], retention, now)
        return trace_id if recorded is not None else None

    def _idle(self, header: TraceHeader, now: int) -> bool:
        runs = self.store.runs(header.trace_id)
        last = runs[-1].created_ns if runs else header.created_ns
        return now - last >= OPEN_SECONDS * NS

    # -- reads --------------------------------------------------------------------------------

    def settle(self) -> None:
        """Finish the open traces idle for ``OPEN_SECONDS`` and apply retention."""
        now = self._handle.clock.now_ns()
        store = self.store
        store.enforce(self.retention(), now)
        before: str | None = None
        while True:
            page = store.headers(before=before, limit=200)
            for header in page:
                if header.status == "open" and self._idle(header, now):
                    store.finish(header.trace_id, "completed")
            if len(page) < 200:
                return
            before = page[-1].trace_id

    def list(self, *, cursor: str | None = None, limit: int = 50) -> list[TraceHeader]:
        self.settle()
        return self.store.headers(before=cursor, limit=limit)

    def require(self, trace_id: str) -> TraceHeader:
        header = self.store.header(trace_id)
        if header is None:
            raise NotFoundError(
                f"No retrieval trace {trace_id[:40]!r}", details={"traceId": trace_id[:40]}
            )
        return header

    def show(self, trace_id: str, *, limit: int = 1000) -> TraceDetail:
        self.settle()
        return TraceDetail(self.store, self.require(trace_id), limit)

    # -- mutations ----------------------------------------------------------------------------

    def label(
        self,
        trace_id: str,
        label: str,
        idempotency_key: str | None,
        *,
        event_id: int | None = None,
        document: str | None = None,
    ) -> tuple[TraceJudgment, bool]:
        self.settle()
        self.require(trace_id)
        if idempotency_key is None:  # the same judgment again is the same key
            said = f"{label}\0{event_id}\0{document}"
            idempotency_key = "auto-" + hashlib.sha256(said.encode()).hexdigest()[:32]
        judgment = NewJudgment(
            trace_id,
            label,  # type: ignore[arg-type]
            idempotency_key,
            self._handle.clock.now_ns(),
            event_id=event_id,
            document=document,
        )
        return self.store.add_judgment(judgment)

    def delete(self, trace_id: str) -> bool:
        return self.store.delete(trace_id)

    def purge(self) -> int:
        return self.store.purge()


def _retention(settings: RetrievalTracesConfig) -> TraceRetention:
    r = settings.retention
    return TraceRetention(r.max_age_days, r.max_traces, r.max_records_per_trace, r.max_bytes)
