"""Contract suite of the retrieval-trace store (``TraceStore``): headers, runs, events,
judgments, exports and retention, run against the in-memory and the SQLite index."""

from __future__ import annotations

import pytest

from gno_core.errors import ConflictError, NotFoundError, ValidationError
from gno_core.traces.values import (
    NS_PER_DAY,
    NewEvent,
    NewExport,
    NewJudgment,
    NewRun,
    NewTrace,
    TraceRetention,
)
from tests.contract.store_support import Store

T0 = 1_767_225_600_000_000_000
DEFAULT = TraceRetention()


def new_trace(created_ns: int = T0, *, mode: str = "metadata", text: str | None = None) -> NewTrace:
    return NewTrace(
        tool="gno_query",
        redaction_mode=mode,  # type: ignore[arg-type]
        query_digest="d" * 64,
        query_shape={"chars": 12, "terms": 2},
        filters={"collection": "notes"},
        fingerprints={"pipeline": "hybrid-v1", "config": "c" * 16},
        created_ns=created_ns,
        query_text=text,
    )


def hits(n: int, start: int = 0) -> list[NewEvent]:
    return [
        NewEvent("result", f"#{i:06x}", f"gno://notes/d{i}.md", i + 1 - start, 0.5, 1, 3)
        for i in range(start, start + n)
    ]


def traced(store: Store, n: int = 3, **kw: object) -> str:
    head = store.traces.open_trace(new_trace(**kw), DEFAULT)  # type: ignore[arg-type]
    assert store.traces.record(head.trace_id, NewRun("retrieval", "hybrid"), hits(n), DEFAULT, T0)
    return head.trace_id


def test_header_runs_and_events_round_trip(store: Store) -> None:
    head = store.traces.open_trace(new_trace(), DEFAULT)
    assert head.trace_id.startswith("trc_") and len(head.trace_id) == 36
    assert head.status == "open" and head.expires_ns == T0 + 30 * NS_PER_DAY
    assert head.query_text is None and head.filters == {"collection": "notes"}
    run = store.traces.record(head.trace_id, NewRun("retrieval", "bm25"), hits(3), DEFAULT, T0)
    assert run is not None
    opened = NewEvent("opened", "#000001", "gno://notes/d1.md", start_line=4, end_line=9)
    assert store.traces.record(head.trace_id, NewRun("get", "get"), [opened], DEFAULT, T0)
    got = store.traces.header(head.trace_id)
    assert got is not None and got.records == 6 and got.size_bytes > head.size_bytes
    assert [r.kind for r in store.traces.runs(head.trace_id)] == ["retrieval", "get"]
    events = store.traces.events(head.trace_id)
    assert [(e.kind, e.docid, e.run_id) for e in events] == [
        ("result", "#000000", run),
        ("result", "#000001", run),
        ("result", "#000002", run),
        ("opened", "#000001", events[-1].run_id),
    ]
    assert (events[-1].start_line, events[-1].end_line) == (4, 9)
    assert store.traces.finish(head.trace_id, "completed")
    assert not store.traces.finish(head.trace_id, "failed")  # terminal states are final
    after = store.traces.header(head.trace_id)
    assert after is not None and after.status == "completed"
    # A finished trace takes no more records.
    assert store.traces.record(head.trace_id, NewRun("get", "get"), [], DEFAULT, T0) is None


def test_metadata_mode_never_keeps_query_text_replay_mode_does(store: Store) -> None:
    with pytest.raises(ValidationError):
        new_trace(text="secret words")
    kept = store.traces.open_trace(new_trace(mode="replay", text="what is x"), DEFAULT)
    header = store.traces.header(kept.trace_id)
    assert header is not None and header.query_text == "what is x"


def test_listing_is_newest_first_and_pages_by_trace_id(store: Store) -> None:
    ids = [store.traces.open_trace(new_trace(T0 + i), DEFAULT).trace_id for i in range(5)]
    page = store.traces.headers(limit=2)
    assert [h.trace_id for h in page] == ids[::-1][:2]
    rest = store.traces.headers(before=page[-1].trace_id, limit=10)
    assert [h.trace_id for h in rest] == ids[::-1][2:]


