"""The typed metadata of a document: the nested frontmatter mapping ``gno:`` → ``metadata:`` (a
literal top-level key ``gno.metadata`` is not it), checked against the bounds of the feature.

Values are strings, finite numbers, booleans, or flat arrays whose members share one of those
types. ``0.9`` is a number and ``"0.9"`` a string; ``false``, ``0``, ``""`` and ``[]`` are
present values. Null, nested mappings, arrays of arrays, mixed arrays, non-finite numbers, a key
past the bounds or a rejected key make the whole document's metadata invalid (it then matches
no typed filter). YAML aliases reach here already resolved by the frontmatter parser, so they
are held to the same types. A document without the namespace has a valid, empty map.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = [
    "INVALID",
    "MAX_ARRAY_ITEMS",
    "MAX_KEYS",
    "MAX_KEY_CHARS",
    "MAX_SAFE_INTEGER",
    "MAX_SERIALIZED_BYTES",
    "MAX_STRING_CHARS",
    "PENDING",
    "REJECTED_KEYS",
    "VALID",
    "VALID_EMPTY",
    "DocumentMetadata",
    "MetadataValue",
    "extract_metadata",
    "metadata_json",
    "scalar_kind",
]

MAX_KEYS = 64
MAX_KEY_CHARS = 128
MAX_STRING_CHARS = 4096
MAX_ARRAY_ITEMS = 128
MAX_SERIALIZED_BYTES = 64 * 1024
#: Integers past this are stored as floats (every number compares as a double).
MAX_SAFE_INTEGER = 2**53
REJECTED_KEYS = frozenset({"__proto__", "prototype", "constructor"})

#: Extraction states of a document's metadata.
VALID = "valid"
INVALID = "invalid"
PENDING = "pending"  # indexed before metadata was extracted: the next ``gno update`` does it

Scalar = str | int | float | bool
MetadataValue = Scalar | tuple[Scalar, ...]


class DocumentMetadata(NamedTuple):
    """A document's typed metadata and its extraction state; ``values`` is empty unless
    ``state`` is ``valid``; ``error`` says why metadata is ``invalid``."""

    state: str = VALID
    values: Mapping[str, MetadataValue] = {}
    error: str | None = None


#: The metadata of a document without the namespace (and of every non-Markdown document).
VALID_EMPTY = DocumentMetadata()


class _Invalid(Exception):
    pass


def scalar_kind(value: object) -> str | None:
    """``string``, ``number`` or ``boolean`` for a metadata scalar (booleans are no numbers);
    None for anything else."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return None


def extract_metadata(front: Mapping[str, Any] | None) -> DocumentMetadata:
    """The typed metadata of parsed frontmatter (None: the document has none)."""
    namespace = front.get("gno") if front else None
    if not isinstance(namespace, Mapping) or "metadata" not in namespace:
        return DocumentMetadata()
    raw = namespace["metadata"]
    try:
        values = _mapping(raw)
    except _Invalid as exc:
        return DocumentMetadata(INVALID, {}, str(exc))
    return DocumentMetadata(VALID, values)


def metadata_json(values: Mapping[str, MetadataValue]) -> str:
    """The stored form: a JSON object, keys sorted, arrays as lists."""
    return json.dumps(
        {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
        allow_nan=False,
    )


def _mapping(raw: object) -> dict[str, MetadataValue]:
    if not isinstance(raw, Mapping):
        raise _Invalid("gno.metadata must be a mapping of keys to values")
    if len(raw) > MAX_KEYS:
        raise _Invalid(f"gno.metadata has {len(raw)} keys, over the {MAX_KEYS}-key limit")
    out: dict[str, MetadataValue] = {}
    for key, value in raw.items():
        if not isinstance(key, str) or not key:
            raise _Invalid("gno.metadata keys must be non-empty strings")
        if len(key) > MAX_KEY_CHARS:
            raise _Invalid(f"a gno.metadata key is over {MAX_KEY_CHARS} characters")
        if key in REJECTED_KEYS:
            raise _Invalid(f"the gno.metadata key {key!r} is not allowed")
        out[key] = _value(key, value)
    try:
        size = len(metadata_json(out).encode("utf-8"))
    except ValueError as exc:  # a lone surrogate cannot be stored
        raise _Invalid(f"gno.metadata cannot be serialized: {exc}") from exc
    if size > MAX_SERIALIZED_BYTES:
        raise _Invalid(f"gno.metadata is {size} bytes serialized, over {MAX_SERIALIZED_BYTES}")
    return out


def _value(key: str, value: object) -> MetadataValue:
    if isinstance(value, list | tuple):
        if len(value) > MAX_ARRAY_ITEMS:
            raise _Invalid(f"gno.metadata.{key} has over {MAX_ARRAY_ITEMS} members")
        items = tuple(_scalar(key, item) for item in value)
        if len({scalar_kind(item) for item in items}) > 1:
            raise _Invalid(f"gno.metadata.{key} mixes member types")
        return items
    return _scalar(key, value)


def _scalar(key: str, value: object) -> Scalar:
    if value is None:
        raise _Invalid(f"gno.metadata.{key} is null")
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) <= MAX_SAFE_INTEGER:
            return value
        try:
            return _finite(key, float(value))
        except OverflowError as exc:
            raise _Invalid(f"gno.metadata.{key} is not a finite number") from exc
    if isinstance(value, float):
        return _finite(key, value)
    if isinstance(value, str):
        if len(value) > MAX_STRING_CHARS:
            raise _Invalid(f"gno.metadata.{key} is over {MAX_STRING_CHARS} characters")
        return value
    raise _Invalid(f"gno.metadata.{key} is not a string, number, boolean or flat array")


def _finite(key: str, value: float) -> float:
    if not math.isfinite(value):
        raise _Invalid(f"gno.metadata.{key} is not a finite number")
    return value
