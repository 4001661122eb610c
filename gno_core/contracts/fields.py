"""Request fields as plain data (``FieldSpec``), so that a command can build its options and
check its values without creating the pydantic request class.

The request models stay the one declaration of every parameter: ``field_specs(model)`` reads a
model's fields into specs, the command line builds its options from specs
(``gno_cli.options``), and ``gno_core/contracts/search_fields.py`` holds the specs of
``SearchRequest``, generated from the model and kept equal to it by a test. ``plain_values``
checks values against a model's specs where the specs can say (bounds, lengths, the search
text rules); a value they cannot judge makes it answer ``None``, and the caller validates
with the model, which also words the error.
"""

from __future__ import annotations

import math
import types
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Union, get_args, get_origin

from gno_core.text.validity import has_lone_surrogate

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantic import BaseModel

__all__ = [
    "Cli",
    "FieldSpec",
    "blank_text_error",
    "field_specs",
    "lone_surrogate_error",
    "plain_values",
]


class Cli(NamedTuple):
    """How a request field appears on the command line, where that differs from what the
    field itself says (``Annotated[..., Cli(...)]``; read by ``gno_cli.options``).

    Without it a field is ``--field-name`` (``--no-field-name`` for a flag that defaults on), a
    required field is positional, a list is comma separated, and there is no help text.
    ``off_help`` is the help of ``--no-field-name`` for a flag whose default is "unset";
    ``group`` puts options in one mutually exclusive group; ``repeat`` makes a list take one
    item per use of the option; ``skip`` keeps the field off the command line."""

    help: str | None = None
    flags: tuple[str, ...] = ()
    metavar: str | None = None
    off_help: str | None = None
    group: str | None = None
    repeat: bool = False
    skip: bool = False


class FieldSpec(NamedTuple):
    """One request field: its type, default, bounds and command-line shape (``cli``)."""

    name: str
    #: str, int, float, bool, list (of str), choice (a Literal), json (a model given as one JSON
    #: document, e.g. ``--filter``), or other (a field kept off the command line, of a type no
    #: option takes: ``opaque``)
    kind: str
    required: bool
    default: Any
    choices: tuple[str, ...] = ()
    ge: float | None = None
    le: float | None = None
    max_length: int | None = None
    #: The field carries a constraint the spec cannot state: only the model judges its values.
    opaque: bool = False
    cli: Cli = Cli()


def blank_text_error(value: str) -> str | None:
    """Why ``value`` cannot be a search text (``None`` when it can)."""
    return None if value.strip() else "query must not be empty"


def lone_surrogate_error(value: object) -> str | None:
    """Why a text or list of texts cannot enter the core (``None`` when it can)."""
    texts = value if isinstance(value, list) else [value]
    if any(isinstance(t, str) and has_lone_surrogate(t) for t in texts):
        return "text must be valid Unicode (it holds a lone UTF-16 surrogate)"
    return None


