"""Frontmatter as hostile input: size, depth and alias-expansion bounds, and a property test that
the parser only ever fails with ``FRONTMATTER`` and that its two paths agree."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gno_adapters.files.frontmatter import (
    MAX_FRONTMATTER_CHARS,
    MAX_FRONTMATTER_DEPTH,
    MAX_FRONTMATTER_NODES,
    YamlFrontmatterParser,
)
from gno_core.errors import ValidationError

FAST = YamlFrontmatterParser()
FULL = YamlFrontmatterParser(fast_path=False)


def _bomb(width: int, levels: int) -> str:
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    lines.append(f"tags: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def _rejected(parser: YamlFrontmatterParser, text: str) -> str:
    with pytest.raises(ValidationError) as info:
        parser.parse(text)
    assert info.value.details == {"code": "FRONTMATTER"}
    return info.value.message


@pytest.mark.parametrize("parser", [FAST, FULL], ids=["fast", "full"])
def test_alias_bomb_fails_fast_with_the_node_bound(parser: YamlFrontmatterParser) -> None:
    started = time.monotonic()
    message = _rejected(parser, _bomb(9, 9))
    assert f"expands to more than {MAX_FRONTMATTER_NODES} nodes" in message
    # A guard against the unbounded expansion (minutes and gigabytes), not a speed target: the
    # bound is loose enough for a loaded 2-core machine; the figure lives in the ingest suite.
    assert time.monotonic() - started < 20


def test_aliases_within_the_bound_still_expand() -> None:
    front = FULL.parse(_bomb(3, 3))  # 27 items
    assert front["tags"] == [[["lol"] * 3] * 3] * 3


@pytest.mark.parametrize(
    "text",
    [
        "a: &a [*a]\n",  # a list that holds itself
        "a: &a {b: *a}\n",
        "a: " + "[" * (MAX_FRONTMATTER_DEPTH + 1) + "]" * (MAX_FRONTMATTER_DEPTH + 1) + "\n",
        "".join("  " * i + f"k{i}:\n" for i in range(MAX_FRONTMATTER_DEPTH + 2)),
        "a: " + "[" * 50_000 + "\n",  # unclosed, and deep enough to overflow a recursive parser
        "a:\n" + "- " * 10_000 + "x\n",
        "? " * 10_000 + "x\n",
    ],
    ids=["self-list", "self-map", "flow", "block", "unclosed-flow", "compact-seq", "complex-key"],
)
def test_deep_nesting_is_refused(text: str) -> None:
    for parser in (FAST, FULL):
        message = _rejected(parser, text)
        assert "nests deeper" in message or "indented more" in message


def test_nesting_at_the_bound_is_accepted() -> None:
    depth = MAX_FRONTMATTER_DEPTH - 1  # the top mapping is one level
    value = FULL.parse("a: " + "[" * depth + "]" * depth + "\n")["a"]
    for _ in range(depth - 1):
        value = value[0]
    assert value == []


def test_size_bound() -> None:
    line = "key: value\n"
    fits = line * (MAX_FRONTMATTER_CHARS // len(line))
    assert FAST.parse(fits) == {"key": "value"}
    message = _rejected(FAST, fits + line)
    assert f"over the {MAX_FRONTMATTER_CHARS}-character limit" in message


def test_node_bound_holds_on_the_line_parser_too() -> None:
    # One-character items: the block stays under the size bound and over the node bound.
    text = "tags: [" + ",".join("a" * (MAX_FRONTMATTER_NODES + 1)) + "]\n"
    assert len(text) < MAX_FRONTMATTER_CHARS * 2
    for parser in (FAST, FULL):
        if len(text) <= MAX_FRONTMATTER_CHARS:
            assert "nodes" in _rejected(parser, text)
        else:
            assert "limit" in _rejected(parser, text)


def test_complex_keys_count_against_the_bound() -> None:
    message = _rejected(FULL, _bomb(9, 9).replace("tags: *a8", "? *a8\n: x"))
    assert "nodes" in message


# -- property: only FRONTMATTER failures, bounded time, both paths agree ------------------------

_TOKENS = [
    "a", "tags", "title", "date", "x1", "-", "- ", ": ", ":", " ", "  ", "\n", "\n  ", "\t",
    "[", "]", "{", "}", ",", "&a", "*a", "&b", "*b", "!!str ", "!!set", "? ", "|", ">", "#",
    " #", "'", '"', "\\", "%", "@", "`", "~", "null", "true", "yes", "No", "0", "1.5", "007",
    "0x1F", "2024-02-30", "2024-01-31", "12:30", "1e3", ".inf", "---", "...", "é", "日本",
    "\u2028", "\x85", "\ufeff",
]  # fmt: skip

_yamlish = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)
_keyed = st.lists(st.tuples(st.sampled_from(["a", "b", "tags", "date"]), _yamlish), max_size=6).map(
    lambda pairs: "".join(f"{k}: {v}\n" for k, v in pairs)
)


def _outcome(parser: YamlFrontmatterParser, text: str) -> object:
    try:
        return parser.parse(text)
    except ValidationError as exc:
        assert exc.details.get("code") == "FRONTMATTER", exc.details
        return None


@settings(
    max_examples=300,
    deadline=2000,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
@given(st.one_of(_yamlish, _keyed, st.text(max_size=200)))
def test_parser_fails_only_with_frontmatter_and_paths_agree(text: str) -> None:
    fast = _outcome(FAST, text)
    full = _outcome(FULL, text)
    if fast is not None and full is not None:
        assert fast == full
