"""Tool input schemas derived from the request models: the deriver's rules and its refusals,
argument picking, and that deriving stays off the server's import path."""

from __future__ import annotations

import subprocess
import sys
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from gno_adapters.mcp.tools import ALL_TOOLS
from gno_adapters.mcp.tools.schema import DerivedSchema, model_arguments, object_schema
from gno_core.contracts.requests import QueryRequest, Request, SearchRequest


class Item(BaseModel):
    kind: Literal["a", "b"]


class Sample(Request):
    name: str = Field(description="The name")
    count: int = Field(default=3, ge=1, le=9, description="How many")
    ratio: float | None = Field(default=None, ge=0, le=1)
    tags: list[str] = Field(default_factory=list, description="Tags")
    items: list[Item] = Field(default_factory=list)
    flag: bool | None = Field(default=None, json_schema_extra={"default": False})


def test_a_model_becomes_an_object_schema_by_alias_with_bounds_defaults_and_required() -> None:
    assert object_schema(Sample) == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The name"},
            "count": {
                "type": "integer",
                "description": "How many",
                "default": 3,
                "minimum": 1,
                "maximum": 9,
            },
            "ratio": {"type": "number", "minimum": 0, "maximum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags"},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"kind": {"type": "string", "enum": ["a", "b"]}},
                    "required": ["kind"],
                    "additionalProperties": False,
                },
            },
            "flag": {"type": "boolean", "default": False},
        },
        "required": ["name"],
        "additionalProperties": False,
    }


def test_overrides_hide_reorder_redescribe_and_extend() -> None:
    schema = object_schema(
        Sample,
        hide=frozenset({"items", "flag", "ratio"}),
        order=("tags", "name", "count"),
        describe={"name": "Another name"},
        key_order={"count": ("maximum", "minimum", "default", "description", "type")},
        extra={"hint": {"type": "string"}},
    )
    assert list(schema["properties"]) == ["tags", "name", "count", "hint"]
    assert schema["properties"]["name"]["description"] == "Another name"
    assert list(schema["properties"]["count"]) == [
        "maximum",
        "minimum",
        "default",
        "description",
        "type",
    ]


@pytest.mark.parametrize(
    "overrides",
    [
        {"order": ("name", "count")},  # a shown field left out of the order
        {"hide": frozenset({"nope"})},
        {"describe": {"nope": "x"}},
        {"key_order": {"count": ("type",)}},
    ],
)
def test_an_override_that_does_not_fit_the_model_is_refused(overrides: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        object_schema(Sample, **overrides)  # type: ignore[arg-type]


def test_a_field_type_without_a_schema_is_refused() -> None:
    class Odd(Request):
        when: Annotated[dict[str, int], Field(default_factory=dict)]

    with pytest.raises(TypeError, match="no input schema"):
        object_schema(Odd)


def test_every_request_field_is_picked_from_the_arguments_and_nothing_else() -> None:
    arguments = {"query": "q", "pathPrefix": "a/", "projectHints": ["/x"], "noGraph": True}
    assert model_arguments(SearchRequest, arguments) == {"query": "q", "pathPrefix": "a/"}
    assert model_arguments(QueryRequest, arguments) == {
        "query": "q",
        "pathPrefix": "a/",
        "noGraph": True,
    }


def test_derived_schemas_are_mappings_and_every_tool_advertises_only_model_fields() -> None:
    from gno_adapters.mcp.tools.schema import request_model

    mcp_only = {"projectHints", "lineNumbers"}
    for tool in ALL_TOOLS:
        if not isinstance(tool.input_schema, DerivedSchema):
            continue
        model = request_model(tool.input_schema.model)
        aliases = {f.alias or n for n, f in model.model_fields.items()}
        assert set(tool.input_schema["properties"]) <= aliases | mcp_only, tool.name


def test_importing_the_tools_loads_neither_pydantic_nor_the_models() -> None:
    code = (
        "import sys; import gno_adapters.mcp.tools; "
        "print('pydantic' in sys.modules, 'gno_core.contracts' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]
