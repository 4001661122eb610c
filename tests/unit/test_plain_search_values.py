"""``gno search`` without pydantic: the field specs are ``SearchRequest``'s own, and the plain
check accepts only what the model accepts, with the values the model would hold."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_core.contracts.fields import FieldSpec, field_specs, plain_values
from gno_core.contracts.search_fields import SEARCH_FIELDS
from gno_core.contracts.search_request import SearchRequest


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
    assert not any(spec.opaque for spec in SEARCH_FIELDS)


def model_answer(values: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return SearchRequest.model_validate(values).model_dump()
    except pydantic.ValidationError:
        return None


def agree(values: dict[str, Any]) -> None:
    plain = plain_values(SEARCH_FIELDS, values)
    expected = model_answer(values)
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


def test_a_spec_with_a_rule_it_cannot_state_goes_to_the_model() -> None:
    spec = FieldSpec(name="code", kind="str", required=True, default=None, opaque=True)
    assert plain_values((spec,), {"code": "x"}) is None
    assert vars(plain_values((spec._replace(opaque=False),), {"code": "x"}) or {}) == {"code": "x"}
