"""Contract suite of the ``VectorIndex`` port: memory, apsw (sqlite-vec) and apsw without the
extension (exact search) must agree."""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.inmemory.index import in_memory_index
from gno_adapters.sqlite import open_apsw_index
from gno_core.domain import Chunk, IndexedDocument, SearchFilters, SyncBatch
from gno_core.errors import ValidationError
from gno_core.ports.embedder import Vector
from gno_core.ports.vectors import ChunkVector
from tests.contract.store_support import Store, make_doc, put, sha

FP = "a" * 64
OTHER_FP = "b" * 64


@pytest.fixture(params=["memory", "apsw", "apsw-exact"])
def store(request: pytest.FixtureRequest, tmp_path: Path, clock: FixedClock) -> Iterator[Store]:
    if request.param == "memory":
        with in_memory_index(clock) as mem:
            yield mem
    else:
        exact = request.param == "apsw-exact"
        with open_apsw_index(
            str(tmp_path / "index.sqlite"), clock, vector_extension=not exact
        ) as db:
            assert db.vectors.vector_backend == ("exact" if exact else "sqlite-vec v0.1.9")
            yield db


def vec(*xs: float) -> Vector:
    norm = math.sqrt(sum(x * x for x in xs))
    return array("f", (x / norm for x in xs))


def chunked(rel_path: str, *texts: str, **kwargs: object) -> IndexedDocument:
    """A document whose chunks are ``texts`` (one line each)."""
    body = "\n".join(texts) + "\n"
    doc = make_doc(rel_path, body, **kwargs)  # type: ignore[arg-type]
    chunks, pos = [], 0
    for i, text in enumerate(texts):
        chunks.append(Chunk(i, pos, text, i + 1, i + 1, "en"))
        pos += len(text) + 1
    return replace(doc, chunks=tuple(chunks))


def embed(store: Store, doc: IndexedDocument, *vectors: Vector, fp: str = FP) -> None:
    store.vectors.put_vectors(
        fp, "test/model", [ChunkVector(doc.mirror_hash, i, v) for i, v in enumerate(vectors)]
    )


def near(store: Store, query: Vector, limit: int = 10, **filters: object) -> list[str]:
    hits = store.vectors.nearest(query, FP, SearchFilters(**filters), limit)  # type: ignore[arg-type]
    return [f"{h.document.collection}/{h.document.rel_path}" for h in hits]


def test_pending_lists_chunks_of_active_documents_without_vectors(store: Store) -> None:
    a = chunked("a.md", "alpha one", "alpha two", title="A")
    b = chunked("b.md", "beta")
    put(store, a, b)
    pending = store.vectors.pending_chunks(FP, 10)
    assert [(p.mirror_hash, p.seq) for p in pending] == sorted(
        [(a.mirror_hash, 0), (a.mirror_hash, 1), (b.mirror_hash, 0)]
    )
    first = next(p for p in pending if p.mirror_hash == a.mirror_hash and p.seq == 1)
    assert (first.text, first.start_line, first.title) == ("alpha two", 2, "A")

    embed(store, a, vec(1, 0), vec(0, 1))
    assert [(p.mirror_hash, p.seq) for p in store.vectors.pending_chunks(FP, 10)] == [
        (b.mirror_hash, 0)
    ]
    # Another vector space still needs everything: vectors of spaces are never mixed.
    assert len(store.vectors.pending_chunks(OTHER_FP, 10)) == 3


def test_pending_pages_with_a_cursor_and_scopes_to_collections(store: Store) -> None:
    docs = [chunked(f"{i}.md", f"text {i}", f"more {i}") for i in range(5)]
    other = chunked("x.md", "elsewhere", collection="work")
    put(store, *docs, other)
    seen: list[tuple[str, int]] = []
    cursor = None
    while page := store.vectors.pending_chunks(FP, 3, after=cursor, collections=("notes",)):
        seen.extend((p.mirror_hash, p.seq) for p in page)
        cursor = seen[-1]
    assert seen == sorted((d.mirror_hash, s) for d in docs for s in (0, 1))
    assert [p.mirror_hash for p in store.vectors.pending_chunks(FP, 10, collections=("work",))] == [
        other.mirror_hash
    ]


def test_a_mirror_shared_by_two_documents_is_pending_once(store: Store) -> None:
    a = chunked("a.md", "same text")
    b = replace(chunked("b.md", "same text"), source_hash=sha("b-source"))
    put(store, a, b)
    assert len(store.vectors.pending_chunks(FP, 10)) == 1
    embed(store, a, vec(1, 0))
    assert store.vectors.pending_chunks(FP, 10) == []
    assert near(store, vec(1, 0)) == ["notes/a.md", "notes/b.md"]


