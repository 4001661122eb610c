"""Direct evaluation of a typed metadata predicate over one document's metadata map: the
reference semantics the SQL evaluation of the index must equal (a property test holds the two
to the same answers).

- A document whose metadata is invalid or not yet extracted matches no typed filter, ``not``
  and ``exists: false`` included (``matches`` with its state).
- ``eq``/``ne``: the key is present, its value a scalar of the value's type (booleans are no
  numbers, ``"0.9"`` no number), equal / not equal. Arrays never equal a scalar.
- ``gt``/``gte``/``lt``/``lte``: the present value is a number.
- ``in``: a present scalar of the values' type is one of them, or a present array of that type
  holds at least one. ``nin``: present and of that type (scalar or array; an empty array has
  every type) and none of them. ``all``: a present array of that type holds every value.
- ``exists``: presence. ``and``/``or``/``not``: over the document's valid map, so
  ``not(eq)`` matches a document without the key while ``ne`` does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gno_core.metadata.extract import VALID, MetadataValue, scalar_kind

if TYPE_CHECKING:
    from gno_core.contracts.metadata import MetadataPredicate, Node

__all__ = ["evaluate", "matches"]


def matches(state: str, values: Mapping[str, MetadataValue], predicate: MetadataPredicate) -> bool:
    """Whether a document with metadata ``values`` in extraction ``state`` matches."""
    return state == VALID and evaluate(predicate.root, values)


def evaluate(node: Node, values: Mapping[str, MetadataValue]) -> bool:
    """``node`` over a valid metadata map."""
    from gno_core.contracts.metadata import Compare, Exists, Group, Member, Not, Order

    if isinstance(node, Group):
        results = (evaluate(child, values) for child in node.predicates)
        return all(results) if node.op == "and" else any(results)
    if isinstance(node, Not):
        return not evaluate(node.predicate, values)
    present = node.key in values
    if isinstance(node, Exists):
        return present is node.value
    if not present:
        return False
    stored = values[node.key]
    if isinstance(node, Compare):
        if isinstance(stored, tuple) or scalar_kind(stored) != scalar_kind(node.value):
            return False
        return (stored == node.value) is (node.op == "eq")
    if isinstance(node, Order):
        if isinstance(stored, tuple) or scalar_kind(stored) != "number":
            return False
        return _order(node.op, stored, node.value)
    assert isinstance(node, Member)
    kind = scalar_kind(node.values[0])
    members = stored if isinstance(stored, tuple) else (stored,)
    if any(scalar_kind(m) != kind for m in members):
        return False
    if node.op == "all":
        return isinstance(stored, tuple) and all(_has(members, v) for v in node.values)
    hit = any(_has(node.values, m) for m in members)
    return hit if node.op == "in" else not hit


def _has(items: tuple[MetadataValue, ...] | list[str | int | float | bool], value: object) -> bool:
    """Membership by type and value (``True`` is never ``1``)."""
    kind = scalar_kind(value)
    return any(scalar_kind(item) == kind and item == value for item in items)


def _order(op: str, stored: MetadataValue, value: float) -> bool:
    assert isinstance(stored, int | float)
    if op == "gt":
        return stored > value
    if op == "gte":
        return stored >= value
    if op == "lt":
        return stored < value
    return stored <= value
