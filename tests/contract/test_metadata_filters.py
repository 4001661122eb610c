"""Contract suite of typed metadata filters (``SearchFilters.metadata``) on the ``LexicalIndex``
and ``VectorIndex`` ports, against every adapter: the table of the reference facts (§15), the
invalid and not-yet-extracted documents, and the filter applied before the candidate limit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gno_core.contracts.metadata import MetadataPredicate
from gno_core.domain import SearchFilters
from gno_core.metadata.extract import INVALID, PENDING, DocumentMetadata
from gno_core.ports.vectors import ChunkVector
from gno_core.retrieval.query import parse_query
from tests.contract.store_support import Store, make_doc, put
from tests.contract.test_vector_index import FP, vec


def meta_doc(rel_path: str, body: str = "shared words here", **values: Any) -> Any:
    doc = make_doc(rel_path, body)
    items = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return replace(doc, metadata=DocumentMetadata(values=items))


def matching(
    store: Store, predicate: dict[str, Any], query: str = "shared", limit: int = 50
) -> list[str]:
    filters = SearchFilters(metadata=MetadataPredicate.model_validate(predicate))
    hits = store.lexical.search(parse_query(query), filters, limit)
    return sorted(h.document.rel_path for h in hits)


STATUS = {"op": "eq", "key": "status", "value": "approved"}


@pytest.fixture
def statuses(store: Store) -> Store:
    put(
        store,
        meta_doc("approved.md", status="approved"),
        meta_doc("draft.md", status="draft"),
        meta_doc("missing.md", other=1),
        meta_doc("false.md", status=False),
    )
    return store


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        # approved / draft / missing / false: eq, ne, not(eq), exists:false (reference table)
        (STATUS, ["approved.md"]),
        ({**STATUS, "op": "ne"}, ["draft.md"]),
        ({"op": "not", "predicate": STATUS}, ["draft.md", "false.md", "missing.md"]),
        ({"op": "exists", "key": "status", "value": False}, ["missing.md"]),
        ({"op": "exists", "key": "status", "value": True}, ["approved.md", "draft.md", "false.md"]),
        ({"op": "nin", "key": "status", "values": ["approved"]}, ["draft.md"]),
        (
            {"op": "not", "predicate": {"op": "in", "key": "status", "values": ["approved"]}},
            ["draft.md", "false.md", "missing.md"],
        ),
        ({"op": "eq", "key": "status", "value": False}, ["false.md"]),
    ],
)
def test_missing_field_table(
    statuses: Store, predicate: dict[str, Any], expected: list[str]
) -> None:
    assert matching(statuses, predicate) == expected


def test_types_are_exact(store: Store) -> None:
    put(
        store,
        meta_doc("num.md", score=0.9, n=0, flag=True, name="Alpha"),
        meta_doc("str.md", score="0.9", n=False, flag=1, name="alpha"),
        meta_doc("int.md", score=1, n=1.0, flag=False, name=""),
    )
    assert matching(store, {"op": "eq", "key": "score", "value": 0.9}) == ["num.md"]
    assert matching(store, {"op": "eq", "key": "score", "value": "0.9"}) == ["str.md"]
    assert matching(store, {"op": "eq", "key": "score", "value": 1.0}) == ["int.md"]
    assert matching(store, {"op": "gte", "key": "score", "value": 0.9}) == ["int.md", "num.md"]
    assert matching(store, {"op": "eq", "key": "n", "value": 0}) == ["num.md"]
    assert matching(store, {"op": "eq", "key": "n", "value": False}) == ["str.md"]
    assert matching(store, {"op": "eq", "key": "flag", "value": True}) == ["num.md"]
    assert matching(store, {"op": "eq", "key": "flag", "value": 1}) == ["str.md"]
    assert matching(store, {"op": "eq", "key": "name", "value": "alpha"}) == ["str.md"]
    assert matching(store, {"op": "eq", "key": "name", "value": ""}) == ["int.md"]
    assert matching(store, {"op": "lt", "key": "flag", "value": 5}) == ["str.md"]


def test_arrays_in_nin_all(store: Store) -> None:
    put(
        store,
        meta_doc("ab.md", tags=["a", "b"]),
        meta_doc("b.md", tags=["b"]),
        meta_doc("empty.md", tags=[]),
        meta_doc("scalar.md", tags="a"),
        meta_doc("nums.md", tags=[1, 2]),
    )
    assert matching(store, {"op": "in", "key": "tags", "values": ["a"]}) == ["ab.md", "scalar.md"]
    assert matching(store, {"op": "nin", "key": "tags", "values": ["a"]}) == ["b.md", "empty.md"]
    assert matching(store, {"op": "all", "key": "tags", "values": ["a", "b"]}) == ["ab.md"]
    assert matching(store, {"op": "all", "key": "tags", "values": ["b"]}) == ["ab.md", "b.md"]
    assert matching(store, {"op": "in", "key": "tags", "values": [2, 3]}) == ["nums.md"]
    # array equality is unsupported: eq never matches an array
    assert matching(store, {"op": "eq", "key": "tags", "value": "b"}) == []


def test_invalid_and_pending_documents_match_no_filter(store: Store) -> None:
    put(
        store,
        meta_doc("ok.md", status="draft"),
        replace(meta_doc("bad.md"), metadata=DocumentMetadata(INVALID, {}, "null value")),
        replace(meta_doc("old.md"), metadata=DocumentMetadata(PENDING)),
    )
    absent = {"op": "exists", "key": "status", "value": False}
    assert matching(store, absent) == []
    assert matching(store, {"op": "not", "predicate": {**absent, "value": True}}) == []
    assert matching(store, {"op": "ne", "key": "status", "value": "x"}) == ["ok.md"]
    # unfiltered search still finds them all
    hits = store.lexical.search(parse_query("shared"), SearchFilters(), 10)
    assert len(hits) == 3


def test_groups(statuses: Store) -> None:
    either = {"op": "or", "predicates": [STATUS, {"op": "eq", "key": "other", "value": 1}]}
    assert matching(statuses, either) == ["approved.md", "missing.md"]
    both = {"op": "and", "predicates": [STATUS, {"op": "exists", "key": "other", "value": True}]}
    assert matching(statuses, both) == []


def test_the_filter_applies_before_the_lexical_limit(store: Store) -> None:
    # 30 strong matches outside the predicate; the one inside ranks last unfiltered.
    crowd = [
        meta_doc(f"c{i:02}.md", "kettle kettle kettle kettle", status="draft") for i in range(30)
    ]
    put(store, *crowd, meta_doc("target.md", "kettle and a long tail of other words", status="ok"))
    assert matching(store, {"op": "eq", "key": "status", "value": "ok"}, "kettle", limit=1) == [
        "target.md"
    ]


def test_the_filter_applies_before_the_vector_limit(store: Store) -> None:
    crowd = [meta_doc(f"c{i:02}.md", f"crowd {i}", status="draft") for i in range(40)]
    target = meta_doc("target.md", "target", status="ok")
    put(store, *crowd, target)
    for d in crowd:
        store.vectors.put_vectors(FP, "m", [ChunkVector(d.mirror_hash, 0, vec(1, 0.001))])
    store.vectors.put_vectors(FP, "m", [ChunkVector(target.mirror_hash, 0, vec(-1, 1))])
    filters = SearchFilters(
        metadata=MetadataPredicate.model_validate({"op": "eq", "key": "status", "value": "ok"})
    )
    hits = store.vectors.nearest(vec(1, 0), FP, filters, 1)
    assert [h.document.rel_path for h in hits] == ["target.md"]


def test_document_metadata_reads_the_state_and_values(store: Store) -> None:
    put(
        store,
        meta_doc("ok.md", status="draft", tags=["a", "b"]),
        replace(meta_doc("bad.md"), metadata=DocumentMetadata(INVALID, {}, "null value")),
        replace(meta_doc("old.md"), metadata=DocumentMetadata(PENDING)),
    )
    docs = store.documents
    assert docs.document_metadata("notes", "ok.md") == DocumentMetadata(
        "valid", {"status": "draft", "tags": ("a", "b")}
    )
    assert docs.document_metadata("notes", "bad.md") == DocumentMetadata(INVALID, {}, "null value")
    assert docs.document_metadata("notes", "old.md") == DocumentMetadata(PENDING, {})
    assert docs.document_metadata("notes", "none.md") is None


def test_the_filter_intersects_the_other_filters(store: Store) -> None:
    put(
        store,
        meta_doc("a/gold.md", status="approved"),
        meta_doc("a/draft.md", status="draft"),
        meta_doc("b/gold.md", status="approved"),
        replace(meta_doc("gold.md", status="approved"), collection="other"),
    )
    predicate = MetadataPredicate.model_validate(STATUS)
    for filters, expected in (
        (SearchFilters(metadata=predicate, collections=("notes",)), ["a/gold.md", "b/gold.md"]),
        (SearchFilters(metadata=predicate, path_prefix="a/"), ["a/gold.md"]),
        (SearchFilters(metadata=predicate, collections=("other",)), ["gold.md"]),
        (SearchFilters(metadata=predicate, exclude_terms=("words",)), []),
    ):
        hits = store.lexical.search(parse_query("shared"), filters, 10)
        assert sorted(h.document.rel_path for h in hits) == expected
