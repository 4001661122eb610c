"""The ``gno`` entry point: global options, command dispatch, and the one error-to-exit mapping."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from gno_cli.context import Context
from gno_cli.output import emit_json
from gno_core import __version__
from gno_core.errors import GnoError, ValidationError, exit_code_for

if TYPE_CHECKING:
    from gno_adapters.embed_child import EmbedChild


class UsageError(ValidationError):
    """A command line argparse cannot read: bad input, so exit 1 like every VALIDATION error
    (argparse's own exit status 2 means a runtime failure in gno's table)."""


#: The namespace attribute a sub-command's parser leaves its own name in, so unknown options
#: are reported (with suggestions) by the parser that would have known them.
_OWNER = "_gno_owner_parser"


def _close(word: str, candidates: Sequence[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(
            f"{message} (see: {self.prog} --help)", details={"usage": self.format_usage().strip()}
        )

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(c) for c in choices]
        guess = _close(str(value), names) if isinstance(value, str) else None
        what = "command" if isinstance(action, argparse._SubParsersAction) else "choice"
        listed = ", ".join(repr(n) for n in names)
        hint = f"did you mean {guess!r}?" if guess else f"choose from {listed}"
        raise argparse.ArgumentError(action, f"invalid {what}: {value!r}, {hint}")

    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        parsed: argparse.Namespace
        parsed, extras = self.parse_known_args(args, namespace)
        owner: argparse.ArgumentParser = getattr(parsed, _OWNER, None) or self
        if hasattr(parsed, _OWNER):
            delattr(parsed, _OWNER)
        if extras:
            message = f"unrecognized arguments: {' '.join(extras)}"
            known = list(owner._option_string_actions)
            guesses = [
                _close(extra.split("=", 1)[0], known) for extra in extras if extra.startswith("-")
            ]
            found = [g for g in guesses if g]
            if found:
                message += "; did you mean " + " / ".join(repr(g) for g in found) + "?"
            owner.error(message)
        return parsed


class _TopParser(_Parser):
    """``gno`` itself: its ``Exit codes:`` epilog is built only when the help is shown, so a
    command's start-up neither builds nor imports it."""

    def format_help(self) -> str:
        if self.epilog is None:
            from gno_cli.exit_codes import help_text

            self.epilog = help_text()
        return super().format_help()


#: Options whose values may start with "-" (so "--since -5d" reaches the date parser and gets
#: its error rather than argparse's "expected one argument").
_DASH_VALUE_OPTIONS = frozenset({"--since", "--until"})


