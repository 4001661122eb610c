"""Closed tool inputs (issue 23): every registered tool, in every profile and write mode, refuses
an argument it does not declare with an ``isError`` result naming the field, before its handler
runs or the facade is built. The tool list and the minimal valid arguments come from the
registry, so a new tool is covered without touching this file."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.mcp.tools import ALL_TOOLS
from tests.wire.mcp_fakes import FakeGno
from tests.wire.real_facade import Peer
from tests.wire.test_mcp_registry import VARIANTS, registry

TYPO = "colection"


def value_for(schema: dict[str, Any]) -> Any:
    """The smallest value ``schema`` accepts (for the shapes the tool schemas use)."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return True
    if kind == "array":
        return [value_for(schema.get("items", {}))] * schema.get("minItems", 0)
    if kind == "object":
        return minimal_arguments(schema)
    raise AssertionError(f"no minimal value for {schema}")


def minimal_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """The required properties of ``schema`` (its first ``oneOf`` branch when it has one)."""
    if "oneOf" in schema:
        schema = schema["oneOf"][0]
    properties = schema.get("properties", {})
    return {name: value_for(properties[name]) for name in schema.get("required", [])}


def cases() -> list[tuple[str, bool, str]]:
    return [
        (profile, write, tool.name)
        for profile, write in VARIANTS
        for tool in registry(profile, write).tools
    ]


class Recorder:
    """A facade factory that records every build and every facade call."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def __call__(self) -> Any:
        self.events.append("built")
        inner = FakeGno()
        events = self.events

        class Recording:
            def __getattr__(self, name: str) -> Any:
                events.append(name)
                return getattr(inner, name)

        return Recording()


def test_every_registered_tool_is_covered() -> None:
    names = {name for _, _, name in cases()}
    assert names == {tool.name for tool in ALL_TOOLS}


@pytest.mark.parametrize(("profile", "write", "name"), cases())
def test_a_misspelled_argument_is_refused_naming_it_before_the_handler(
    profile: str, write: bool, name: str
) -> None:
    reg = registry(profile, write)
    tool = reg.get(name)
    assert tool is not None
    schema = next(e for e in reg.listing() if e["name"] == name)["inputSchema"]
    arguments = minimal_arguments(schema)
    # The minimal arguments are valid: the refusal below is the misspelled field's alone.
    assert reg.argument_error(tool, arguments) is None, name

    recorder = Recorder()
    peer = Peer(profile=profile, enable_write=write, facade=recorder)
    peer.initialize()
    params = {"name": name, "arguments": {**arguments, TYPO: "foam"}}
    result = peer.request("tools/call", params)["result"]
    assert result.get("isError") is True, (name, result)
    text = result["content"][0]["text"]
    assert TYPO in text, text
    assert f"Invalid arguments for tool {name}" in text
    assert result["_meta"]["gno/error"]["code"] == "VALIDATION"
    assert recorder.events == [], (name, recorder.events)


def call(tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    recorder = Recorder()
    peer = Peer(facade=recorder)
    peer.initialize()
    result = peer.request("tools/call", {"name": tool, "arguments": arguments})["result"]
    return result, recorder.events


def test_a_misspelled_collection_on_search_is_refused_not_searched_everywhere() -> None:
    result, events = call("gno_search", {"query": "alpha", "colection": "foam"})
    assert result["isError"] is True
    assert "colection" in result["content"][0]["text"]
    assert "structuredContent" not in result
    assert events == []


@pytest.mark.parametrize("tool", ["gno_search", "gno_vsearch", "gno_query"])
def test_an_ill_formed_filter_is_refused_before_the_handler(tool: str) -> None:
    # ``filter`` is the typed metadata predicate now: a shape it does not have is refused
    result, events = call(tool, {"query": "alpha", "filter": {"field": "tags", "eq": "a"}})
    assert result["isError"] is True
    assert "filter" in result["content"][0]["text"]
    assert events == []


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("gno_context", {"goal": "g", "budgetTokens": 1000, "budgetTokenz": 5}),
        ("gno_ask", {"query": "q", "verify": True, "contextBudget": 5}),
    ],
)
def test_context_and_ask_refuse_unknown_fields(tool: str, arguments: dict[str, Any]) -> None:
    result, events = call(tool, arguments)
    assert result["isError"] is True
    unknown = next(k for k in arguments if k not in ("goal", "budgetTokens", "query", "verify"))
    assert unknown in result["content"][0]["text"]
    assert events == []


def test_an_unknown_field_inside_a_nested_input_is_refused_with_its_path() -> None:
    arguments = {"query": "alpha", "queryModes": [{"mode": "term", "text": "a", "weight": 2}]}
    result, events = call("gno_query", arguments)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "queryModes.0" in text and "weight" in text
    assert events == []
