"""Property: the SQL evaluation of a typed metadata predicate (inside the SQLite adapter's BM25
candidate query, as probes into the ``metadata_values`` table, and its vector candidate query,
over the stored JSON) selects exactly the documents the direct evaluator
(``gno_core.metadata.evaluate``) says match, over random documents and random predicates:
missing keys, booleans against 0/1, ``"0.9"`` against ``0.9``, arrays, empty arrays, ``not``,
``exists``, invalid and not-yet-extracted documents. So no result ever falls outside the
predicate and none inside it is lost.

The index of the first property is built once; hypothesis draws predicates against it
(200 in the default profile, 3,000 with ``HYPOTHESIS_PROFILE=long``). The second draws the
documents too, on a fresh index per example.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.sqlite import lexical, open_apsw_index
from gno_core.contracts.metadata import MetadataPredicate
from gno_core.domain import IndexedDocument, SearchFilters
from gno_core.metadata.evaluate import matches
from gno_core.metadata.extract import INVALID, PENDING, VALID, DocumentMetadata
from gno_core.ports.index import Index
from gno_core.ports.vectors import ChunkVector
from gno_core.retrieval.query import parse_query
from tests.contract.store_support import make_doc, put
from tests.contract.test_vector_index import vec

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
KEYS = ["status", "score", "tags", "flag", "n"]
STRINGS = ["approved", "Approved", "draft", "", "0.9", "1", "true", "ünï"]
NUMBERS: list[int | float] = [0, 1, -1, 0.9, 1.0, 2.5, -0.0, 10**15, 1e300, 3]
BOOLS = [True, False]
FP = "c" * 64

keys = st.sampled_from(KEYS)
kinds = st.sampled_from(["string", "number", "boolean"])
POOLS: dict[str, list[Any]] = {"string": STRINGS, "number": NUMBERS, "boolean": BOOLS}


def scalar_of(kind: str) -> st.SearchStrategy[Any]:
    return st.sampled_from(POOLS[kind])


scalars = kinds.flatmap(scalar_of)
numbers = st.sampled_from(NUMBERS)
homogeneous = kinds.flatmap(lambda k: st.lists(scalar_of(k), min_size=1, max_size=3))

leaves = st.one_of(
    st.builds(
        lambda op, k, v: {"op": op, "key": k, "value": v},
        st.sampled_from(["eq", "ne"]),
        keys,
        scalars,
    ),
    st.builds(
        lambda op, k, v: {"op": op, "key": k, "value": v},
        st.sampled_from(["gt", "gte", "lt", "lte"]),
        keys,
        numbers,
    ),
    st.builds(
        lambda op, k, vs: {"op": op, "key": k, "values": vs},
        st.sampled_from(["in", "nin", "all"]),
        keys,
        homogeneous,
    ),
    st.builds(lambda k, v: {"op": "exists", "key": k, "value": v}, keys, st.booleans()),
)
predicates = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.builds(
            lambda op, ps: {"op": op, "predicates": ps},
            st.sampled_from(["and", "or"]),
            st.lists(inner, min_size=1, max_size=3),
        ),
        st.builds(lambda p: {"op": "not", "predicate": p}, inner),
    ),
    max_leaves=8,
)
values_of_doc = st.dictionaries(
    keys,
    st.one_of(scalars, kinds.flatmap(lambda k: st.lists(scalar_of(k), max_size=3).map(tuple))),
    max_size=4,
)
metadata_of_doc = st.one_of(
    values_of_doc.map(lambda v: DocumentMetadata(VALID, v)),
    st.just(DocumentMetadata(INVALID, {}, "invalid")),
    st.just(DocumentMetadata(PENDING)),
)


def _doc(i: int, metadata: DocumentMetadata) -> IndexedDocument:
    # 1-5 occurrences of the searched word: BM25 scores differ, with ties among equals
    body = f"{'shared ' * (1 + i % 5)}body {i}"
    return replace(make_doc(f"d{i:03}.md", body), metadata=metadata)


def _random_metadata(rng: random.Random) -> DocumentMetadata:
    roll = rng.random()
    if roll < 0.05:
        return DocumentMetadata(INVALID, {}, "invalid")
    if roll < 0.1:
        return DocumentMetadata(PENDING)
    values: dict[str, Any] = {}
    for key in rng.sample(KEYS, rng.randint(0, len(KEYS))):
        kind = rng.choice(list(POOLS))
        if rng.random() < 0.3:
            values[key] = tuple(rng.choice(POOLS[kind]) for _ in range(rng.randint(0, 3)))
        else:
            values[key] = rng.choice(POOLS[kind])
    return DocumentMetadata(VALID, values)


def _lexical(index: Index, predicate: MetadataPredicate) -> set[str]:
    filters = SearchFilters(metadata=predicate)
    hits = index.lexical.search(parse_query("shared"), filters, 1000)
    return {h.document.rel_path for h in hits}


def _vector(index: Index, predicate: MetadataPredicate) -> set[str]:
    hits = index.vectors.nearest(vec(1, 0), FP, SearchFilters(metadata=predicate), 1000)
    return {h.document.rel_path for h in hits}


def _expected(docs: list[IndexedDocument], predicate: MetadataPredicate) -> set[str]:
    return {d.rel_path for d in docs if matches(d.metadata.state, d.metadata.values, predicate)}


class Corpus(tuple):  # type: ignore[type-arg]
    """(index, documents), with a short repr for hypothesis' failure reports."""

    def __repr__(self) -> str:
        return f"Corpus({len(self[1])} documents)"


