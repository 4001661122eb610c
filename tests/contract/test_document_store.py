"""Contract suite of the ``DocumentStore`` port, run against every adapter (memory, apsw)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gno_adapters.inmemory.clock import FixedClock
from gno_core.domain import Chunk, ChunkLayouts, IngestFailure, SourceState, SyncBatch
from gno_core.errors import DuplicateError
from gno_core.text.dates import iso_from_ns
from tests.contract.store_support import Store, make_doc, paths, put, sha


def test_upsert_round_trips_every_field(store: Store, clock: FixedClock) -> None:
    doc = make_doc(
        "dir/Note One.md",
        "# One\n\nbody text",
        title="One",
        tags=("Work", "idea"),
        content_type="note",
        categories=("journal",),
        author="Ada Lovelace",
        date="2024-03-01",
        language="en",
    )
    put(store, doc)
    got = store.documents.get_document("notes", "dir/Note One.md")
    assert got is not None
    assert got.docid == "#" + doc.source_hash[:8]
    assert (got.collection, got.rel_path, got.abs_path) == ("notes", doc.rel_path, doc.abs_path)
    assert (got.source_hash, got.source_mime, got.source_ext) == (
        doc.source_hash,
        "text/markdown",
        ".md",
    )
    assert (got.source_size, got.source_mtime_ns, got.mirror_hash) == (
        doc.source_size,
        doc.source_mtime_ns,
        doc.mirror_hash,
    )
    assert got.meta == doc.meta
    assert (got.converter_id, got.converter_version) == ("native/markdown", "1.0.0")
    assert got.converter_warnings == ()
    assert got.active is True
    assert got.indexed_at == iso_from_ns(clock.now_ns())
    assert store.documents.markdown(doc.mirror_hash) == doc.markdown
    assert store.documents.chunks(doc.mirror_hash) == doc.chunks
    assert store.documents.get_document("notes", "missing.md") is None
    assert store.documents.markdown(sha("nothing")) is None
    assert store.documents.chunks(sha("nothing")) == ()
    both = store.documents.chunks_for([doc.mirror_hash, sha("nothing"), doc.mirror_hash])
    assert both == {doc.mirror_hash: doc.chunks}
    assert store.documents.chunks_for([]) == {}


def test_conversion_warnings_round_trip_and_are_replaced(store: Store) -> None:
    from dataclasses import replace

    doc = make_doc("report.pdf", "## Page 1\n\ntext")
    converted = replace(
        doc,
        converter_id="convert/pypdfium2",
        converter_version="5.0",
        converter_warnings=("2 of 9 pages have no text layer", "ünïcode kept"),
    )
    put(store, converted)
    got = store.documents.get_document("notes", "report.pdf")
    assert got is not None
    assert got.converter_warnings == converted.converter_warnings
    put(store, replace(converted, converter_warnings=()))
    again = store.documents.get_document("notes", "report.pdf")
    assert again is not None and again.converter_warnings == ()


def test_applying_a_batch_twice_leaves_the_same_state(store: Store) -> None:
    batch = SyncBatch(
        "notes",
        upserts=(make_doc("a.md", "alpha", tags=("x",)), make_doc("b.md", "beta")),
        deactivate=("gone.md",),
        failures=(IngestFailure("notes", "bad.pdf", "BINARY", "binary file", None, 10, 5),),
    )
    store.ledger.apply_batch(batch)
    first = (
        store.ledger.source_states("notes"),
        store.documents.list_documents(),
        store.stats.counts(),
        store.documents.tag_counts(None, None),
        paths(store, "alpha beta"),
        store.stats.recent_failures(10),
    )
    store.ledger.apply_batch(batch)
    again = (
        store.ledger.source_states("notes"),
        store.documents.list_documents(),
        store.stats.counts(),
        store.documents.tag_counts(None, None),
        paths(store, "alpha beta"),
        store.stats.recent_failures(10),
    )
    assert again == first


def test_upsert_replaces_chunks_tags_and_lexical_rows(store: Store) -> None:
    old = make_doc("a.md", "old words zebra", tags=("old",))
    put(store, old)
    new = replace(
        make_doc("a.md", "new words giraffe", tags=("new",)),
        chunks=(Chunk(0, 0, "new words", 1, 1), Chunk(1, 10, "giraffe", 1, 1)),
    )
    put(store, new)
    assert paths(store, "zebra") == []
    assert paths(store, "giraffe") == ["notes/a.md"]
    assert store.documents.tag_counts(None, None) == [("new", 1)]
    assert [c.seq for c in store.documents.chunks(new.mirror_hash)] == [0, 1]
    assert (
        store.documents.markdown(old.mirror_hash) is None
    )  # no document uses the old mirror any more


def test_identical_documents_share_a_mirror(store: Store) -> None:
    put(store, make_doc("a.md", "same text"), make_doc("b.md", "same text"))
    a, b = (
        store.documents.get_document("notes", "a.md"),
        store.documents.get_document("notes", "b.md"),
    )
    assert a is not None and b is not None and a.mirror_hash == b.mirror_hash
    assert a.docid == b.docid
    put(store, make_doc("a.md", "different now"))
    assert store.documents.markdown(b.mirror_hash) == "same text\n"  # still used by b.md
    assert len(store.documents.chunks(b.mirror_hash)) == 1


def test_source_states_cover_active_inactive_and_failed(store: Store) -> None:
    put(store, make_doc("a.md", "alpha"), make_doc("b.md", "beta"))
    store.ledger.apply_batch(
        SyncBatch(
            "notes",
            deactivate=("b.md",),
            failures=(IngestFailure("notes", "c.bin", "BINARY", "binary", sha("c"), 3, 7),),
        )
    )
    states = store.ledger.source_states("notes")
    assert set(states) == {"a.md", "b.md", "c.bin"}
    a = states["a.md"]
    assert (a.active, a.failed, a.source_hash) == (True, False, sha("alpha"))
    assert a.ingest_version >= 1
    assert (states["b.md"].active, states["b.md"].failed) == (False, False)
    c = states["c.bin"]
    assert (c.active, c.failed, c.size, c.mtime_ns, c.source_hash) == (False, True, 3, 7, sha("c"))
    assert store.ledger.source_states("other") == {}


def test_failures_are_listed_per_collection_in_path_order(store: Store) -> None:
    bad = IngestFailure("notes", "z/bad.md", "FRONTMATTER", "broken yaml", sha("z"), 5, 9)
    big = IngestFailure("notes", "big.md", "TOO_LARGE", "too large", None, 99, 8)
    elsewhere = IngestFailure("other", "c.md", "BINARY", "binary", None, 1, 1)
    store.ledger.apply_batch(SyncBatch("notes", failures=(bad, big)))
    store.ledger.apply_batch(SyncBatch("other", failures=(elsewhere,)))
    assert store.ledger.failures("notes") == [big, bad]
    assert store.ledger.failures("other") == [elsewhere]
    assert store.ledger.failures("none") == []
    again = replace(bad, code="ENCODING", message="not utf-8")
    store.ledger.apply_batch(SyncBatch("notes", failures=(again,), forget_failures=("big.md",)))
    assert store.ledger.failures("notes") == [again]
    put(store, make_doc("z/bad.md", "fixed"))  # indexed at last: no longer a failure
    assert store.ledger.failures("notes") == []


def test_touched_sources_remember_new_size_and_mtime(store: Store) -> None:
    doc = make_doc("a.md", "alpha", mtime_ns=100)
    put(store, doc)
    store.ledger.apply_batch(
        SyncBatch(
            "notes",
            touched=(SourceState("a.md", doc.source_hash, 999, 200, True, doc.ingest_version),),
        )
    )
    state = store.ledger.source_states("notes")["a.md"]
    assert (state.size, state.mtime_ns) == (999, 200)
    got = store.documents.get_document("notes", "a.md")
    assert got is not None and got.source_mtime_ns == 200


def test_deactivated_documents_disappear_and_upserts_reactivate_them(store: Store) -> None:
    doc = make_doc("a.md", "alpha unicorn")
    put(store, doc)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    assert store.documents.get_document("notes", "a.md") is None
    assert store.documents.list_documents() == []
    assert paths(store, "unicorn") == []
    assert store.documents.find_by_docid(doc.source_hash[:8]) == []
    put(store, doc)
    assert store.documents.get_document("notes", "a.md") is not None
    assert paths(store, "unicorn") == ["notes/a.md"]
    assert store.ledger.source_states("notes")["a.md"].active is True


def test_touched_active_source_reactivates_an_unchanged_document(store: Store) -> None:
    doc = make_doc("a.md", "alpha unicorn", mtime_ns=5)
    put(store, doc)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    store.ledger.apply_batch(
        SyncBatch("notes", touched=(SourceState("a.md", doc.source_hash, 9, 6, True, 1),))
    )
    assert paths(store, "unicorn") == ["notes/a.md"]
    assert store.stats.counts()[0].documents == 1


def test_failures_are_recorded_replaced_and_cleared(store: Store, clock: FixedClock) -> None:
    fail = IngestFailure("notes", "a.md", "ENCODING", "bad bytes", None, 1, 1)
    store.ledger.apply_batch(SyncBatch("notes", failures=(fail,)))
    clock.advance(10)
    later = IngestFailure("notes", "b.md", "BINARY", "binary", None, 2, 2)
    store.ledger.apply_batch(SyncBatch("notes", failures=(later,)))
    records = store.stats.recent_failures(10)
    assert [r.failure for r in records] == [later, fail]  # newest first
    assert records[0].occurred_at == iso_from_ns(clock.now_ns())
    assert store.stats.recent_failures(1)[0].failure == later
    clock.advance(10)
    replaced = IngestFailure("notes", "a.md", "TOO_LARGE", "too big", None, 3, 3)
    store.ledger.apply_batch(SyncBatch("notes", failures=(replaced,)))
    assert [r.failure for r in store.stats.recent_failures(10)] == [replaced, later]
    put(store, make_doc("a.md", "fixed now"))
    assert [r.failure for r in store.stats.recent_failures(10)] == [later]
    assert store.ledger.source_states("notes")["a.md"].failed is False
    assert store.stats.counts()[0].failed == 1


def test_docid_prefix_lookup(store: Store) -> None:
    put(
        store,
        make_doc("b.md", "one", source="shared"),
        make_doc("a.md", "two", source="shared"),
        make_doc("z.md", "one", source="shared", collection="alpha"),
        make_doc("c.md", "three"),
    )
    prefix = sha("shared")
    for n in (6, 7, 8):
        found = store.documents.find_by_docid(prefix[:n])
        assert [(d.collection, d.rel_path) for d in found] == [
            ("alpha", "z.md"),
            ("notes", "a.md"),
            ("notes", "b.md"),
        ]
    assert (
        store.documents.find_by_docid("ffffff" if not prefix.startswith("ffffff") else "000000")
        == []
    )


def test_get_documents_keeps_the_given_order(store: Store) -> None:
    put(store, make_doc("a.md", "a"), make_doc("b.md", "b"), make_doc("c.md", "c"))
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("c.md",)))
    got = store.documents.get_documents([("notes", "b.md"), ("notes", "zz.md"), ("notes", "a.md"),
                               ("notes", "c.md")])  # fmt: skip
    assert [d.rel_path for d in got] == ["b.md", "a.md"]


def test_list_documents_orders_and_filters(store: Store) -> None:
    put(
        store,
        make_doc("x/2.md", "two"),
        make_doc("x/1.md", "one"),
        make_doc("y.md", "y"),
        make_doc("a.md", "a", collection="alpha"),
    )
    keys = [(d.collection, d.rel_path) for d in store.documents.list_documents()]
    assert keys == [("alpha", "a.md"), ("notes", "x/1.md"), ("notes", "x/2.md"), ("notes", "y.md")]
    assert [d.rel_path for d in store.documents.list_documents("notes", "x/")] == [
        "x/1.md",
        "x/2.md",
    ]
    assert [d.rel_path for d in store.documents.list_documents(limit=2)] == ["a.md", "x/1.md"]
    assert store.documents.list_documents("nope") == []


def test_recent_documents_newest_first_ties_by_collection_and_path(store: Store) -> None:
    put(
        store,
        make_doc("old.md", "o", mtime_ns=1),
        make_doc("b.md", "b", mtime_ns=5),
        make_doc("a.md", "a", mtime_ns=5),
        make_doc("new.md", "n", mtime_ns=9),
    )
    assert [d.rel_path for d in store.documents.recent_documents(3)] == ["new.md", "a.md", "b.md"]


def test_counts_per_collection(store: Store) -> None:
    put(store, make_doc("a.md", "a"), make_doc("b.md", "b"), make_doc("z.md", "z", collection="k"))
    store.ledger.apply_batch(
        SyncBatch(
            "notes",
            deactivate=("b.md",),
            failures=(IngestFailure("notes", "c.pdf", "BINARY", "x"),),
        )
    )
    counts = store.stats.counts()
    assert [c.collection for c in counts] == ["k", "notes"]
    notes = counts[1]
    assert (notes.documents, notes.inactive, notes.chunks, notes.embedded, notes.failed) == (
        1,
        1,
        1,
        0,
        1,
    )
    assert store.stats.counts()[0].documents == 1


def test_chunking_policy_round_trips_and_layouts_count_it(store: Store) -> None:
    assert store.stats.chunk_layouts("400:10.0", "800:15.0") == ChunkLayouts({}, 0)
    put(
        store,
        replace(make_doc("old.md", "old"), chunking=None),
        replace(make_doc("same.md", "old"), chunking="800:15.0"),
        replace(make_doc("new.md", "new"), chunking="400:10.0"),
        replace(make_doc("gone.md", "gone"), chunking="100:0.0"),
    )
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("gone.md",)))
    states = store.ledger.source_states("notes")
    assert {rel: s.chunking for rel, s in states.items()} == {
        "old.md": None,
        "same.md": "800:15.0",
        "new.md": "400:10.0",
        "gone.md": "100:0.0",
    }
    layouts = store.stats.chunk_layouts("400:10.0", "800:15.0")
    assert layouts.documents == {None: 1, "800:15.0": 1, "400:10.0": 1}
    assert layouts.pending_mirrors == 1  # old.md and same.md share one mirror
    assert store.stats.chunk_layouts("800:15.0", "800:15.0").pending_mirrors == 1


def test_tag_counts(store: Store) -> None:
    put(
        store,
        make_doc("a.md", "a", tags=("Work/Project", "idea")),
        make_doc("b.md", "b", tags=("work/project", "work/admin")),
        make_doc("c.md", "c", tags=("idea",), collection="other"),
        make_doc("d.md", "d", tags=("idea",)),
    )
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("d.md",)))
    assert store.documents.tag_counts(None, None) == [
        ("idea", 2),
        ("work/project", 2),
        ("work/admin", 1),
    ]
    assert store.documents.tag_counts("notes", None) == [
        ("work/project", 2),
        ("idea", 1),
        ("work/admin", 1),
    ]
    assert store.documents.tag_counts(None, "work/") == [("work/project", 2), ("work/admin", 1)]
    assert store.documents.tag_counts("other", "work") == []


def test_last_indexed_at(store: Store, clock: FixedClock) -> None:
    assert store.stats.last_indexed_at() is None
    put(store, make_doc("a.md", "a"))
    clock.advance(60)
    put(store, make_doc("b.md", "b"))
    assert store.stats.last_indexed_at() == iso_from_ns(clock.now_ns())


def test_deactivate_collection(store: Store) -> None:
    put(store, make_doc("a.md", "apple"), make_doc("b.md", "apple"), make_doc("c.md", "apple",
        collection="keep"))  # fmt: skip
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("b.md",)))
    assert store.ledger.deactivate_collection("notes") == 1
    assert store.ledger.deactivate_collection("notes") == 0
    assert paths(store, "apple") == ["keep/c.md"]
    assert store.stats.counts()[1].inactive == 2


def test_rename_collection_moves_documents_and_failures(store: Store) -> None:
    put(store, make_doc("a.md", "apple", tags=("t",)))
    store.ledger.apply_batch(
        SyncBatch("notes", failures=(IngestFailure("notes", "x.pdf", "BINARY", "b"),))
    )
    store.ledger.rename_collection("notes", "renamed")
    assert store.documents.get_document("notes", "a.md") is None
    moved = store.documents.get_document("renamed", "a.md")
    assert moved is not None and moved.collection == "renamed"
    assert paths(store, "apple") == ["renamed/a.md"]
    assert paths(store, "apple", collections=("renamed",)) == ["renamed/a.md"]
    assert store.documents.tag_counts("renamed", None) == [("t", 1)]
    assert set(store.ledger.source_states("renamed")) == {"a.md", "x.pdf"}
    assert store.stats.recent_failures(5)[0].failure.collection == "renamed"
    assert store.ledger.source_states("notes") == {}


def test_rename_onto_a_collection_with_active_documents_is_refused(store: Store) -> None:
    put(store, make_doc("a.md", "a"), make_doc("b.md", "b", collection="taken"))
    with pytest.raises(DuplicateError):
        store.ledger.rename_collection("notes", "taken")
    assert store.documents.get_document("notes", "a.md") is not None
    store.ledger.deactivate_collection("taken")
    store.ledger.rename_collection("notes", "taken")  # inactive leftovers give way
    assert [d.rel_path for d in store.documents.list_documents("taken")] == ["a.md"]


def test_forgotten_failures_end(store: Store) -> None:
    gone = IngestFailure("notes", "gone.md", "UNREADABLE", "file disappeared", None, 1, 1)
    kept = IngestFailure("notes", "kept.md", "BINARY", "binary", None, 2, 2)
    store.ledger.apply_batch(SyncBatch("notes", failures=(gone, kept)))
    store.ledger.apply_batch(SyncBatch("notes", forget_failures=("gone.md", "never-failed.md")))
    assert [r.failure for r in store.stats.recent_failures(10)] == [kept]
    assert set(store.ledger.source_states("notes")) == {"kept.md"}
    assert store.stats.counts()[0].failed == 1
