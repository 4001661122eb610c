"""``gno`` builds the parser of the command being run only; the table it uses must match what
the command modules register, and the parser it builds must parse as the full one does."""

from __future__ import annotations

import argparse
import importlib

import pytest

from gno_cli.main import COMMAND_MODULES, UsageError, _command_of, build_parser


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def test_command_table_matches_the_registrations_in_help_order() -> None:
    assert _choices(build_parser()) == list(COMMAND_MODULES)
    for module in set(COMMAND_MODULES.values()):
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(f"gno_cli.commands.{module}").register(sub)
        owned = [c for c, m in COMMAND_MODULES.items() if m == module]
        assert list(sub.choices) == owned, module


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["search", "q"], "search"),
        (["--index", "search", "get", "x"], "get"),
        (["--config", "/c.yml", "-q", "--json", "ls"], "ls"),
        (["--index=x", "peek"], "peek"),
        (["--help"], None),
        ([], None),
        (["--", "search"], None),
    ],
)
def test_command_of(argv: list[str], command: str | None) -> None:
    assert _command_of(argv) == command


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "vitamin d", "-n", "3", "--json"],
        ["--index", "research", "get", "gno://notes/a.md", "-l", "5"],
        ["ls", "notes", "--limit", "2"],
        ["status", "--json"],
        ["query", "travel", "--explain"],
        ["collection", "add", "/tmp/x", "--name", "x"],
        ["serve", "--port", "0"],
    ],
)
def test_one_command_parser_parses_like_the_full_one(argv: list[str]) -> None:
    narrow = vars(build_parser(argv).parse_args(argv))
    full = vars(build_parser().parse_args(argv))
    assert narrow.keys() == full.keys()
    for key, value in full.items():
        if key == "handler":
            assert narrow[key] is value
        else:
            assert narrow[key] == value, key


def test_unknown_command_still_lists_every_command() -> None:
    with pytest.raises(UsageError) as caught:
        build_parser(["bogus"]).parse_args(["bogus"])
    assert "'search'" in caught.value.message and "'daemon'" in caught.value.message