def test_inactive_documents_need_no_vectors(store: Store) -> None:
    put(store, chunked("a.md", "alpha"))
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    assert store.vectors.pending_chunks(FP, 10) == []


def test_nearest_ranks_documents_by_their_closest_chunk(store: Store) -> None:
    a = chunked("a.md", "far", "close")
    b = chunked("b.md", "middle")
    c = chunked("c.md", "opposite")
    put(store, a, b, c)
    embed(store, a, vec(0, 1), vec(1, 0.1))
    embed(store, b, vec(1, 1))
    embed(store, c, vec(-1, 0))
    hits = store.vectors.nearest(vec(1, 0), FP, SearchFilters(), 10)
    assert [h.document.rel_path for h in hits] == ["a.md", "b.md", "c.md"]
    assert [h.seq for h in hits] == [1, 0, 0]
    assert hits[0].distance == pytest.approx(1 - 1 / math.sqrt(1.01), abs=1e-5)
    assert hits[1].distance == pytest.approx(1 - 1 / math.sqrt(2), abs=1e-5)
    assert hits[2].distance == pytest.approx(2.0, abs=1e-5)
    assert near(store, vec(1, 0), limit=2) == ["notes/a.md", "notes/b.md"]
    assert store.vectors.nearest(vec(1, 0), OTHER_FP, SearchFilters(), 10) == []


def test_ties_break_by_collection_then_path(store: Store) -> None:
    docs = [
        replace(chunked(p, f"text {p}", collection=c), source_hash=sha(p + c))
        for c, p in [("work", "a.md"), ("notes", "z.md"), ("notes", "b.md")]
    ]
    put(store, *docs)
    for d in docs:
        embed(store, d, vec(1, 0))
    assert near(store, vec(1, 0)) == ["notes/b.md", "notes/z.md", "work/a.md"]


def test_filters_define_the_eligible_set_before_the_nearest_are_chosen(store: Store) -> None:
    # Many out-of-scope documents sit right on the query; the one eligible document is far.
    crowd = [chunked(f"c{i}.md", f"crowd {i}", collection="work") for i in range(40)]
    target = chunked("target.md", "target", tags=("keep",))
    put(store, *crowd, target)
    for d in crowd:
        embed(store, d, vec(1, 0.001))
    embed(store, target, vec(-1, 1))
    assert near(store, vec(1, 0), limit=1, collections=("notes",)) == ["notes/target.md"]
    assert near(store, vec(1, 0), limit=1, tags_any=("keep",)) == ["notes/target.md"]
    assert near(store, vec(1, 0), limit=3, path_prefix="target") == ["notes/target.md"]


def test_inactive_neighbours_never_push_out_an_eligible_hit(store: Store) -> None:
    crowd = [chunked(f"c{i}.md", f"crowd {i}") for i in range(150)]
    target = chunked("target.md", "target")
    put(store, *crowd, target)
    for d in crowd:
        embed(store, d, vec(1, 0.001 * (1 + crowd.index(d))))
    embed(store, target, vec(-1, 1))
    store.ledger.apply_batch(SyncBatch("notes", deactivate=tuple(d.rel_path for d in crowd)))
    assert near(store, vec(1, 0), limit=1) == ["notes/target.md"]
    assert near(store, vec(1, 0), limit=5) == ["notes/target.md"]


def test_excluded_terms_remove_documents_whatever_their_distance(store: Store) -> None:
    a = chunked("a.md", "secret plans", "nothing here")
    b = chunked("b.md", "public notes")
    put(store, a, b)
    embed(store, a, vec(1, 0), vec(0, 1))
    embed(store, b, vec(0.5, 0.5))
    assert near(store, vec(1, 0), exclude_terms=("secret",)) == ["notes/b.md"]
    assert near(store, vec(1, 0), exclude_terms=("absent",)) == ["notes/a.md", "notes/b.md"]


def test_metadata_filters_apply(store: Store) -> None:
    a = chunked("a.md", "one", author="Ada Lovelace", categories=("meeting",), language="en")
    b = chunked("b.md", "two", author="Bob", content_type="journal", language="de")
    put(store, a, b)
    embed(store, a, vec(1, 0))
    embed(store, b, vec(1, 0.2))
    assert near(store, vec(1, 0), author="lovelace") == ["notes/a.md"]
    assert near(store, vec(1, 0), categories=("journal",)) == ["notes/b.md"]
    assert near(store, vec(1, 0), lang="de") == ["notes/b.md"]


def test_changed_chunks_drop_their_vectors_and_become_pending(store: Store) -> None:
    a = chunked("a.md", "first version")
    put(store, a)
    embed(store, a, vec(1, 0))
    put(store, a)  # the same content again keeps the vector
    assert store.vectors.pending_chunks(FP, 10) == []
    assert store.vectors.vector_count(FP) == 1
    rechunked = replace(a, chunks=(Chunk(0, 0, "first", 1, 1), Chunk(1, 6, "version", 1, 1)))
    put(store, rechunked)
    assert len(store.vectors.pending_chunks(FP, 10)) == 2
    assert near(store, vec(1, 0)) == []


