"""Contract suite of the ``MemoryStore`` port, the fact writes of ``SyncLedger`` and the
``memory_scopes`` search filter, run against every adapter (memory, apsw)."""

from __future__ import annotations

from dataclasses import replace

from gno_core.domain import IndexedDocument, SearchFilters, SyncBatch
from gno_core.fact_files import (
    content_hash,
    legacy_record_id,
    normalize_fact_text,
    render_fact,
)
from gno_core.facts import FactRecord, InvalidFact
from gno_core.retrieval.query import parse_query
from tests.contract.store_support import Store, make_doc, put

CREATED = "2026-12-01T10:00:00Z"


def record(text: str, *scopes: str, supersedes: tuple[str, ...] = ()) -> FactRecord:
    normal = normalize_fact_text(text)
    digest = content_hash(normal)
    return FactRecord(
        record_id=legacy_record_id(digest, CREATED, "cli:alice", "ppid:1"),
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


def test_a_fact_supersedes_only_within_its_collection_and_a_shared_scope(store: Store) -> None:
    put(store, fact_doc("facts/d/team.md", record("deploy on Tuesday", "team", "ops")))
    home = record("deploy never", "home", supersedes=("gno://mem/facts/d/team.md",))
    put(store, fact_doc("facts/d/home.md", home))
    foreign = record("deploy frozen", "team", supersedes=("gno://mem/facts/d/team.md",))
    put(store, fact_doc("facts/d/foreign.md", foreign, collection="other"))
    # Neither the other scope's fact nor the other collection's hides it.
    assert recall_paths(store, "deploy", "team") == ["facts/d/team.md"]
    assert store.memory.successors("mem", "facts/d/team.md") == []
    assert not store.memory.facts([("mem", "facts/d/team.md")])[
        ("mem", "facts/d/team.md")
    ].superseded
    assert store.memory.count_facts(["mem"]) == (2, 0, 0)
    assert store.memory.count_facts(["other"]) == (1, 0, 0)
    # Each ignored entry is reported beside the fact that states it (which stays a fact).
    assert [(d.rel_path, d.problem.code) for d in store.memory.diagnostics(["mem"], 10)] == [
        ("facts/d/home.md", "MEMORY_SUPERSEDES_IGNORED")
    ]
    (other,) = store.memory.diagnostics(["other"], 10)
    assert (other.collection, other.rel_path) == ("other", "facts/d/foreign.md")
    assert other.problem.code == "MEMORY_SUPERSEDES_IGNORED"
    assert "gno://mem/facts/d/team.md" in other.problem.message
    # One shared scope of several is enough.
    ops = record("deploy on Wednesday", "ops", supersedes=("gno://mem/facts/d/team.md",))
    put(store, fact_doc("facts/d/ops.md", ops))
    assert recall_paths(store, "deploy", "team") == []
    assert store.memory.successors("mem", "facts/d/team.md") == [("mem", "facts/d/ops.md")]
    assert store.memory.count_facts(["mem"]) == (2, 1, 0)
