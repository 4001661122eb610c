"""Command-line options derived from the request models (``gno_core.contracts.requests``).

A request field is one option: ``--field-name`` (``-n``/``--category`` ... where its ``Cli``
metadata says so), typed by the field, with the field's CLI help. Required fields are positional;
a flag that defaults on is ``--no-field-name``; a tri-state flag (``bool | None``) gets both
``--x`` and ``--no-x``; a list is comma separated, or one item per use with ``repeat``. An option
not given stays ``None`` and is left out of the request, so the model's default applies.

Building the parser must stay cheap (``gno --help`` and every command build all of it), and the
models live in a package that loads pydantic: ``defer`` adds a command's options only when that
command parses or prints its help.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

    from gno_core.contracts.fields import FieldSpec
    from gno_core.contracts.requests import QueryMode

Parser = argparse.ArgumentParser
Model = TypeVar("Model", bound="BaseModel")


def defer(parser: Parser, populate: Callable[[Parser], None]) -> None:
    """Run ``populate(parser)`` once, just before ``parser`` first parses or formats help or
    usage (argparse reaches a sub-command's parser only through those)."""
    pending = [populate]

    def ready() -> None:
        while pending:
            pending.pop()(parser)

    for name in ("parse_known_args", "format_usage", "format_help"):
        method = getattr(parser, name)

        def hooked(*args: Any, _method: Callable[..., Any] = method, **kwargs: Any) -> Any:
            ready()
            return _method(*args, **kwargs)

        setattr(parser, name, hooked)


def csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def add_request_options(
    parser: Parser, model: type[BaseModel], *, skip: Iterable[str] = ()
) -> None:
    """One option per field of ``model``, in field order; ``skip`` names fields added
    elsewhere (a base model's, added earlier with other options in between)."""
    from gno_core.contracts.fields import field_specs

    add_field_options(parser, field_specs(model), skip=skip)


def add_field_options(
    parser: Parser, specs: Iterable[FieldSpec], *, skip: Iterable[str] = ()
) -> None:
    """``add_request_options`` from the fields' specs (``gno_core.contracts.fields``)."""
    skipped = set(skip)
    groups: dict[str, Any] = {}
    for spec in specs:
        cli = spec.cli
        if spec.name in skipped or cli.skip:
            continue
        target: Any = parser
        if cli.group is not None:
            if cli.group not in groups:
                groups[cli.group] = parser.add_mutually_exclusive_group()
            target = groups[cli.group]
        _add_field(target, spec)


def _add_field(target: Any, spec: FieldSpec) -> None:
    name, cli = spec.name, spec.cli
    if spec.required:
        target.add_argument(name, help=cli.help, metavar=cli.metavar)
        return
    long = "--" + name.replace("_", "-")
    if spec.kind == "bool":
        if spec.default is True:
            flags = cli.flags or ("--no-" + name.replace("_", "-"),)
            target.add_argument(*flags, dest=name, action="store_false", help=cli.help)
        elif spec.default is None:
            target.add_argument(
                *(cli.flags or (long,)),
                dest=name,
                action="store_true",
                default=None,
                help=cli.help,
            )
            target.add_argument(
                "--no-" + name.replace("_", "-"),
                dest=name,
                action="store_false",
                help=cli.off_help,
            )
        else:
            target.add_argument(
                *(cli.flags or (long,)), dest=name, action="store_true", help=cli.help
            )
        return
    options: dict[str, Any] = {"dest": name, "help": cli.help, "metavar": cli.metavar}
    if spec.kind == "list":
        options.update({"action": "append"} if cli.repeat else {"type": csv})
    elif spec.kind in ("int", "float"):
        options["type"] = int if spec.kind == "int" else float
    elif spec.kind == "choice":
        options["choices"] = list(spec.choices)
    elif spec.kind == "json":
        options["type"] = json_value
    if name == "collection" and spec.kind == "str":
        options["action"] = OneCollection
    target.add_argument(*(cli.flags or (long,)), **options)


def json_value(text: str) -> Any:
    """An option given as one JSON document (``--filter``); the request model judges it."""
    import json

    try:
        return json.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not valid JSON: {exc}") from exc


def request_values(args: argparse.Namespace, model: type[BaseModel]) -> dict[str, Any]:
    """The fields of ``model`` the command line gave (by field name), for ``model_validate``."""
    return given_values(args, model.model_fields)


def validated(args: argparse.Namespace, model: type[Model]) -> Model:
    """The command's request: ``model`` validated from the fields the command line gave."""
    return model.model_validate(request_values(args, model))


def given_values(args: argparse.Namespace, names: Iterable[str]) -> dict[str, Any]:
    """The fields of ``names`` the command line gave (an option left unset is ``None``)."""
    values = {name: getattr(args, name, None) for name in names}
    return {name: value for name, value in values.items() if value is not None}


class OneCollection(argparse.Action):
    """``-c/--collection`` on a command that takes one collection: a second, different name is
    refused (argparse keeps the last one given, which dropped the first without a word)."""

    def __call__(
        self,
        parser: Parser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None and before != values:
            command = parser.prog.removeprefix("gno ")
            parser.error(
                f"{command} takes one collection, and {option_string} named {before!r} and "
                f"{values!r} (gno update, embed, index, context and watch take several)"
            )
        setattr(namespace, self.dest, values)


def add_collections(parser: Parser, verb: str) -> None:
    """The collections a command works on: ``-c/--collection NAME`` (repeatable), or as before
    the names given positionally (an alias of the same thing)."""
    parser.add_argument(
        "collections", nargs="*", metavar="COLLECTION", help="same as -c (default: all)"
    )
    parser.add_argument(
        "-c",
        "--collection",
        dest="collection_options",
        action="append",
        metavar="NAME",
        help=f"only this collection to {verb} (repeatable)",
    )


def collections_of(args: argparse.Namespace) -> list[str] | None:
    """The collections named by ``add_collections``' options, in order, once each; None: all."""
    names = [*(args.collections or []), *(args.collection_options or [])]
    return list(dict.fromkeys(names)) or None


def query_modes(values: list[str]) -> list[QueryMode]:
    """The ``--query-mode term:TEXT|intent:TEXT|hyde:TEXT`` values as ``QueryMode``s (query,
    ask and query --diagnose read them alike)."""
    from gno_core.contracts.requests import QueryMode
    from gno_core.errors import ValidationError

    modes = []
    for value in values:
        mode, sep, text = value.partition(":")
        if not sep or mode.strip() not in ("term", "intent", "hyde"):
            raise ValidationError(
                f"--query-mode expects term:TEXT, intent:TEXT or hyde:TEXT, not {value!r}"
            )
        modes.append(QueryMode.model_validate({"mode": mode.strip(), "text": text}))
    return modes
