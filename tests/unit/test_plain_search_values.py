"""``gno search``/``vsearch``/``query`` without pydantic: the field specs are ``SearchRequest``'s
and ``QueryRequest``'s own, and the plain check accepts only what the model accepts, with the
values the model would hold."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_core.contracts.fields import FieldSpec, field_specs, plain_values
from gno_core.contracts.query_fields import QUERY_FIELDS
from gno_core.contracts.requests import QueryRequest
from gno_core.contracts.search_fields import SEARCH_FIELDS
from gno_core.contracts.search_request import SearchRequest

QUERY_SPECS = SEARCH_FIELDS + QUERY_FIELDS


def test_the_committed_specs_are_the_models_fields() -> None:
    # Regenerate with ``python scripts/gen_contracts.py`` after changing ``SearchRequest``.
    assert field_specs(SearchRequest) == SEARCH_FIELDS


def test_the_plain_check_knows_every_rule_of_the_model() -> None:
    # A validator added to ``SearchRequest`` must be added to ``plain_values`` too (and here).
    validators = SearchRequest.__pydantic_decorators__.field_validators
    assert {name: d.info.fields for name, d in validators.items()} == {
        "_query": ("query",),
        "_unicode": ("*",),
    }
    assert SearchRequest.model_config.get("extra") == "forbid"
    # the typed metadata ``filter`` is one JSON document only the model judges
    assert [spec.name for spec in SEARCH_FIELDS if spec.opaque] == ["filter"]


def test_the_committed_query_specs_are_the_models_fields() -> None:
    # ``query_fields`` holds the fields ``QueryRequest`` adds, in the model's order.
    assert field_specs(QueryRequest) == QUERY_SPECS


def test_the_plain_check_knows_every_rule_of_the_query_model() -> None:
    # ``_consistent`` refuses fast with thorough (their group ``depth``: the plain check leaves
    # two set to the model) and more than one hyde entry (``query_modes``, a list of models,
    # is opaque: only the model judges it).
    decorators = QueryRequest.__pydantic_decorators__
    assert {name: d.info.fields for name, d in decorators.field_validators.items()} == {
        "_query": ("query",),
        "_unicode": ("*",),
    }
    assert set(decorators.model_validators) == {"_consistent"}
    assert [spec.name for spec in QUERY_SPECS if spec.cli.group] == ["fast", "thorough"]
    assert [spec.name for spec in QUERY_SPECS if spec.opaque] == ["filter", "query_modes"]
    assert QueryRequest.model_config.get("extra") == "forbid"


def model_answer(
    values: dict[str, Any], model: type[SearchRequest] = SearchRequest
) -> dict[str, Any] | None:
    try:
        return model.model_validate(values).model_dump()
    except pydantic.ValidationError:
        return None


def agree(
    values: dict[str, Any],
    specs: tuple[FieldSpec, ...] = SEARCH_FIELDS,
    model: type[SearchRequest] = SearchRequest,
) -> None:
    plain = plain_values(specs, values)
    expected = model_answer(values, model)
    if plain is not None:
        assert expected is not None, values
        assert vars(plain) == expected
        assert all(type(v) is type(expected[k]) for k, v in vars(plain).items())


CASES: list[dict[str, Any]] = [
    {"query": "alpha"},
    {"query": "alpha", "limit": 20, "min_score": 0.5, "exclude": ["a", "b"]},
    {"query": "alpha", "min_score": 1, "limit": 100},
    {"query": "alpha", "min_score": 0},
    {"query": "alpha", "collection": "notes", "tags_all": ["x"], "tags_any": [], "lang": "en"},
    {"query": "alpha", "since": "7d", "until": "today", "categories": ["c"], "author": "me"},
    {"query": "alpha", "path_prefix": "docs/", "intent": "why"},
    {"query": "x" * 10_000},
]
REFUSED: list[dict[str, Any]] = [
    {},
    {"limit": 5},
    {"query": "   "},
    {"query": ""},
    {"query": "x" * 10_001},
    {"query": "a\ud800b"},
    {"query": "alpha", "author": "\udfff"},
    {"query": "alpha", "exclude": ["ok", "\ud800"]},
    {"query": "alpha", "limit": 0},
    {"query": "alpha", "limit": 101},
    {"query": "alpha", "min_score": 1.5},
    {"query": "alpha", "min_score": -0.1},
    {"query": "alpha", "min_score": float("nan")},
    {"query": "alpha", "exclude": ["t"] * 101},
    {"query": "alpha", "unknown": 1},
    {"query": 5},
    {"query": "alpha", "tags_all": "x"},
]


@pytest.mark.parametrize("values", CASES)
def test_accepted_values_are_the_models_values(values: dict[str, Any]) -> None:
    plain = plain_values(SEARCH_FIELDS, values)
    assert plain is not None
    agree(values)


@pytest.mark.parametrize("values", REFUSED)
def test_what_the_model_refuses_goes_to_the_model(values: dict[str, Any]) -> None:
    assert model_answer(values) is None
    assert plain_values(SEARCH_FIELDS, values) is None


def test_values_of_another_type_go_to_the_model_even_when_it_would_coerce_them() -> None:
    for values in ({"query": "alpha", "limit": True}, {"query": "alpha", "limit": 5.0}):
        assert plain_values(SEARCH_FIELDS, values) is None
        assert model_answer(values) is not None


texts = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xFFFF), max_size=12)
value = st.one_of(
    texts,
    st.integers(-3, 200),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(texts, max_size=3),
    st.booleans(),
    st.none(),
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([spec.name for spec in SEARCH_FIELDS] + ["other"]), value, max_size=5
    )
)
def test_the_plain_check_never_accepts_what_the_model_refuses(values: dict[str, Any]) -> None:
    agree(values)


QUERY_CASES: list[dict[str, Any]] = [
    {"query": "alpha"},
    {"query": "alpha", "fast": True},
    {"query": "alpha", "thorough": True, "candidate_limit": 40, "explain": True},
    {"query": "alpha", "fast": False, "thorough": True},
    {"query": "alpha", "expand": False, "rerank": False, "graph": True, "min_score": 0.2},
    {"query": "alpha", "candidate_limit": 1, "limit": 20, "exclude": ["x"], "no_graph": True},
]
QUERY_REFUSED: list[dict[str, Any]] = [
    {"query": "alpha", "fast": True, "thorough": True},
    {"query": "alpha", "candidate_limit": 0},
    {"query": "alpha", "candidate_limit": 101},
    {"query": "alpha", "query_modes": ["term:x"]},
    {
        "query": "alpha",
        "query_modes": [{"mode": "hyde", "text": "a"}, {"mode": "hyde", "text": "b"}],
    },
    {"query": "alpha", "query_modes": [{"mode": "term", "text": "   "}]},
    {"query": "  ", "fast": True},
]


@pytest.mark.parametrize("values", QUERY_CASES)
def test_accepted_query_values_are_the_models_values(values: dict[str, Any]) -> None:
    assert plain_values(QUERY_SPECS, values) is not None
    agree(values, QUERY_SPECS, QueryRequest)


@pytest.mark.parametrize("values", QUERY_REFUSED)
def test_what_the_query_model_refuses_goes_to_the_model(values: dict[str, Any]) -> None:
    assert model_answer(values, QueryRequest) is None
    assert plain_values(QUERY_SPECS, values) is None


def test_query_modes_and_coerced_values_go_to_the_model_even_when_it_accepts_them() -> None:
    for values in (
        {"query": "alpha", "query_modes": [{"mode": "term", "text": "beta"}]},
        {"query": "alpha", "explain": "yes"},
    ):
        assert model_answer(values, QueryRequest) is not None
        assert plain_values(QUERY_SPECS, values) is None


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([spec.name for spec in QUERY_SPECS] + ["other"]),
        st.one_of(value, st.just(True)),
        max_size=6,
    ).map(lambda values: {"query": "alpha", **values})
)
def test_the_plain_check_never_accepts_what_the_query_model_refuses(
    values: dict[str, Any],
) -> None:
    agree(values, QUERY_SPECS, QueryRequest)


def test_a_spec_with_a_rule_it_cannot_state_goes_to_the_model() -> None:
    spec = FieldSpec(name="code", kind="str", required=True, default=None, opaque=True)
    assert plain_values((spec,), {"code": "x"}) is None
    assert vars(plain_values((spec._replace(opaque=False),), {"code": "x"}) or {}) == {"code": "x"}