def _join_dash_values(argv: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        following = argv[i + 1] if i + 1 < len(argv) else None
        if (
            token in _DASH_VALUE_OPTIONS
            and following is not None
            and following.startswith("-")
            and not following.startswith("--")
            and len(following) > 1
        ):
            out.append(f"{token}={following}")
            i += 2
            continue
        out.append(token)
        i += 1
    return out


def _global_options(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    def default(value: object) -> object:
        return argparse.SUPPRESS if suppress else value

    parser.add_argument("--index", default=default(None), help="index name (default: default)")
    parser.add_argument("--config", default=default(None), help="config file to use")
    parser.add_argument(
        "--json", action="store_true", default=default(False), help="print the JSON contract"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", default=default(False), help="no progress or hints"
    )
    parser.add_argument("--verbose", action="store_true", default=default(False))


#: Command -> the module of ``gno_cli.commands`` that registers it, in ``--help`` order. A run
#: builds the parser of its own command only (importing one module instead of ten); ``--help``,
#: no command or an unknown one builds them all. A test keeps this equal to the registrations.
COMMAND_MODULES: dict[str, str] = {
    "init": "collection",
    "collection": "collection",
    "update": "sync",
    "watch": "watch",
    "embed": "embed",
    "index": "embed",
    "capture": "capture",
    "rename": "refactors",
    "mv": "refactors",
    "duplicate": "refactors",
    "search": "search",
    "vsearch": "semantic",
    "query": "semantic",
    "similar": "semantic",
    "context": "evidence",
    "ask": "evidence",
    "section": "evidence",
    "get": "docs",
    "multi-get": "docs",
    "ls": "docs",
    "links": "links",
    "backlinks": "links",
    "graph": "graph",
    "impact": "integrity",
    "audit": "integrity",
    "changes": "delta",
    "diff": "delta",
    "egress-audit": "egress",
    "trace": "traces",
    "remember": "memory",
    "recall": "memory",
    "status": "health",
    "peek": "health",
    "tags": "health",
    "mcp": "mcp",
    "models": "models",
    "serve": "serve",
    "daemon": "serve",
}
_GLOBAL_WITH_VALUE = ("--index", "--config")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``gno`` parser; given ``argv``, with only the subcommand that ``argv`` names."""
    import importlib

    parser = _TopParser(
        prog="gno",
        description="gno: a local knowledge engine. Index folders, search them, serve them to agents.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gno {__version__}")
    _global_options(parser, suppress=False)
    # Global options are accepted after the command name too (suppressed defaults there, so a
    # value given before the command is not overwritten).
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, suppress=True)
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_sub_parser_class(common)
    )
    command = _command_of(argv) if argv is not None else None
    owner = COMMAND_MODULES.get(command) if command else None
    names = [owner] if owner else list(dict.fromkeys(COMMAND_MODULES.values()))
    for name in names:
        importlib.import_module(f"gno_cli.commands.{name}").register(sub)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is not a global option or its value."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in _GLOBAL_WITH_VALUE:
            skip = True
        elif token == "--":
            return None
        elif not token.startswith("-"):
            return token
    return None


def _sub_parser_class(common: argparse.ArgumentParser) -> type[argparse.ArgumentParser]:
    class SubParser(_Parser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["parents"] = [*(kwargs.get("parents") or []), common]
            super().__init__(*args, **kwargs)

        def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
            parsed, extras = super().parse_known_args(*args, **kwargs)
            if not hasattr(parsed, _OWNER):  # an inner sub-command's parser already said
                setattr(parsed, _OWNER, self)
            return parsed, extras

    return SubParser


#: pydantic looks for plugins by reading the entry points of every installed distribution
#: when the first model class is built (~10-20 ms of each ``gno`` start); gno uses none. A
#: caller who wants their plugins in a gno process sets the variable themselves.
_PLUGINS_OFF = ("PYDANTIC_DISABLE_PLUGINS", "__all__")
#: The module pydantic imports its plugin lookup from, on the first model it builds.
_PLUGIN_LOADER = "pydantic.plugin._loader"


def _plugins_off() -> None:
    """Turn pydantic's plugins off for this process, without their lookup's imports.

    Even with the variable set, pydantic imports ``importlib.metadata`` (and with it ``email``,
    ``csv``, ``zipfile``, ``socket``) to build its first model, only to find the lookup off: a
    fifth of an empty interpreter's start again. When every plugin is off, the loader it would
    import has a single answer, no plugins, so it is given that loader instead. Plugins named
    one by one (or on) keep pydantic's own loader. ``tests/unit/test_cli_plugins_off.py`` pins
    the name pydantic calls.
    """
    os.environ.setdefault(*_PLUGINS_OFF)
    if os.environ[_PLUGINS_OFF[0]] != _PLUGINS_OFF[1] or _PLUGIN_LOADER in sys.modules:
        return
    import types

    loader = types.ModuleType(_PLUGIN_LOADER, "pydantic plugins, all off (see gno_cli.main)")
    loader.get_plugins = tuple  # type: ignore[attr-defined]
    sys.modules[_PLUGIN_LOADER] = loader


#: numpy's OpenBLAS starts a worker thread per core as numpy loads, ~65 ms of CPU at each
#: ``gno vsearch``/``query`` start on two cores, for BLAS work gno does not have: its numpy
#: pools and normalises one text's vectors, and the exact vector search without sqlite-vec is
#: one matrix-vector product (the same bytes on one thread). A caller who wants BLAS threads
#: in a gno process sets the variable themselves.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")


def main(argv: Sequence[str] | None = None) -> int:
    _plugins_off()
    os.environ.setdefault(*_BLAS_THREADS)
    given = list(sys.argv[1:] if argv is None else argv)
    child = _embed_child(given)
    try:
        args = build_parser(given).parse_args(_join_dash_values(given))
    except BaseException as exc:  # a usage error, --help, --version or Ctrl-C
        if child is not None:
            child.close()
        if not isinstance(exc, UsageError):
            raise
        if "--json" in given:
            emit_json(exc.envelope())
        else:
            print(exc.details["usage"], file=sys.stderr)
            print(f"Error: {exc.message}", file=sys.stderr)
        return exit_code_for(exc)
    ctx = Context(args, child)
    try:
        code: int = args.handler(ctx)
        return code
    except GnoError as exc:
        return _fail(ctx, exc)
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        import pydantic

        if not isinstance(exc, pydantic.ValidationError):
            raise
        from gno_core.errors import validation_problems

        return _fail(ctx, ValidationError(f"Invalid input: {validation_problems(exc.errors())}"))
    except KeyboardInterrupt:
        from gno_cli.exit_codes import INTERRUPTED

        print("Interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader left (``gno search x | head``): not an error of gno's. Point stdout at
        # /dev/null so the interpreter's final flush does not raise again, and exit as a
        # process killed by SIGPIPE would.
        from gno_cli.exit_codes import BROKEN_PIPE

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE
    finally:
        ctx.close()


def _embed_child(argv: Sequence[str]) -> EmbedChild | None:
    """``vsearch``/``query`` load the embedding model in a child process forked first thing,
    before the command is parsed (``GNO_EMBED_FORK=0``: on a thread, as where ``os.fork`` is
    missing)."""
    if _command_of(argv) not in ("vsearch", "query"):
        return None
    from gno_adapters.embed_child import EmbedChild, fork_wanted

    return EmbedChild.start() if fork_wanted(os.environ) else None


def _fail(ctx: Context, exc: GnoError) -> int:
    if ctx.json:
        emit_json(exc.envelope())
    else:
        print(f"Error: {exc.message}", file=sys.stderr)
    return exit_code_for(exc)


def mcp_main() -> int:
    """``gno-mcp``: the MCP server over stdio (same as ``gno mcp``)."""
    return main(["mcp", *sys.argv[1:]])


def daemon_main() -> int:
    """``gno-daemon``: the headless resident gateway (same as ``gno daemon``)."""
    return main(["daemon", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
