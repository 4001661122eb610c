"""Contract suite of the change journal (``ChangeJournal`` reads, the entries ``SyncLedger``
writes with each index change), run against the in-memory and the SQLite index."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gno_adapters.inmemory.clock import FixedClock
from gno_core.domain import SourceState, SyncBatch
from gno_core.journal.entries import JournalEntry
from gno_core.journal.structure import MAX_ITEMS_PER_SIDE, MAX_VALUE_BYTES
from gno_core.links.extract import extract_links
from tests.contract.store_support import Store, make_doc, put


def linked(rel_path: str, body: str, front: dict[str, object] | None = None) -> object:
    """A document with its links extracted as ingest extracts them."""
    doc = make_doc(rel_path, body)
    return replace(doc, links=extract_links(doc.markdown, rel_path, front))


def _kinds(store: Store, **kw: object) -> list[tuple[str, str]]:
    return [(e.kind, e.rel_path) for e in store.journal.entries(limit=1000, **kw)]  # type: ignore[arg-type]


def test_create_update_and_unchanged_upserts(store: Store) -> None:
    a = linked("a.md", "# A\n\nSee [[b]].\n")
    put(store, a)  # type: ignore[arg-type]
    put(store, a)  # type: ignore[arg-type]  # the same document again: no entry
    put(store, linked("a.md", "# A\n\n## New\n\nSee [[c]].\n", {"works_at": "[[acme]]"}))  # type: ignore[arg-type]
    got = store.journal.entries(limit=10)
    assert [e.kind for e in got] == ["create", "update"]
    create, update = got
    assert create.previous is None and create.current is not None
    assert create.current.source_hash == a.source_hash  # type: ignore[attr-defined] and create.current.active
    assert create.delta.headings.added == ("# A",)
    assert create.delta.links.added == ("b",)
    assert update.previous is not None
    assert update.previous.source_hash == a.source_hash  # type: ignore[attr-defined]
    assert update.delta.headings.added == ("## New",)
    assert (update.delta.links.added, update.delta.links.removed) == (("c",), ("b",))
    assert update.delta.edges.added == ("works_at -> acme",)
    assert not update.delta.truncated
    assert create.seq < update.seq


def test_inactivate_and_reactivate(store: Store) -> None:
    a = make_doc("a.md", "# A\n")
    put(store, a)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    state = SourceState("a.md", a.source_hash, a.source_size, a.source_mtime_ns + 5, True, 1)
    store.ledger.apply_batch(SyncBatch("notes", touched=(state,)))
    got = store.journal.entries(limit=10)
    assert [e.kind for e in got] == ["create", "inactivate", "reactivate"]
    inactive = got[1]
    assert inactive.previous is not None and inactive.previous.active
    assert inactive.current is not None and not inactive.current.active
    assert inactive.delta.headings.removed == ("# A",)
    assert got[2].current is not None and got[2].current.active
    # a re-upsert of an inactive document reactivates it too
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    put(store, a)
    assert _kinds(store)[-2:] == [("inactivate", "a.md"), ("reactivate", "a.md")]


def test_rename_is_one_entry(store: Store) -> None:
    a = make_doc("a.md", "# A\n")
    put(store, a)
    moved = make_doc("b.md", "# A\n")
    store.ledger.apply_batch(
        SyncBatch("notes", upserts=(moved,), deactivate=("a.md",), renamed=(("a.md", "b.md"),))
    )
    got = store.journal.entries(limit=10)
    assert [e.kind for e in got] == ["create", "rename"]
    rename = got[1]
    assert rename.previous is not None and rename.previous.rel_path == "a.md"
    assert rename.current is not None and rename.current.rel_path == "b.md"
    assert rename.delta.empty
    assert store.journal.latest_for("notes", "b.md") == rename
    assert store.journal.latest_for("notes", "a.md") == rename  # found by its old path too
    assert store.journal.latest_for("notes", "zzz.md") is None


def test_collection_removal_inactivates_each_document(store: Store) -> None:
    put(store, make_doc("a.md", "a"), make_doc("b.md", "b"))
    assert store.ledger.deactivate_collection("notes") == 2
    assert _kinds(store)[-2:] == [("inactivate", "a.md"), ("inactivate", "b.md")]


def test_paging_collection_and_time(store: Store, clock: FixedClock) -> None:
    put(store, make_doc("a.md", "a"), make_doc("b.md", "b", collection="other"))
    clock.advance(60)
    put(store, make_doc("c.md", "c"))
    assert _kinds(store, collection="notes") == [("create", "a.md"), ("create", "c.md")]
    first = store.journal.entries(limit=1)
    assert [e.rel_path for e in first] == ["a.md"]
    rest = store.journal.entries(after=first[0].seq, limit=10)
    assert [e.rel_path for e in rest] == ["b.md", "c.md"]
    assert [e.rel_path for e in store.journal.entries(since_ns=clock.now_ns())] == ["c.md"]
    bounds = store.journal.bounds()
    assert (bounds.latest, bounds.purged_through, bounds.retained) == (rest[-1].seq, 0, 3)
    assert store.journal.entry(first[0].seq) == first[0]
    assert store.journal.entry(10_000) is None


def test_delta_is_capped_and_never_holds_a_body(store: Store) -> None:
    heads = "".join(f"# H{i:02d} {'x' * 300}\n\nsecret body line {i}\n" for i in range(40))
    put(store, make_doc("a.md", heads))
    (entry,) = store.journal.entries()
    assert entry.delta.truncated
    assert len(entry.delta.headings.added) == MAX_ITEMS_PER_SIDE
    assert all(len(h.encode()) <= MAX_VALUE_BYTES for h in entry.delta.headings.added)
    assert "secret body" not in entry.payload()


@pytest.mark.parametrize("bound", ["entries", "bytes", "age"])
def test_retention_drops_the_oldest(
    store: Store, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, bound: str
) -> None:
    from gno_core.journal import entries as entries_module

    small = {
        "entries": entries_module.Retention(max_entries=3),
        "bytes": entries_module.Retention(max_bytes=600),
        "age": entries_module.Retention(max_age_days=1),
    }[bound]
    import gno_adapters.inmemory.journal as mem
    import gno_adapters.sqlite.journal as sql

    for module in (mem, sql):
        monkeypatch.setattr(module.append, "__defaults__", (small,))
    for i in range(6):
        put(store, make_doc(f"n{i}.md", f"# N{i}\n"))
        clock.advance(86_400 * 0.4)
    got = store.journal.entries(limit=100)
    bounds = store.journal.bounds()
    assert got and got[-1].rel_path == "n5.md"
    assert len(got) < 6 and bounds.retained == len(got)
    assert bounds.purged_through == got[0].seq - 1
    assert bounds.latest == got[-1].seq
    assert all(isinstance(e, JournalEntry) for e in got)


def test_collection_rename_is_one_rename_per_document(store: Store) -> None:
    put(store, make_doc("a.md", "# A\n"), make_doc("sub/b.md", "# B\n"))
    put(store, make_doc("c.md", "# C\n"))
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("c.md",)))  # inactive: no URI
    put(store, make_doc("x.md", "x", collection="other"))
    seen = store.journal.bounds().latest
    store.ledger.rename_collection("notes", "renamed")
    got = store.journal.entries(after=seen, limit=100)
    assert [(e.kind, e.collection) for e in got] == [("rename", "renamed")] * 2
    for entry, rel in zip(got, ("a.md", "sub/b.md"), strict=True):
        assert entry.previous is not None and entry.current is not None
        assert (entry.previous.collection, entry.previous.rel_path) == ("notes", rel)
        assert (entry.current.collection, entry.current.rel_path) == ("renamed", rel)
        assert entry.previous.active and entry.current.active
        assert entry.previous.source_hash == entry.current.source_hash
        assert entry.delta.empty
    assert store.journal.latest_for("renamed", "a.md") == got[0]
    assert store.journal.latest_for("notes", "a.md") == got[0]  # found by the old name too
    store.ledger.rename_collection("renamed", "renamed")  # the same name: nothing
    assert store.journal.bounds().latest == got[-1].seq
