"""Hypothesis strategies for hostile input: JSON values with lone surrogates and odd numbers,
JSON-RPC frames for both protocol eras, and tool arguments shaped by (or against) a schema."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
METHODS = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "server/discover",
    "notifications/cancelled",
    "notifications/initialized",
]
# Any code point, lone surrogates included (they arrive as \udXXX escapes from a peer), with
# a lone surrogate forced into a good share of the strings so that rare paths are reached.
_any_text = st.text(alphabet=st.characters(codec=None), max_size=40)
_surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
hostile_text = st.one_of(
    _any_text,
    _any_text,
    st.builds(lambda a, s, b: a + s + b, _any_text, _surrogate, _any_text),
)
deep = st.integers(min_value=50, max_value=3000).map(lambda n: b"[" * n + b"]" * n)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text,
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(hostile_text, children, max_size=5)
    ),
    max_leaves=25,
)


def encode(value: Any) -> bytes:
    """As a peer would send it: ASCII JSON, lone surrogates as escapes."""
    return json.dumps(value, ensure_ascii=True).encode()


def typed_value(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Mostly values of the declared type (edges included), sometimes any JSON at all."""
    kind = schema.get("type")
    by_type: dict[str, st.SearchStrategy[Any]] = {
        "string": st.one_of(hostile_text, st.sampled_from(REF_LIKE)),
        "integer": st.one_of(
            st.integers(min_value=-3, max_value=200), st.integers(min_value=-(2**64))
        ),
        "number": st.floats(allow_nan=False, allow_infinity=False),
        "boolean": st.booleans(),
        "array": st.lists(st.one_of(hostile_text, st.sampled_from(REF_LIKE)), max_size=6),
    }
    typed = by_type.get(kind, json_values) if isinstance(kind, str) else json_values
    return st.one_of(typed, typed, typed, json_values)


def arguments_for(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = schema.get("properties", {})
    optional = {name: typed_value(prop) for name, prop in properties.items()}
    known = st.fixed_dictionaries({}, optional=optional)
    extra = st.dictionaries(hostile_text, json_values, max_size=2)
    return st.one_of(known, known, known, st.builds(lambda a, b: {**b, **a}, known, extra))


REF_LIKE = [
    "gno://notes/garden.md",
    "gno://notes/garden.md:2",
    "gno://notes/garden.md?index=other",
    "gno://notes/../../etc/passwd",
    "gno://notes/%2e%2e/%2e%2e/etc/passwd",
    "gno://NOTES/travel/lisbon.md",
    "notes/kitchen.md:99999999999999999999",
    "#abcdef",
    "#zzzzzz",
    "gno://",
    "gno:///",
    "/etc/passwd",
    "gno://notes/*",
    "notes/**",
    "gno://tags?collection=notes",
    "\\x00",
    "gno://notes/garden.md:0",
    "tomato* OR -garden",
    '"unbalanced',
    "NEAR(a b)",
]
