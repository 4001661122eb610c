"""Command-line options derived from the request models: every option lands in its request
field, the option shapes (positional, inverted, tri-state, exclusive, comma or repeated lists),
and that building the parser loads no model."""

from __future__ import annotations

import argparse
import subprocess
import sys
from typing import Annotated

import pytest
from pydantic import Field

from gno_cli.commands.search import request_from
from gno_cli.commands.semantic import query_request
from gno_cli.main import UsageError, build_parser
from gno_cli.options import add_request_options, defer, request_values
from gno_core.contracts.requests import Cli, QueryMode, Request
from gno_core.errors import ValidationError


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_every_search_option_reaches_its_request_field() -> None:
    args = parse(
        "search", "needle", "-c", "notes", "-n", "7", "--min-score", "0.5", "--lang", "en",
        "--intent", "why", "--exclude", "a, b,", "--since", "7d", "--until", "today",
        "--category", "x,y", "--author", "me", "--tags-all", "t1,t2", "--tags-any", "t3",
        "--path-prefix", "p/", "--filter", '{"op": "exists", "key": "k", "value": true}',
    )  # fmt: skip
    assert request_from(args).model_dump() == {
        "query": "needle",
        "collection": "notes",
        "limit": 7,
        "min_score": 0.5,
        "lang": "en",
        "intent": "why",
        "exclude": ["a", "b"],
        "since": "7d",
        "until": "today",
        "categories": ["x", "y"],
        "author": "me",
        "tags_all": ["t1", "t2"],
        "tags_any": ["t3"],
        "path_prefix": "p/",
        "filter": {"op": "exists", "key": "k", "value": True},
    }


def test_options_not_given_leave_the_model_defaults_and_listings_default_to_20() -> None:
    assert request_from(parse("vsearch", "q")).limit == 5
    assert request_from(parse("search", "q", "--json")).limit == 20
    assert request_from(parse("search", "q", "--files")).limit == 20
    assert request_from(parse("search", "q", "--files", "-n", "2")).limit == 2


def test_query_controls_reach_the_query_request() -> None:
    plain = query_request(parse("query", "q"))
    assert (plain.fast, plain.thorough, plain.expand, plain.rerank) == (False, False, None, True)
    # Graph expansion is off unless asked for (None: not requested).
    assert (plain.graph, plain.explain, plain.candidate_limit, plain.query_modes) == (
        None,
        False,
        None,
        [],
    )
    assert query_request(parse("query", "q", "--graph")).graph is True
    argv = "query q --thorough --no-expand --no-rerank -C 9 --explain --no-graph".split()
    argv += ["--query-mode", "term:abc", "--query-mode", "hyde: a passage"]
    tuned = query_request(parse(*argv))
    assert (tuned.thorough, tuned.expand, tuned.rerank, tuned.candidate_limit) == (
        True,
        False,
        False,
        9,
    )
    assert (tuned.explain, tuned.graph) == (True, False)
    assert tuned.query_modes == [
        QueryMode(mode="term", text="abc"),
        QueryMode(mode="hyde", text="a passage"),
    ]
    assert query_request(parse("query", "q", "--expand")).expand is True


def test_fast_and_thorough_are_exclusive_on_the_command_line() -> None:
    with pytest.raises(UsageError, match="not allowed with argument"):
        parse("query", "q", "--fast", "--thorough")


def test_a_malformed_query_mode_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="--query-mode expects"):
        query_request(parse("query", "q", "--query-mode", "nope"))


class Sample(Request):
    name: Annotated[str, Cli(help="the name")]
    size: Annotated[int, Cli(flags=("-s", "--size"))] = Field(default=3)
    on: bool = True
    maybe: Annotated[bool | None, Cli(help="yes", off_help="no")] = None
    mode_a: Annotated[bool, Cli(group="mode")] = False
    mode_b: Annotated[bool, Cli(group="mode")] = False
    words: list[str] = Field(default_factory=list)
    each: Annotated[list[str], Cli(repeat=True, metavar="W")] = Field(default_factory=list)
    hidden: Annotated[str | None, Cli(skip=True)] = None


def sample_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="t")
    add_request_options(parser, Sample)
    return parser


def test_option_shapes_follow_the_field() -> None:
    args = sample_parser().parse_args(
        ["n", "-s", "4", "--no-on", "--no-maybe", "--mode-b", "--words", "a,b", "--each", "x,y"]
    )
    assert request_values(args, Sample) == {
        "name": "n",
        "size": 4,
        "on": False,
        "maybe": False,
        "mode_a": False,
        "mode_b": True,
        "words": ["a", "b"],
        "each": ["x,y"],
    }
    assert request_values(sample_parser().parse_args(["n"]), Sample) == {
        "name": "n",
        "on": True,
        "mode_a": False,
        "mode_b": False,
    }
    assert "--hidden" not in sample_parser().format_help()
    with pytest.raises(SystemExit):
        sample_parser().parse_args(["n", "--mode-a", "--mode-b"])


def test_a_field_type_without_an_option_shape_is_refused() -> None:
    class Odd(Request):
        table: dict[str, int] = Field(default_factory=dict)

    with pytest.raises(TypeError, match="no command-line option"):
        add_request_options(argparse.ArgumentParser(), Odd)


def test_deferred_options_appear_on_first_parse_or_help_only_once() -> None:
    calls: list[str] = []
    parser = argparse.ArgumentParser(prog="t")

    def populate(p: argparse.ArgumentParser) -> None:
        calls.append("x")
        p.add_argument("--late")

    defer(parser, populate)
    assert calls == []
    assert "--late" in parser.format_help()
    assert parser.parse_args(["--late", "1"]).late == "1"
    assert calls == ["x"]


def test_building_the_parser_loads_neither_pydantic_nor_the_models() -> None:
    code = (
        "import sys; from gno_cli.main import build_parser; build_parser(); "
        "print('pydantic' in sys.modules, 'gno_core.contracts' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]