def test_judgments_point_at_recorded_evidence_and_are_idempotent(store: Store) -> None:
    trace_id = traced(store)
    other = traced(store)
    event = store.traces.events(trace_id)[1]
    foreign = store.traces.events(other)[0]
    j, made = store.traces.add_judgment(
        NewJudgment(trace_id, "relevant", "k1", T0, event_id=event.event_id)
    )
    assert made and j.document == event.docid
    again, made = store.traces.add_judgment(
        NewJudgment(trace_id, "relevant", "k1", T0 + 5, event_id=event.event_id)
    )
    assert not made and again == j
    with pytest.raises(ConflictError):
        store.traces.add_judgment(
            NewJudgment(trace_id, "irrelevant", "k1", T0, event_id=event.event_id)
        )
    with pytest.raises(ValidationError):  # another trace's event is no evidence of this one
        store.traces.add_judgment(
            NewJudgment(trace_id, "irrelevant", "k2", T0, event_id=foreign.event_id)
        )
    with pytest.raises(NotFoundError):
        store.traces.add_judgment(NewJudgment("trc_" + "0" * 32, "relevant", "k", T0, event_id=1))
    missing, _ = store.traces.add_judgment(
        NewJudgment(trace_id, "missing_expected", "k3", T0, document="#abcdef")
    )
    assert missing.document == "#abcdef" and missing.event_id is None
    assert [x.label for x in store.traces.judgments(trace_id)] == ["relevant", "missing_expected"]


@pytest.mark.parametrize(
    "document", ["/home/me/notes/a.md", "the whole text of a note", "gno://notes/../etc", "#xyz"]
)
def test_missing_expected_takes_only_a_safe_document_identity(document: str) -> None:
    with pytest.raises(ValidationError):
        NewJudgment("trc_x", "missing_expected", "k", T0, document=document)


def test_relevant_needs_an_event_and_missing_expected_none() -> None:
    with pytest.raises(ValidationError):
        NewJudgment("trc_x", "relevant", "k", T0, document="#abcdef")
    with pytest.raises(ValidationError):
        NewJudgment("trc_x", "missing_expected", "k", T0, event_id=3, document="#abcdef")


def test_exports_are_receipts_found_by_each_trace(store: Store) -> None:
    a, b = traced(store), traced(store)
    receipt = NewExport("qrels", (a, b), "e" * 64, 120, T0)
    first, made = store.traces.add_export(receipt)
    again, made_again = store.traces.add_export(receipt)
    assert made and not made_again and first == again
    assert store.traces.exports(a) == [first] and store.traces.exports(b) == [first]
    assert store.traces.delete(a)
    assert store.traces.header(a) is None and store.traces.events(a) == []
    assert store.traces.exports(a) == [] and store.traces.exports(b) == [first]
    assert not store.traces.delete(a)


def test_purge_deletes_every_receipt(store: Store) -> None:
    a = traced(store)
    store.traces.add_export(NewExport("agentic-receipt", (a,), "f" * 64, 10, T0))
    traced(store)
    assert store.traces.purge() == 2
    assert store.traces.usage().traces == 0 and store.traces.headers() == []


def test_retention_by_age(store: Store) -> None:
    old = traced(store)
    later = T0 + 30 * NS_PER_DAY
    fresh = store.traces.open_trace(new_trace(later), DEFAULT)
    assert store.traces.header(old) is None and store.traces.header(fresh.trace_id) is not None
    assert store.traces.enforce(DEFAULT, later + 30 * NS_PER_DAY) == 1


def test_retention_by_count_drops_the_oldest(store: Store) -> None:
    bound = TraceRetention(max_traces=3)
    ids = [store.traces.open_trace(new_trace(T0 + i), bound).trace_id for i in range(5)]
    assert [h.trace_id for h in store.traces.headers()] == ids[:1:-1]
    assert store.traces.usage().traces == 3


def test_retention_by_records_per_trace_truncates_and_finishes_partial(store: Store) -> None:
    bound = TraceRetention(max_records_per_trace=5)
    head = store.traces.open_trace(new_trace(), bound)
    assert store.traces.record(head.trace_id, NewRun("retrieval", "bm25"), hits(3), bound, T0)
    assert store.traces.record(head.trace_id, NewRun("retrieval", "bm25"), hits(3), bound, T0)
    assert store.traces.record(head.trace_id, NewRun("get", "get"), hits(1), bound, T0) is None
    got = store.traces.header(head.trace_id)
    assert got is not None and got.records == 5 and got.truncated
    assert len(store.traces.events(head.trace_id)) == 3
    store.traces.finish(head.trace_id, "completed")
    done = store.traces.header(head.trace_id)
    assert done is not None and done.status == "partial"


def test_retention_by_bytes_drops_the_oldest_other_traces(store: Store) -> None:
    bound = TraceRetention(max_bytes=64 * 1024)
    ids = []
    for i in range(60):
        head = store.traces.open_trace(new_trace(T0 + i), bound)
        store.traces.record(head.trace_id, NewRun("retrieval", "bm25"), hits(40), bound, T0 + i)
        ids.append(head.trace_id)
        assert store.traces.usage().bytes <= bound.max_bytes
    kept = [h.trace_id for h in store.traces.headers(limit=100)]
    assert kept[0] == ids[-1] and ids[0] not in kept
    assert kept == ids[::-1][: len(kept)]  # the newest survive


def test_the_byte_floor_is_64_kib() -> None:
    with pytest.raises(ValidationError):
        TraceRetention(max_bytes=64 * 1024 - 1)
