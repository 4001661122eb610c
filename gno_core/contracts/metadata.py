"""The typed metadata predicate (``gno://schemas/metadata-predicate``): the ``filter`` of search,
vsearch, query, ask and context on every surface.

A predicate is one node, discriminated by ``op``: ``eq``/``ne`` (``key``, scalar ``value``),
``gt``/``gte``/``lt``/``lte`` (``key``, numeric ``value``), ``in``/``nin``/``all`` (``key``,
non-empty homogeneous ``values``), ``exists`` (``key``, boolean ``value``), ``and``/``or``
(non-empty ``predicates``) and ``not`` (one ``predicate``). Objects are closed; values are strict
(``"0.9"`` is a string, ``true`` no number); keys are 1-128 characters and never ``__proto__``,
``prototype`` or ``constructor``; a predicate has at most 128 nodes, depth 8, and 64 KiB
serialized. Invalid predicates fail validation with the field path. The semantics are
``gno_core.metadata.evaluate``'s.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    RootModel,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from gno_core.metadata.extract import (
    MAX_KEY_CHARS,
    MAX_SAFE_INTEGER,
    REJECTED_KEYS,
    scalar_kind,
)

__all__ = [
    "FILTER_DESCRIPTION",
    "MAX_PREDICATE_BYTES",
    "MAX_PREDICATE_DEPTH",
    "MAX_PREDICATE_NODES",
    "MetadataPredicate",
    "Predicate",
    "normalized_filter",
]

MAX_PREDICATE_NODES = 128
MAX_PREDICATE_DEPTH = 8
MAX_PREDICATE_BYTES = 64 * 1024
MAX_PREDICATE_VALUES = 128

Scalar = Union[StrictBool, StrictInt, StrictFloat, StrictStr]  # noqa: UP007 (pydantic order)
Number = Union[StrictInt, StrictFloat]  # noqa: UP007
MetadataKey = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_KEY_CHARS, description="A key of gno.metadata"),
]


class _Node(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @field_validator("key", check_fields=False)
    @classmethod
    def _key(cls, key: str) -> str:
        if key in REJECTED_KEYS:
            raise ValueError(f"the key {key!r} is not allowed")
        return key

    @field_validator("value", check_fields=False)
    @classmethod
    def _finite(cls, value: object) -> object:
        return _number(value)


class Compare(_Node):
    """``eq``/``ne``: the present value is a scalar of the same type, equal (or not)."""

    op: Literal["eq", "ne"]
    key: MetadataKey
    value: Scalar


class Order(_Node):
    """``gt``/``gte``/``lt``/``lte``: numbers only, no coercion."""

    op: Literal["gt", "gte", "lt", "lte"]
    key: MetadataKey
    value: Number


class Member(_Node):
    """``in``/``nin``: any/no member of a present scalar or array is one of ``values``;
    ``all``: the present array holds every value."""

    op: Literal["in", "nin", "all"]
    key: MetadataKey
    values: list[Scalar] = Field(min_length=1, max_length=MAX_PREDICATE_VALUES)

    @field_validator("values")
    @classmethod
    def _homogeneous(cls, values: list[str | int | float | bool]) -> list[str | int | float | bool]:
        if len({scalar_kind(v) for v in values}) > 1:
            raise ValueError("values must all be strings, all numbers or all booleans")
        return [_number(v) for v in values]  # type: ignore[misc]


class Exists(_Node):
    """``exists``: the key is present (``true``) or absent (``false``)."""

    op: Literal["exists"]
    key: MetadataKey
    value: StrictBool


class Group(_Node):
    """``and``/``or`` over non-empty ``predicates``."""

    op: Literal["and", "or"]
    predicates: list[Predicate] = Field(min_length=1, max_length=MAX_PREDICATE_NODES)


class Not(_Node):
    """``not``: the negation of one ``predicate`` (over documents with valid metadata)."""

    op: Literal["not"]
    predicate: Predicate


PREDICATE_OPS = tuple("eq ne gt gte lt lte in nin all exists and or not".split())


def _has_op(value: object) -> object:
    """A predicate object must name its ``op``: say which ones exist, instead of the union's
    "unable to extract tag" (the schema is unchanged: this runs before the tagged union)."""
    if isinstance(value, dict):
        op = value.get("op")
        if op not in PREDICATE_OPS:
            named = 'has no "op"' if op is None else f"has op {op!r}"
            raise ValueError(f"a predicate {named}; op is one of {', '.join(PREDICATE_OPS)}")
    return value


Predicate = Annotated[
    Union[Compare, Order, Member, Exists, Group, Not],  # noqa: UP007
    Field(discriminator="op"),
    BeforeValidator(_has_op),
]
Node = Compare | Order | Member | Exists | Group | Not


class MetadataPredicate(RootModel[Predicate]):
    """A whole filter: one predicate within the node, depth and size bounds."""

    model_config = ConfigDict(defer_build=True)

    @model_validator(mode="after")
    def _bounds(self) -> MetadataPredicate:
        nodes, depth = _measure(self.root, 1)
        if nodes > MAX_PREDICATE_NODES:
            raise ValueError(f"a filter has at most {MAX_PREDICATE_NODES} predicates ({nodes})")
        if depth > MAX_PREDICATE_DEPTH:
            raise ValueError(f"a filter nests at most {MAX_PREDICATE_DEPTH} levels ({depth})")
        size = len(normalized_json(self).encode("utf-8"))
        if size > MAX_PREDICATE_BYTES:
            raise ValueError(f"a filter is at most {MAX_PREDICATE_BYTES} bytes ({size})")
        return self


def _number(value: object) -> object:
    """Numbers compare as doubles: finite only, integers past 2**53 as floats (as stored)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
        try:
            value = float(value)
        except OverflowError as exc:
            raise ValueError("numbers must be finite") from exc
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("numbers must be finite")
    return value


def _measure(node: Node, depth: int) -> tuple[int, int]:
    """(nodes, depth) of a predicate tree."""
    children: list[Node] = []
    if isinstance(node, Group):
        children = list(node.predicates)
    elif isinstance(node, Not):
        children = [node.predicate]
    nodes, deepest = 1, depth
    for child in children:
        n, d = _measure(child, depth + 1)
        nodes, deepest = nodes + n, max(deepest, d)
    return nodes, deepest


def normalized_filter(predicate: MetadataPredicate) -> dict[str, object]:
    """The normalised predicate: the wire form of the validated tree (``op`` first, fields in
    contract order), as capsule scopes and traces record it."""
    data: dict[str, object] = predicate.model_dump(mode="json")
    return data


def normalized_json(predicate: MetadataPredicate) -> str:
    return json.dumps(normalized_filter(predicate), ensure_ascii=False, separators=(",", ":"))


Group.model_rebuild()
Not.model_rebuild()

FILTER_DESCRIPTION = (
    "Typed metadata predicate over the frontmatter gno.metadata map "
    "(gno://schemas/metadata-predicate): eq ne gt gte lt lte in nin all exists and or not"
)