@pytest.fixture(scope="module")
def corpus() -> Iterator[tuple[Index, list[IndexedDocument]]]:
    rng = random.Random(23)
    docs = [_doc(i, _random_metadata(rng)) for i in range(160)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        open_apsw_index(str(Path(tmp) / "index.sqlite"), FixedClock()) as index,
    ):
        put(index, *docs)
        vectors = [
            ChunkVector(d.mirror_hash, 0, vec(1, 0.01 * i + 0.001)) for i, d in enumerate(docs)
        ]
        index.vectors.put_vectors(FP, "m", vectors)
        yield Corpus((index, docs))


@settings(max_examples=3000 if LONG else 200)
@given(predicates)
def test_sql_selects_exactly_what_the_predicate_matches(
    corpus: tuple[Index, list[IndexedDocument]], raw: dict[str, Any]
) -> None:
    index, docs = corpus
    predicate = MetadataPredicate.model_validate(raw)
    expected = _expected(docs, predicate)
    found = _lexical(index, predicate)
    assert not found - expected, "results outside the predicate"
    assert found == expected


@settings(max_examples=1000 if LONG else 100)
@given(predicates, st.integers(1, 12), st.integers(1, 40))
def test_the_windowed_keyword_path_returns_the_full_querys_top(
    corpus: tuple[Index, list[IndexedDocument]], raw: dict[str, Any], limit: int, window: int
) -> None:
    # A filtered keyword search first checks a window of the best matches (small here, so that
    # proofs and fallbacks both happen): its answer is the filtered prefix of the full ranking.
    index, docs = corpus
    predicate = MetadataPredicate.model_validate(raw)
    expected = _expected(docs, predicate)
    ranking = index.lexical.search(parse_query("shared"), SearchFilters(), 1000)
    want = [h.document.rel_path for h in ranking if h.document.rel_path in expected][:limit]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lexical, "WINDOW_FACTOR", 1)
        patch.setattr(lexical, "WINDOW_MIN", window)
        hits = index.lexical.search(parse_query("shared"), SearchFilters(metadata=predicate), limit)
    assert [h.document.rel_path for h in hits] == want


@settings(max_examples=1000 if LONG else 60)
@given(predicates)
def test_the_vector_candidate_query_filters_the_same(
    corpus: tuple[Index, list[IndexedDocument]], raw: dict[str, Any]
) -> None:
    index, docs = corpus
    predicate = MetadataPredicate.model_validate(raw)
    assert _vector(index, predicate) == _expected(docs, predicate)


@given(
    st.lists(metadata_of_doc, min_size=1, max_size=12), st.lists(predicates, min_size=1, max_size=4)
)
def test_random_documents_and_predicates_agree(
    metadata: list[DocumentMetadata], raws: list[dict[str, Any]]
) -> None:
    docs = [_doc(i, m) for i, m in enumerate(metadata)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        open_apsw_index(str(Path(tmp) / "index.sqlite"), FixedClock()) as index,
    ):
        put(index, *docs)
        for raw in raws:
            predicate = MetadataPredicate.model_validate(raw)
            assert _lexical(index, predicate) == _expected(docs, predicate)


@settings(max_examples=300 if LONG else 40)
@given(
    st.lists(st.tuples(metadata_of_doc, metadata_of_doc), min_size=1, max_size=10),
    st.lists(predicates, min_size=1, max_size=4),
)
def test_rewritten_documents_are_filtered_by_their_current_metadata(
    pairs: list[tuple[DocumentMetadata, DocumentMetadata]], raws: list[dict[str, Any]]
) -> None:
    # The keyword path reads the value table the index keeps in step with each document's
    # metadata (``metadata_values``): after every document is written again with other metadata
    # (valid, invalid or pending), only the current metadata counts.
    first = [_doc(i, m) for i, (m, _) in enumerate(pairs)]
    second = [_doc(i, m) for i, (_, m) in enumerate(pairs)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        open_apsw_index(str(Path(tmp) / "index.sqlite"), FixedClock()) as index,
    ):
        put(index, *first)
        put(index, *second)
        for raw in raws:
            predicate = MetadataPredicate.model_validate(raw)
            assert _lexical(index, predicate) == _expected(second, predicate)
