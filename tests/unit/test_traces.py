"""Retrieval traces through the real ``Gno`` over fakes: off by default (no id, no write, no
index opened for it), on in ``metadata`` mode (no query text) or ``replay`` mode (the text),
the settle window, and judgments through the facade."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.bootstrap.adapters import Adapters
from gno_core.config import GnoConfig, RetrievalTracesConfig
from gno_core.errors import ConflictError, NotFoundError, ValidationError
from gno_core.facade import Gno
from gno_core.traces.capability import OPEN_SECONDS
from gno_core.traces.values import NewEvent, NewJudgment, TraceEvent, TraceJudgment

NOTES = {"a.md": "# Alpha\n\nalpha one\n\nalpha two\n", "b.md": "# Beta\n\nbeta\n"}
HITS = [
    NewEvent("result", "#aaaaaa", "gno://notes/a.md", 1, 0.9, 1, 3),
    NewEvent("result", "#bbbbbb", "gno://notes/b.md", 2, 0.4, 1, 2),
]


def tracing(adapters: Adapters, **settings: object) -> None:
    config = adapters.config.load()
    adapters.config.save(
        config.model_copy(update={"retrieval_traces": RetrievalTracesConfig(**settings)})  # type: ignore[arg-type]
    )


@pytest.fixture
def adapters() -> Adapters:
    return in_memory(NOTES)


@pytest.fixture
def gno(adapters: Adapters) -> Iterator[Gno]:
    with build(adapters) as g:
        g.sync()
        yield g


def test_config_defaults_off_in_metadata_mode_with_the_reference_bounds() -> None:
    traces = GnoConfig().retrieval_traces
    assert not traces.enabled and traces.redaction_mode == "metadata"
    r = traces.retention
    assert (r.max_age_days, r.max_traces, r.max_records_per_trace, r.max_bytes) == (
        30,
        1000,
        10_000,
        16 * 1024 * 1024,
    )
    parsed = GnoConfig.model_validate(
        {"retrievalTraces": {"enabled": True, "redactionMode": "replay", "retention": {}}}
    )
    assert parsed.retrieval_traces.redaction_mode == "replay"
    with pytest.raises(ValueError):
        GnoConfig.model_validate({"retrievalTraces": {"retention": {"maxBytes": 1024}}})


def test_off_no_trace_id_and_no_write(gno: Gno) -> None:
    assert gno.trace_retrieval("gno_query", "alpha", {}, "hybrid", HITS) is None
    assert gno.trace_opened("trc_" + "0" * 32, "#aaaaaa", "gno://notes/a.md", 1, 2) is None
    assert gno.handle.index.traces.usage().traces == 0


def test_off_does_not_open_the_index(adapters: Adapters) -> None:
    with build(adapters) as g:
        assert g.trace_retrieval("gno_search", "alpha", {}, "bm25", HITS) is None
        assert g.handle._index is None  # no store, no fingerprint, nothing written


def test_metadata_mode_keeps_digest_and_shape_never_text(adapters: Adapters, gno: Gno) -> None:
    tracing(adapters, enabled=True)
    trace_id = gno.trace_retrieval(
        "gno_query", "alpha secret words", {"collection": "notes", "tags": []}, "hybrid", HITS
    )
    assert trace_id is not None
    detail = gno.tracing.show(trace_id)
    head = detail.header
    assert head.query_text is None and head.query_shape == {"chars": 18, "terms": 3}
    assert head.filters == {"collection": "notes"}
    assert head.fingerprints["pipeline"] == "gno_query:hybrid" and "model" in head.fingerprints
    assert [e.docid for e in detail.events] == ["#aaaaaa", "#bbbbbb"]
    assert "secret" not in repr(head)


def test_replay_mode_keeps_the_query(adapters: Adapters, gno: Gno) -> None:
    tracing(adapters, enabled=True, redaction_mode="replay")
    trace_id = gno.trace_retrieval("gno_search", "alpha", {}, "bm25", HITS)
    assert trace_id is not None and gno.tracing.show(trace_id).header.query_text == "alpha"


def test_get_continues_an_open_trace_then_it_settles(adapters: Adapters, gno: Gno) -> None:
    tracing(adapters, enabled=True)
    trace_id = gno.trace_retrieval("gno_search", "alpha", {}, "bm25", HITS)
    assert trace_id is not None
    assert gno.trace_opened(trace_id, "#aaaaaa", "gno://notes/a.md", 3, 5) == trace_id
    assert gno.trace_opened(trace_id, "#aaaaaa", "gno://notes/a.md", 5, 3) is None  # no span
    assert gno.trace_opened("trc_" + "1" * 32, "#aaaaaa", "gno://notes/a.md", 1, 1) is None
    shown = gno.tracing.show(trace_id)
    assert shown.header.status == "open"
    assert [(e.kind, e.start_line, e.end_line) for e in shown.events][-1] == ("opened", 3, 5)
    adapters.clock.advance(OPEN_SECONDS)  # type: ignore[attr-defined]
    assert gno.trace_opened(trace_id, "#aaaaaa", "gno://notes/a.md", 1, 1) is None
    assert gno.tracing.show(trace_id).header.status == "completed"


def test_labels_through_the_facade(adapters: Adapters, gno: Gno) -> None:
    tracing(adapters, enabled=True)
    trace_id = gno.trace_retrieval("gno_search", "alpha", {}, "bm25", HITS)
    assert trace_id is not None
    event = gno.tracing.show(trace_id).events[0]
    judgment, made = gno.tracing.label(trace_id, "relevant", "k", event_id=event.event_id)
    assert made and judgment.document == "#aaaaaa"
    with pytest.raises(ValidationError):
        gno.tracing.label(trace_id, "missing_expected", "k2", document="/etc/passwd")
    with pytest.raises(NotFoundError):
        gno.tracing.label("trc_" + "2" * 32, "relevant", "k", event_id=event.event_id)
    assert [h.trace_id for h in gno.tracing.list()] == [trace_id]
    assert gno.tracing.delete(trace_id) and gno.tracing.list() == []


def closed_trace(adapters: Adapters, gno: Gno, query: str = "alpha") -> str:
    from gno_core.contracts.requests import SearchRequest

    request = SearchRequest(query=query)
    trace_id = gno.trace_results("gno_search", request, gno.search(request))
    assert trace_id is not None
    return trace_id


def test_exports_refuse_missing_and_open_then_are_deterministic(
    adapters: Adapters, gno: Gno
) -> None:
    import json

    from gno_core.contracts.trace_requests import TraceExportRequest
    from gno_core.errors import EgressDeniedError

    tracing(adapters, enabled=True)
    trace_id = closed_trace(adapters, gno)
    with pytest.raises(NotFoundError):
        gno.trace_export(TraceExportRequest(trace_ids=[trace_id, "trc_" + "9" * 32]))
    with pytest.raises(ValidationError, match="Open traces"):
        gno.trace_export(TraceExportRequest(trace_ids=[trace_id]))
    event = gno.tracing.show(trace_id).events[0]
    gno.tracing.label(trace_id, "irrelevant", None, event_id=event.event_id)
    gno.tracing.label(trace_id, "missing_expected", None, document="gno://notes/b.md")
    adapters.clock.advance(OPEN_SECONDS)  # type: ignore[attr-defined]
    # Denied by policy (a remote peer, no authentication): nothing is written.
    with pytest.raises(EgressDeniedError):
        gno.trace_export(TraceExportRequest(trace_ids=[trace_id], format="qrels"), zone="remote")
    assert gno.tracing.show(trace_id).exports == []
    first = gno.trace_export(TraceExportRequest(trace_ids=[trace_id], format="qrels"))
    again = gno.trace_export(TraceExportRequest(trace_ids=[trace_id], format="qrels"))
    assert first.created and not again.created and first.content == again.content
    qrels = json.loads(first.content)
    (row,) = qrels["traces"]
    assert row["status"] == "completed"
    assert {(q["document"], q["relevance"]) for q in row["qrels"]} == {
        (event.docid, 0),
        ("gno://notes/b.md", 1),
    }
    assert first.lineage is not None and first.lineage["effectivePolicy"] == "local_only"
    receipt = gno.trace_export(TraceExportRequest(trace_ids=[trace_id]))
    assert json.loads(receipt.content)["traces"][0]["trace"]["traceId"] == trace_id
    assert len(gno.tracing.show(trace_id).exports) == 2


def test_a_partial_trace_is_exported_with_its_status_and_no_added_judgment(
    adapters: Adapters, gno: Gno
) -> None:
    import json

    from gno_core.contracts.trace_requests import TraceExportRequest

    tracing(adapters, enabled=True)
    trace_id = closed_trace(adapters, gno)
    gno.handle.index.traces.finish(trace_id, "failed")
    out = json.loads(
        gno.trace_export(TraceExportRequest(trace_ids=[trace_id], format="qrels")).content
    )
    assert out["traces"][0]["status"] == "failed" and out["traces"][0]["qrels"] == []
    assert out["trec"] == []


def test_replay_reports_each_trace_against_its_judgments(adapters: Adapters, gno: Gno) -> None:
    from gno_core.contracts.trace_requests import TraceReplayRequest

    tracing(adapters, enabled=True, redaction_mode="replay")
    found = closed_trace(adapters, gno, "alpha")
    # judge the second-ranked result relevant, the first irrelevant: bm25 again is unchanged
    events = gno.tracing.show(found).events
    gno.tracing.label(found, "irrelevant", None, event_id=events[0].event_id)
    if len(events) > 1:
        gno.tracing.label(found, "relevant", None, event_id=events[1].event_id)
    else:
        gno.tracing.label(found, "missing_expected", None, document="gno://notes/b.md")
    tracing(adapters, enabled=True)  # metadata mode from now on: the next trace is unreplayable
    hidden = closed_trace(adapters, gno, "beta")
    ev = gno.tracing.show(hidden).events[0]
    gno.tracing.label(hidden, "relevant", None, event_id=ev.event_id)
    config_before = adapters.config.load()
    res = gno.trace_replay(TraceReplayRequest(mode="bm25"))
    assert adapters.config.load() == config_before  # replay never changes configuration
    by_id = {t.trace_id: t for t in res.traces}
    assert by_id[found].outcome == "unchanged"
    assert by_id[found].ndcg_before == by_id[found].ndcg_after
    assert by_id[hidden].outcome == "unreplayable" and "metadata" in (by_id[hidden].reason or "")
    assert (res.counts.unchanged, res.counts.unreplayable) == (1, 1)


def test_replay_arithmetic_improved_regressed_unchanged() -> None:
    from gno_core.traces.exports import ndcg, outcome, recall

    judged = {"#aaaaaa": 1, "#bbbbbb": 0}
    top = [("#aaaaaa", "gno://n/a.md"), ("#bbbbbb", "gno://n/b.md")]
    low = top[::-1]
    assert ndcg(top, judged, 10) == 1.0 and ndcg(low, judged, 10) < 1.0
    assert outcome(ndcg(low, judged, 10), ndcg(top, judged, 10), 0.01) == "improved"
    assert outcome(ndcg(top, judged, 10), ndcg(low, judged, 10), 0.01) == "regressed"
    assert outcome(0.5, 0.505, 0.01) == "unchanged"
    assert recall(low, judged, 1) == 0.0 and recall(low, judged, 2) == 1.0
    assert ndcg(top, {"gno://n/a.md": 1}, 10) == 1.0  # a judged URI counts as its document


def test_replay_with_hybrid_and_expansion_runs_the_judged_trace(
    adapters: Adapters, gno: Gno
) -> None:
    from gno_core.contracts.trace_requests import TraceReplayRequest

    tracing(adapters, enabled=True, redaction_mode="replay")
    found = closed_trace(adapters, gno, "alpha")
    event = gno.tracing.show(found).events[0]
    gno.tracing.label(found, "relevant", None, event_id=event.event_id)
    res = gno.trace_replay(TraceReplayRequest(mode="hybrid", expand=True))
    (item,) = res.traces
    assert item.outcome != "unreplayable" and item.ndcg_after is not None


def test_a_judgment_replay_must_say_the_same_thing() -> None:
    stored = TraceJudgment(7, "trc_x", "relevant", "k1", 3, "#aaaaaa", 0)
    NewJudgment("trc_x", "relevant", "k1", 5, event_id=3).check_replay(stored)  # same: no error
    for other in (
        NewJudgment("trc_x", "irrelevant", "k1", 5, event_id=3),
        NewJudgment("trc_x", "relevant", "k1", 5, event_id=4),
    ):
        with pytest.raises(ConflictError) as caught:
            other.check_replay(stored)
        assert caught.value.details == {"idempotencyKey": "k1"}
    missing = TraceJudgment(8, "trc_x", "missing_expected", "k2", None, "#abcdef", 0)
    NewJudgment("trc_x", "missing_expected", "k2", 5, document="#abcdef").check_replay(missing)
    with pytest.raises(ConflictError):
        NewJudgment("trc_x", "missing_expected", "k2", 5, document="#bbbbbb").check_replay(missing)


def test_recording_an_opened_span_reads_the_configuration_once(
    adapters: Adapters, gno: Gno, monkeypatch: pytest.MonkeyPatch
) -> None:
    tracing(adapters, enabled=True)
    trace_id = gno.trace_retrieval("gno_search", "alpha", {}, "bm25", HITS)
    assert trace_id is not None
    config = gno.handle.config
    load = config.load
    loads: list[int] = []

    def counted() -> GnoConfig:
        loads.append(1)
        return load()

    monkeypatch.setattr(config, "load", counted)
    assert gno.trace_opened(trace_id, "#aaaaaa", "gno://notes/a.md", 3, 5) == trace_id
    assert len(loads) == 1


def test_a_receipt_export_reads_each_trace_s_events_once(
    adapters: Adapters, gno: Gno, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gno_core.contracts.trace_requests import TraceExportRequest

    tracing(adapters, enabled=True)
    ids = [closed_trace(adapters, gno), closed_trace(adapters, gno)]
    adapters.clock.advance(OPEN_SECONDS)  # type: ignore[attr-defined]
    store = gno.tracing.store
    events = store.events
    read: list[str] = []

    def counted(trace_id: str, *, limit: int = 10_000) -> list[TraceEvent]:
        read.append(trace_id)
        return events(trace_id, limit=limit)

    monkeypatch.setattr(store, "events", counted)
    receipt = gno.trace_export(TraceExportRequest(trace_ids=ids))
    assert sorted(read) == sorted(ids)
    assert len(receipt.export.trace_ids) == 2
