"""The JSONC editor: reads what clients write (comments, trailing commas), changes one member,
and removing what it added gives back the original bytes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_adapters.clients import jsonc

ENTRY = {"command": "/usr/bin/python3", "args": ["-m", "gno_cli", "mcp"], "env": {"A": "/a"}}

ORIGINALS = [
    '{\n  "mcpServers": {}\n}\n',
    '{\n  "mcpServers": {\n    "other": {"command": "npx"}\n  }\n}\n',
    # comments everywhere, a trailing comma, a same-line comment after the last member
    '// settings\n{\n  /* theme */ "theme": "dark", // keep\n  "mcpServers": {\n'
    '    "other": { "command": "npx", "args": ["-y", "x",], }, // other server\n  },\n}\n',
    # no trailing comma, comment after the last value
    '{\n    "mcpServers": {\n        "a": 1 // one\n    }\n}',
    # CRLF line ends
    '{\r\n  "mcpServers": {\r\n    "a": 1\r\n  }\r\n}\r\n',
    # the container in one line
    '{"mcpServers": {"a": {"command": "x"}}, "z": [1, 2]}',
]


@pytest.mark.parametrize("original", ORIGINALS)
def test_set_then_remove_gives_back_every_byte(original: str) -> None:
    installed = jsonc.set_member(original, ["mcpServers", "gno"], ENTRY)
    assert jsonc.get_member(installed, ["mcpServers", "gno"]) == ENTRY
    before = jsonc.loads(original)
    after = jsonc.loads(installed)
    assert {k: v for k, v in after["mcpServers"].items() if k != "gno"} == before.get(
        "mcpServers", {}
    )
    assert jsonc.remove_member(installed, ["mcpServers", "gno"]) == original


@pytest.mark.parametrize("original", ["{}", "{}\n", ""])
def test_a_created_container_stays_when_the_entry_goes(original: str) -> None:
    installed = jsonc.set_member(original, ["mcpServers", "gno"], ENTRY)
    assert json.loads(installed) == {"mcpServers": {"gno": ENTRY}}
    assert json.loads(jsonc.remove_member(installed, ["mcpServers", "gno"])) == {"mcpServers": {}}


def test_strict_json_stays_strict_json() -> None:
    original = '{\n  "mcpServers": {\n    "a": {"command": "x"}\n  },\n  "b": true\n}\n'
    installed = jsonc.set_member(original, ["mcpServers", "gno"], ENTRY)
    assert json.loads(installed)["mcpServers"]["gno"] == ENTRY
    assert installed.endswith('\n  },\n  "b": true\n}\n')


def test_a_new_member_uses_the_files_indentation() -> None:
    original = '{\n    "mcpServers": {\n        "a": 1\n    }\n}\n'
    installed = jsonc.set_member(original, ["mcpServers", "gno"], {"command": "c"})
    assert '\n        "gno": {\n            "command": "c"\n        }\n' in installed


def test_missing_containers_are_created() -> None:
    installed = jsonc.set_member('{\n  "x": 1\n}\n', ["amp.mcpServers", "gno"], ENTRY)
    assert json.loads(installed) == {"x": 1, "amp.mcpServers": {"gno": ENTRY}}
    assert json.loads(jsonc.set_member("", ["a", "b"], 1)) == {"a": {"b": 1}}


def test_replacing_keeps_the_neighbours() -> None:
    original = '{"mcpServers": {"gno": {"command": "old"}, /* c */ "z": 1}}'
    replaced = jsonc.set_member(original, ["mcpServers", "gno"], {"command": "new"})
    assert replaced.endswith(', /* c */ "z": 1}}')
    assert jsonc.get_member(replaced, ["mcpServers", "gno"]) == {"command": "new"}


def test_removing_a_missing_member_changes_nothing() -> None:
    text = '{"mcpServers": {"a": 1}} // end\n'
    assert jsonc.remove_member(text, ["mcpServers", "gno"]) == text
    assert jsonc.remove_member(text, ["nope", "gno"]) == text


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"a": }',
        '{"a": 1 "b": 2}',
        "[1, 2]",
        '{"a": "unterminated}',
        "{/* open comment",
        "{'single': 1}",
        '{"a": 1} trailing',
        "[" * 1000 + "]" * 1000,
    ],
)
def test_unreadable_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(jsonc.JsoncError, match=r"line \d+, column \d+|not an object"):
        jsonc.set_member(text, ["mcpServers", "gno"], ENTRY)


def test_a_container_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(jsonc.JsoncError, match="not an object"):
        jsonc.set_member('{"mcpServers": []}', ["mcpServers", "gno"], ENTRY)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    servers=st.dictionaries(st.text(max_size=6).filter(lambda k: k != "gno"), _json, max_size=3),
    other=st.dictionaries(
        st.text(max_size=6).filter(lambda k: k != "mcpServers"), _json, max_size=3
    ),
    indent=st.sampled_from([None, 2, 4, "\t"]),
)
def test_round_trip_on_any_json(
    servers: dict[str, object], other: dict[str, object], indent: object
) -> None:
    original = json.dumps({**other, "mcpServers": servers}, indent=indent)  # type: ignore[arg-type]
    installed = jsonc.set_member(original, ["mcpServers", "gno"], ENTRY)
    assert json.loads(installed) == {**other, "mcpServers": {**servers, "gno": ENTRY}}
    assert jsonc.remove_member(installed, ["mcpServers", "gno"]) == original