def test_replaced_content_takes_its_vectors_away(store: Store) -> None:
    old = chunked("a.md", "old text")
    put(store, old)
    embed(store, old, vec(1, 0))
    put(store, replace(chunked("a.md", "new text"), source_hash=sha("new")))
    assert store.vectors.vector_count(FP) == 0
    assert store.vectors.chunk_vectors(old.mirror_hash, FP) == []
    assert near(store, vec(1, 0)) == []


def test_a_new_mirror_keeps_the_vectors_of_chunks_whose_embedded_text_is_unchanged(
    store: Store,
) -> None:
    old = replace(
        make_doc("a.md", "alpha\n\none\nalpha two\n", title="A"),
        chunks=(Chunk(0, 0, "alpha\n\none", 1, 3, "en"), Chunk(1, 11, "alpha two", 4, 4)),
    )
    put(store, old)
    embed(store, old, vec(1, 0), vec(0, 1))
    embed(store, old, vec(1, 1), vec(1, 1), fp=OTHER_FP)
    # The new mirror keeps a blank run inside chunk 0 (as mirrors keeping every source line
    # do): its embedded text is unchanged; chunk 1 changed. Only chunk 1 waits for a vector.
    new = replace(
        make_doc("a.md", "alpha\n\n\n\none\nalpha three\n", title="A"),
        chunks=(Chunk(0, 0, "alpha\n\n\n\none", 1, 5, "en"), Chunk(1, 13, "alpha three", 6, 6)),
    )
    put(store, new)
    assert [(p.mirror_hash, p.seq) for p in store.vectors.pending_chunks(FP, 10)] == [
        (new.mirror_hash, 1)
    ]
    assert store.vectors.chunk_vectors(new.mirror_hash, FP) == [(0, vec(1, 0))]
    assert [s for s, _ in store.vectors.chunk_vectors(new.mirror_hash, OTHER_FP)] == [0]
    assert near(store, vec(1, 0)) == ["notes/a.md"]  # the accelerated index holds it too
    # A new title changes the embedded text of every chunk: nothing is carried.
    renamed = replace(make_doc("a.md", "renamed\n", title="B"), chunks=new.chunks)
    put(store, renamed)
    assert len(store.vectors.pending_chunks(FP, 10)) == 2


def test_reactivated_documents_keep_their_vectors(store: Store) -> None:
    a = chunked("a.md", "alpha")
    put(store, a)
    embed(store, a, vec(1, 0))
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    assert near(store, vec(1, 0)) == []
    assert store.vectors.vector_count(FP) == 0
    put(store, a)
    assert near(store, vec(1, 0)) == ["notes/a.md"]
    assert store.vectors.pending_chunks(FP, 10) == []


def test_counts_report_embedded_chunks_of_one_space(store: Store) -> None:
    a = chunked("a.md", "one", "two", "three")
    b = chunked("b.md", "other", collection="work")
    put(store, a, b)
    embed(store, a, vec(1, 0), vec(0, 1))
    embed(store, b, vec(1, 1), fp=OTHER_FP)
    by_name = {c.collection: c for c in store.stats.counts(FP)}
    assert (by_name["notes"].chunks, by_name["notes"].embedded) == (3, 2)
    assert by_name["work"].embedded == 0
    assert {c.collection: c.embedded for c in store.stats.counts(OTHER_FP)} == {
        "notes": 0,
        "work": 1,
    }
    assert all(c.embedded == 0 for c in store.stats.counts())
    assert store.vectors.vector_count(FP) == 2
    assert store.vectors.has_vectors(FP) and store.vectors.has_vectors(OTHER_FP)
    assert not store.vectors.has_vectors("d" * 64)
    assert store.vectors.fingerprints() == sorted([FP, OTHER_FP])
    store.vectors.delete_vectors(OTHER_FP)
    assert store.vectors.fingerprints() == [FP]


def test_put_replaces_and_skips_unknown_chunks(store: Store) -> None:
    a = chunked("a.md", "alpha")
    put(store, a)
    embed(store, a, vec(1, 0))
    embed(store, a, vec(0, 1))
    store.vectors.put_vectors(FP, "test/model", [ChunkVector(sha("unknown"), 0, vec(1, 0))])
    store.vectors.put_vectors(FP, "test/model", [ChunkVector(a.mirror_hash, 7, vec(1, 0))])
    assert [(s, list(v)) for s, v in store.vectors.chunk_vectors(a.mirror_hash, FP)] == [
        (0, pytest.approx([0.0, 1.0]))
    ]
    assert store.vectors.vector_count(FP) == 1