def unwrap_optional(annotation: Any) -> Any:
    """``X`` for a field typed ``X | None``; any other annotation unchanged. The MCP schema and
    the CLI options derive from the same field types."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def field_specs(model: type[BaseModel]) -> tuple[FieldSpec, ...]:
    """The specs of ``model``'s fields, in field order (``TypeError`` for a field type the
    command line cannot take)."""
    return tuple(_spec(name, field) for name, field in model.model_fields.items())


def _spec(name: str, field: Any) -> FieldSpec:
    import annotated_types as at

    cli = next((m for m in field.metadata if isinstance(m, Cli)), Cli())
    kind = unwrap_optional(field.annotation)
    choices: tuple[str, ...] = ()
    if kind in (str, int, float, bool):
        kind_name = kind.__name__
    elif get_origin(kind) is list:
        kind_name = "list"
    elif get_origin(kind) is Literal:
        kind_name, choices = "choice", tuple(get_args(kind))
    elif _is_model(kind) and not cli.skip:  # a JSON document on the command line (``filter``)
        kind_name = "json"
    elif cli.skip:  # kept off the command line: any type, judged by the model only
        kind_name = "other"
    else:
        raise TypeError(f"no command-line option for the field type {kind!r} ({name})")
    bounds: dict[str, Any] = {}
    # The plain check knows lists of text only (a list of models has its items' own rules).
    opaque = kind_name in ("other", "json") or (kind_name == "list" and get_args(kind) != (str,))
    for meta in field.metadata:
        if isinstance(meta, Cli):
            continue
        if isinstance(meta, at.Ge):
            bounds["ge"] = meta.ge
        elif isinstance(meta, at.Le):
            bounds["le"] = meta.le
        elif isinstance(meta, at.MaxLen):
            bounds["max_length"] = meta.max_length
        else:
            opaque = True
    required = field.is_required()
    return FieldSpec(
        name=name,
        kind=kind_name,
        required=required,
        default=None if required else field.get_default(call_default_factory=True),
        choices=choices,
        opaque=opaque,
        cli=cli,
        **bounds,
    )


def _is_model(kind: Any) -> bool:
    from pydantic import BaseModel

    return isinstance(kind, type) and issubclass(kind, BaseModel)


def plain_values(specs: tuple[FieldSpec, ...], values: Mapping[str, Any]) -> SimpleNamespace | None:
    """Every field of ``specs`` (``values`` over the defaults) when each given value is of its
    field's exact type and within its bounds; ``None`` when one is not, or when only the model
    can tell. The checks are at least as strict as the model's (bounds, lengths, unknown names,
    a non-blank ``query``, no lone surrogate in any text), so a namespace is returned only for
    values the model would accept as they are; for anything else the caller validates with the
    model, which words the error. Fields of one ``cli.group`` exclude each other: two of them set
    is left to the model too. ``tests/unit/test_plain_search_values.py`` holds the two to the
    same answers."""
    fields = {spec.name: spec for spec in specs}
    if any(name not in fields for name in values):
        return None
    groups = [fields[name].cli.group for name, value in values.items() if value]
    groups = [group for group in groups if group is not None]
    if len(groups) != len(set(groups)):
        return None
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.name not in values:
            if spec.required:
                return None
            default = spec.default
            out[spec.name] = list(default) if isinstance(default, list) else default
            continue
        value = values[spec.name]
        if spec.opaque or not _fits(spec, value):
            return None
        if isinstance(value, list):
            value = list(value)
        elif spec.kind == "float":
            value = float(value)
        out[spec.name] = value
    return SimpleNamespace(**out)


def _fits(spec: FieldSpec, value: Any) -> bool:
    if spec.kind == "list":
        if not isinstance(value, list) or not all(type(v) is str for v in value):
            return False
        size: float = len(value)
    elif spec.kind in {"str", "choice"}:
        if type(value) is not str or (spec.choices and value not in spec.choices):
            return False
        size = len(value)
    elif spec.kind == "int":
        if type(value) is not int:
            return False
        size = value
    elif spec.kind == "float":
        if type(value) not in (int, float) or math.isnan(value):  # only the model words NaN
            return False
        size = value
    else:
        return type(value) is bool
    if spec.max_length is not None and spec.kind in ("str", "list") and size > spec.max_length:
        return False
    if spec.kind in ("int", "float"):
        if spec.ge is not None and size < spec.ge:
            return False
        if spec.le is not None and size > spec.le:
            return False
    if spec.name == "query" and isinstance(value, str) and blank_text_error(value):
        return False
    return lone_surrogate_error(value) is None


def specs_module(doc: str, name: str, specs: tuple[FieldSpec, ...]) -> str:
    """The Python source of a module that holds ``specs`` as ``name`` (written by
    ``scripts/gen_contracts.py``; format it with ``ruff format``)."""
    rows = "".join(f"    {_spec_source(spec)},\n" for spec in specs)
    return (
        f'"""{doc}"""\n\nfrom __future__ import annotations\n\n'
        "from gno_core.contracts.fields import Cli, FieldSpec\n\n"
        f"{name}: tuple[FieldSpec, ...] = (\n{rows})\n"
    )


def _spec_source(spec: FieldSpec | Cli) -> str:
    """``spec`` (or its ``cli``) as a call, naming only the fields that differ from the
    defaults of its class."""
    kind = type(spec)
    defaults = kind._field_defaults
    args = ", ".join(
        f"{name}={_spec_source(value) if isinstance(value, Cli) else repr(value)}"
        for name, value in zip(kind._fields, spec, strict=True)
        if name not in defaults or value != defaults[name]
    )
    return f"{kind.__name__}({args})"
