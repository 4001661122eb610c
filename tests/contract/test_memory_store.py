"""Contract suite of the ``MemoryStore`` port, the fact writes of ``SyncLedger`` and the
``memory_scopes`` search filter, run against every adapter (memory, apsw)."""

from __future__ import annotations

from dataclasses import replace

from gno_core.domain import IndexedDocument, SearchFilters, SyncBatch
from gno_core.facts import FactRecord, InvalidFact
from gno_core.memory.records import content_hash, normalize_fact_text, record_id, render_fact
from gno_core.retrieval.query import parse_query
from tests.contract.store_support import Store, make_doc, put

CREATED = "2026-12-01T10:00:00Z"


def record(text: str, *scopes: str, supersedes: tuple[str, ...] = ()) -> FactRecord:
    normal = normalize_fact_text(text)
    digest = content_hash(normal)
    return FactRecord(
        record_id=record_id(digest, CREATED, "cli:alice", "ppid:1"),
        text=normal,
        scopes=scopes or ("ops",),
        caller="cli:alice",
        session="ppid:1",
        created_at=CREATED,
        content_hash=digest,
        supersedes=supersedes,
    )


def fact_doc(rel: str, fact: FactRecord | InvalidFact, collection: str = "mem") -> IndexedDocument:
    body = render_fact(fact) if isinstance(fact, FactRecord) else "broken fact\n"
    return replace(make_doc(rel, body, collection=collection), fact=fact)


def recall_paths(store: Store, query: str, *scopes: str, collection: str = "mem") -> list[str]:
    filters = SearchFilters(collections=(collection,), memory_scopes=scopes)
    return [h.document.rel_path for h in store.lexical.search(parse_query(query), filters, 10)]


def test_fact_records_round_trip_and_only_valid_active_ones_are_facts(store: Store) -> None:
    deploy = record("The deploy window is Tuesday", "ops", "project:gno")
    put(
        store,
        fact_doc("facts/2026-12-01/a.md", deploy),
        fact_doc("facts/2026-12-01/b.md", InvalidFact("MEMORY_BODY_EMPTY", "empty")),
        make_doc("notes.md", "an ordinary note", collection="mem"),
    )
    found = store.memory.facts(
        [("mem", "facts/2026-12-01/a.md"), ("mem", "facts/2026-12-01/b.md"), ("mem", "notes.md")]
    )
    assert list(found) == [("mem", "facts/2026-12-01/a.md")]
    stored = found[("mem", "facts/2026-12-01/a.md")]
    assert stored.record == deploy and not stored.superseded
    assert store.memory.count_facts(["mem"]) == (1, 0, 1)
    (diag,) = store.memory.diagnostics(["mem"], 10)
    assert (diag.rel_path, diag.problem.code) == ("facts/2026-12-01/b.md", "MEMORY_BODY_EMPTY")
    assert store.memory.diagnostics(["other"], 10) == []
    assert store.memory.facts_with_hash("mem", deploy.content_hash)[0].record == deploy
    assert store.memory.facts_with_hash("other", deploy.content_hash) == []


def test_the_scope_filter_keeps_current_facts_that_share_a_scope(store: Store) -> None:
    put(
        store,
        fact_doc("facts/d/ops.md", record("deploy window Tuesday", "ops")),
        fact_doc("facts/d/gno.md", record("deploy freeze in December", "project:gno")),
        fact_doc("facts/d/bad.md", InvalidFact("MEMORY_SCOPES_EMPTY", "x")),
        make_doc("deploy.md", "deploy notes, not a fact", collection="mem"),
    )
    assert recall_paths(store, "deploy", "ops") == ["facts/d/ops.md"]
    assert sorted(recall_paths(store, "deploy", "ops", "project:gno")) == [
        "facts/d/gno.md",
        "facts/d/ops.md",
    ]
    assert recall_paths(store, "deploy", "elsewhere") == []
    assert recall_paths(store, "deploy") == []  # no scope names nothing: no implicit global
    plain = store.lexical.search(parse_query("deploy"), SearchFilters(collections=("mem",)), 10)
    assert len(plain) == 3  # without the filter every document is searchable


def test_a_superseded_fact_leaves_recall_until_its_successor_goes(store: Store) -> None:
    old = record("standup at 9", "team")
    put(store, fact_doc("facts/d/old.md", old))
    assert recall_paths(store, "standup", "team") == ["facts/d/old.md"]
    new = record("standup at 10", "team", supersedes=("gno://mem/facts/d/old.md",))
    put(store, fact_doc("facts/d/new.md", new))
    assert recall_paths(store, "standup", "team") == ["facts/d/new.md"]
    assert store.memory.successors("mem", "facts/d/old.md") == [("mem", "facts/d/new.md")]
    assert store.memory.facts([("mem", "facts/d/old.md")])[("mem", "facts/d/old.md")].superseded
    assert store.memory.count_facts(["mem"]) == (1, 1, 0)
    # The successor's file goes: the old fact is current again (nothing is ever deleted).
    store.ledger.apply_batch(SyncBatch("mem", deactivate=("facts/d/new.md",)))
    assert recall_paths(store, "standup", "team") == ["facts/d/old.md"]
    assert store.memory.successors("mem", "facts/d/old.md") == []
    # A successor that is broken supersedes nothing.
    put(store, fact_doc("facts/d/new.md", InvalidFact("MEMORY_BODY_EMPTY", "x")))
    assert recall_paths(store, "standup", "team") == ["facts/d/old.md"]


def test_rewriting_a_fact_file_replaces_its_record(store: Store) -> None:
    put(store, fact_doc("facts/d/a.md", record("lunch at noon", "team")))
    put(store, fact_doc("facts/d/a.md", record("lunch at one", "home")))
    assert recall_paths(store, "lunch", "team") == []
    assert recall_paths(store, "lunch", "home") == ["facts/d/a.md"]
    put(store, make_doc("facts/d/a.md", "now just text", collection="mem"))
    assert store.memory.facts([("mem", "facts/d/a.md")]) == {}
    assert store.memory.count_facts(["mem"]) == (0, 0, 0)