def test_a_vector_of_replaced_chunk_text_is_skipped(store: Store) -> None:
    """A vector computed from a chunk's text is stored only while the chunk still has that
    text: a concurrent write that re-chunked the mirror (same hash, new chunk texts) between
    the read and the commit does not get the old text's vector as its own."""
    a = chunked("a.md", "alpha", "beta")
    put(store, a)
    rechunked = replace(a, chunks=(a.chunks[0]._replace(text="alpha and beta"),))
    put(store, rechunked)
    stored = store.vectors.put_vectors(
        FP,
        "test/model",
        [
            ChunkVector(a.mirror_hash, 0, vec(1, 0), text="alpha"),
            ChunkVector(a.mirror_hash, 1, vec(0, 1), text="beta"),
        ],
    )
    assert stored == 0
    assert store.vectors.chunk_vectors(a.mirror_hash, FP) == []
    stored = store.vectors.put_vectors(
        FP, "test/model", [ChunkVector(a.mirror_hash, 0, vec(1, 1), text="alpha and beta")]
    )
    assert stored == 1
    assert [s for s, _ in store.vectors.chunk_vectors(a.mirror_hash, FP)] == [0]


def test_vectors_of_one_space_share_their_length(store: Store) -> None:
    a = chunked("a.md", "alpha", "beta")
    put(store, a)
    embed(store, a, vec(1, 0))
    with pytest.raises(ValidationError):
        store.vectors.put_vectors(FP, "m", [ChunkVector(a.mirror_hash, 1, vec(1, 0, 0))])
    with pytest.raises(ValidationError):
        store.vectors.nearest(vec(1, 0, 0), FP, SearchFilters(), 3)


def test_delete_vectors_by_space_and_collection(store: Store) -> None:
    a = chunked("a.md", "alpha")
    b = chunked("b.md", "beta", collection="work")
    put(store, a, b)
    embed(store, a, vec(1, 0))
    embed(store, b, vec(0, 1))
    embed(store, a, vec(1, 0), fp=OTHER_FP)
    assert store.vectors.delete_vectors(FP, ("work",)) == 1
    assert near(store, vec(0, 1)) == ["notes/a.md"]
    assert store.vectors.delete_vectors(FP) == 1
    assert near(store, vec(0, 1)) == []
    assert store.vectors.vector_count(OTHER_FP) == 1


def test_vectors_round_trip_bit_for_bit(store: Store) -> None:
    a = chunked("a.md", "alpha", "beta")
    put(store, a)
    v0, v1 = vec(0.1, 0.2, 0.3), vec(-3, 2, 1)
    embed(store, a, v0, v1)
    assert store.vectors.chunk_vectors(a.mirror_hash, FP) == [(0, v0), (1, v1)]


@pytest.mark.parametrize("filters", [{}, {"collections": ("notes",)}], ids=["all", "filtered"])
def test_documents_tied_at_the_cut_order_by_path(store: Store, filters: dict[str, object]) -> None:
    docs = [
        replace(chunked(f"{i:02d}.md", f"same {i}"), source_hash=sha(str(i))) for i in range(30)
    ]
    put(store, *docs)
    for d in docs:
        embed(store, d, vec(1, 0))
    assert near(store, vec(1, 0), limit=3, **filters) == [
        "notes/00.md",
        "notes/01.md",
        "notes/02.md",
    ]


def test_coverage_counts_embedded_chunks_of_active_documents_in_scope(store: Store) -> None:
    a = chunked("a.md", "one", "two", "three", "four")
    b = chunked("b.md", "other", collection="work")
    gone = chunked("gone.md", "inactive", "never embedded")
    put(store, a, b, gone)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("gone.md",)))
    assert store.vectors.coverage(FP) == (0, 5)
    embed(store, a, vec(1, 0))
    assert store.vectors.coverage(FP) == (1, 5)
    assert store.vectors.coverage(FP, ("notes",)) == (1, 4)
    assert store.vectors.coverage(FP, ("notes",)).percent == 25  # type: ignore[union-attr]
    assert store.vectors.coverage(FP, ("work", "notes")) == (1, 5)
    embed(store, b, vec(1, 1))
    # A fully embedded scope says nothing, even while another scope has a backlog; the inactive
    # document's chunks are no backlog of anything searched.
    assert store.vectors.coverage(FP, ("work",)) is None
    embed(store, a, vec(1, 0), vec(0, 1), vec(1, 1), vec(1, 2))
    assert store.vectors.coverage(FP) is None
    assert store.vectors.coverage(FP, ("notes",)) is None
    # Another space is not embedded at all; an empty scope has nothing to miss.
    assert store.vectors.coverage(OTHER_FP, ("work",)) == (0, 1)
    assert store.vectors.coverage(FP, ("nowhere",)) is None
