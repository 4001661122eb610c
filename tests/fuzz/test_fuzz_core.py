"""Fuzzing the core through the real facade over a real index: refs and URIs, the query grammar
and the search filters. Only ``GnoError``s (typed, with a stable code) may come out; never a
SQLite error, a ``RecursionError`` or a pydantic error that escaped its request model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gno_core.errors import GnoError
from gno_core.identity import make_uri, parse_ref, parse_uri
from gno_core.retrieval.query import parse_query
from tests.fuzz.corpus import build_index
from tests.fuzz.strategies import REF_LIKE, hostile_text

# Query-grammar pieces, so that generated queries reach quotes, negation and operators often.
GRAMMAR = [
    '"',
    "-",
    "*",
    " OR ",
    " AND ",
    " NOT ",
    "NEAR(",
    ")",
    "(",
    ":",
    "^",
    "+",
    "tomato",
    "依赖",
]
queries = st.one_of(
    hostile_text,
    st.lists(st.one_of(st.sampled_from(GRAMMAR), hostile_text), min_size=1, max_size=12).map(
        "".join
    ),
)
refs = st.one_of(
    hostile_text,
    st.sampled_from(REF_LIKE),
    st.builds(lambda r, tail: r + tail, st.sampled_from(REF_LIKE), hostile_text),
)


@pytest.fixture(scope="module")
def gno(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from gno_adapters.bootstrap import open_gno

    env = build_index(tmp_path_factory.mktemp("fuzz-core"))
    with open_gno(env=env) as facade:
        yield facade


def typed_only(call: Any) -> Any:
    try:
        return call()
    except GnoError as exc:
        assert exc.code and exc.message
        return exc


@given(refs)
def test_parse_ref_returns_a_ref_or_a_typed_error(text: str) -> None:
    typed_only(lambda: parse_ref(text))
    if text.startswith("gno://"):
        typed_only(lambda: parse_uri(text))


@given(hostile_text.filter(lambda t: "/" in t.strip("/")))
def test_a_made_uri_parses_back(rel: str) -> None:
    rel = rel.strip("/")
    made = typed_only(lambda: make_uri("notes", rel))
    if isinstance(made, str):
        typed_only(lambda: parse_uri(made))


@given(queries)
def test_the_query_grammar_never_fails_untyped(text: str) -> None:
    typed_only(lambda: parse_query(text))


@given(
    refs,
    st.one_of(st.none(), st.integers(-5, 10**12)),
    st.one_of(st.none(), st.integers(-5, 10**12)),
)
def test_get_answers_or_fails_typed(
    gno: Any, ref: str, start: int | None, count: int | None
) -> None:
    typed_only(lambda: gno.get(ref, from_line=start, line_count=count))


@given(st.lists(refs, max_size=8), st.integers(-3, 2**40))
def test_multi_get_answers_or_fails_typed(gno: Any, many: list[str], max_bytes: int) -> None:
    got = typed_only(lambda: gno.multi_get(many or None, max_bytes=max_bytes))
    if not isinstance(got, GnoError):
        assert got.meta.returned + got.meta.skipped <= len(set(many))


@given(refs)
def test_multi_get_patterns_answer_or_fail_typed(gno: Any, pattern: str) -> None:
    typed_only(lambda: gno.multi_get(pattern=pattern))


@given(
    queries,
    st.fixed_dictionaries(
        {},
        optional={
            "collection": hostile_text,
            "since": st.one_of(hostile_text, st.sampled_from(["-5d", "7d", "2024-02-30", "today"])),
            "until": hostile_text,
            "lang": hostile_text,
            "author": hostile_text,
            "pathPrefix": hostile_text,
            "tagsAll": st.lists(hostile_text, max_size=4),
            "tagsAny": st.lists(hostile_text, max_size=4),
            "categories": st.lists(hostile_text, max_size=4),
            "exclude": st.lists(queries, max_size=4),
            "limit": st.integers(-2, 200),
        },
    ),
)
def test_search_answers_or_fails_typed(gno: Any, query: str, filters: dict[str, Any]) -> None:
    from pydantic import ValidationError as ModelError

    from gno_core.contracts.requests import SearchRequest

    try:
        request = SearchRequest.model_validate({"query": query, **filters})
    except ModelError:
        return  # the request model refuses it: every transport maps that to VALIDATION
    typed_only(lambda: gno.search(request))
