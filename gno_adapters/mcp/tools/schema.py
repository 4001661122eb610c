"""Tool ``inputSchema`` and argument mapping derived from the request models.

A parameter is declared once, as a field of a request model in ``gno_core.contracts.requests``
(type, default, bounds, description, camelCase alias). This module turns a model into the MCP
``inputSchema`` and picks a call's arguments for it, so the tool modules state only what is
particular to one tool: hidden fields, a different wording, the golden's key order, and the
MCP-only properties that are no request field (``projectHints``, ``lineNumbers``).

The schema is derived on first use, not at import: ``gno mcp`` answers ``initialize`` before
anything loads pydantic or the models.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args, get_origin

from gno_adapters.mcp.jsonrpc import JSONObject

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

REQUESTS_MODULE = "gno_core.contracts.requests"
Model = TypeVar("Model", bound="BaseModel")
SCALAR_TYPES: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def type_schema(annotation: Any) -> JSONObject:
    """The JSON Schema of a field's type: scalars, ``list[...]``, string ``Literal`` (as an
    ``enum``) and nested models. Anything else fails loudly, at the first ``tools/list``."""
    from pydantic import BaseModel, RootModel

    from gno_core.contracts.requests import unwrap_optional

    annotation = unwrap_optional(annotation)
    if annotation in SCALAR_TYPES:
        return {"type": SCALAR_TYPES[annotation]}
    origin = get_origin(annotation)
    if origin is list:
        (item,) = get_args(annotation)
        return {"type": "array", "items": type_schema(item)}
    if origin is Literal:
        values = list(get_args(annotation))
        if all(isinstance(v, bool) for v in values):
            return {"type": "boolean", "enum": values}
        if not all(isinstance(v, str) for v in values):
            raise TypeError(f"only string literals have a schema here, not {annotation!r}")
        return {"type": "string", "enum": values}
    if isinstance(annotation, type) and issubclass(annotation, RootModel):
        # A recursive contract (the metadata predicate): a reference to the root ``$defs``,
        # which ``object_schema`` hoists from here to the top of the tool's schema.
        schema = annotation.model_json_schema(by_alias=True)
        defs = schema.pop("$defs", {})
        name = annotation.__name__
        return {"$ref": f"#/$defs/{name}", "$defs": {**defs, name: schema}}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return object_schema(annotation)
    raise TypeError(f"no input schema for the field type {annotation!r}")


def property_schema(field: FieldInfo, description: str | None = None) -> JSONObject:
    """One property: its type, then description, default and bounds, then the field's own
    ``json_schema_extra`` (which wins, e.g. a documented default for a tri-state field)."""
    from annotated_types import Ge, Le
    from pydantic_core import PydanticUndefined

    prop = type_schema(field.annotation)
    text = description if description is not None else field.description
    if text is not None:
        prop["description"] = text
    if field.default is not PydanticUndefined and field.default is not None:
        prop["default"] = field.default
    for bound in field.metadata:
        if isinstance(bound, Ge):
            prop["minimum"] = bound.ge
        elif isinstance(bound, Le):
            prop["maximum"] = bound.le
    extra = field.json_schema_extra
    if extra is not None:
        if not isinstance(extra, dict):
            raise TypeError("json_schema_extra of a request field must be a dict")
        prop.update(extra)
    return prop


def object_schema(
    model: type[BaseModel],
    *,
    hide: frozenset[str] = frozenset(),
    order: tuple[str, ...] | None = None,
    describe: Mapping[str, str] | None = None,
    key_order: Mapping[str, tuple[str, ...]] | None = None,
    extra: Mapping[str, JSONObject] | None = None,
    required: tuple[str, ...] | None = None,
) -> JSONObject:
    """``{"type": "object", "properties": ..., "required": [...], "additionalProperties":
    false}`` for ``model``, by alias.

    ``hide`` leaves fields out of the schema (the closed schema then refuses them); ``order`` lists
    every shown field in the order to show them (default: the model's); ``describe`` replaces
    descriptions; ``key_order`` reorders the keys of one property; ``extra`` appends
    properties that are no field of the model; ``required`` names the required properties when
    they are not the model's required fields."""
    describe = describe or {}
    key_order = key_order or {}
    fields = {(f.alias or name): f for name, f in model.model_fields.items()}
    shown = [alias for alias in fields if alias not in hide]
    if order is not None:
        if sorted(order) != sorted(shown):
            raise ValueError(
                f"{model.__name__}: the schema order must list exactly the shown fields {shown}"
            )
        shown = list(order)
    unknown = (set(hide) | set(describe) | set(key_order)) - set(fields)
    if unknown:
        raise ValueError(f"{model.__name__} has no fields {sorted(unknown)}")
    properties: JSONObject = {}
    for alias in shown:
        prop = property_schema(fields[alias], describe.get(alias))
        if alias in key_order:
            keys = key_order[alias]
            if sorted(keys) != sorted(prop):
                raise ValueError(f"key order for {alias} must list exactly {sorted(prop)}")
            prop = {k: prop[k] for k in keys}
        properties[alias] = prop
    properties.update(extra or {})
    defs: JSONObject = {}
    for prop in properties.values():
        defs.update(prop.pop("$defs", {}))
    schema: JSONObject = {"type": "object", "properties": properties}
    needed = (
        list(required)
        if required is not None
        else [alias for alias in shown if fields[alias].is_required()]
    )
    if not set(needed) <= set(shown):
        raise ValueError(f"{model.__name__}: required names unknown fields {needed}")
    if needed:
        schema["required"] = needed
    # Closed, as the request models are (``extra="forbid"``): an unknown argument is refused.
    schema["additionalProperties"] = False
    if defs:
        schema["$defs"] = defs
    return schema


def request_model(name: str) -> type[BaseModel]:
    """The request model ``name``: a class of ``gno_core.contracts.requests``, or
    ``module:Class`` for one defined elsewhere (the write requests)."""
    module, _, cls = name.rpartition(":")
    model: type[BaseModel] = getattr(importlib.import_module(module or REQUESTS_MODULE), cls)
    return model


class DerivedSchema(Mapping[str, Any]):
    """A tool's ``inputSchema``, derived from the request model ``model`` (a class name in
    ``gno_core.contracts.requests``) with ``object_schema``'s per-tool overrides, on first use."""

    def __init__(
        self,
        model: str,
        *,
        hide: tuple[str, ...] = (),
        order: tuple[str, ...] | None = None,
        describe: Mapping[str, str] | None = None,
        key_order: Mapping[str, tuple[str, ...]] | None = None,
        extra: Mapping[str, JSONObject] | None = None,
        required: tuple[str, ...] | None = None,
    ) -> None:
        self.model = model
        self._overrides: dict[str, Any] = {
            "hide": frozenset(hide),
            "order": order,
            "describe": describe,
            "key_order": key_order,
            "extra": extra,
            "required": required,
        }
        self._schema: JSONObject | None = None
        self._lock = threading.Lock()

    def _derived(self) -> JSONObject:
        with self._lock:
            if self._schema is None:
                self._schema = object_schema(request_model(self.model), **self._overrides)
            return self._schema

    def __getitem__(self, key: str) -> Any:
        return self._derived()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._derived())

    def __len__(self) -> int:
        return len(self._derived())

    def __repr__(self) -> str:
        return f"DerivedSchema({self.model!r})"


def model_arguments(model: type[BaseModel], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments that are fields of ``model`` (by alias); the rest (hints, presentation
    options) are the tool's own business."""
    aliases = [(f.alias or name) for name, f in model.model_fields.items()]
    return {alias: arguments[alias] for alias in aliases if alias in arguments}


def validated(model: type[Model], arguments: Mapping[str, Any]) -> Model:
    """A tool call's request: ``model`` validated from the arguments that are its fields."""
    return model.model_validate(model_arguments(model, arguments))
