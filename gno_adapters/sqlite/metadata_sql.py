"""A typed metadata predicate as one SQL condition on ``documents AS alias``, evaluated inside the
vector candidate query before any limit (keyword search probes ``metadata_values`` instead:
``metadata_values.values_sql``, the same semantics).

``documents.metadata`` holds the document's map as a JSON object and ``metadata_state`` its
extraction state; only ``valid`` documents can match (``not`` and ``exists: false`` included).
Each leaf reads its key through ``json_each`` (keys are compared as bound parameters, so no key
is ever spliced into a JSON path) and checks the JSON type before the value: ``1`` is never
``true`` and ``"0.9"`` never ``0.9``. Every leaf is an ``EXISTS``, which is never NULL, so
``NOT`` is the plain negation the direct evaluator (``gno_core.metadata.evaluate``) uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.metadata.extract import scalar_kind

if TYPE_CHECKING:
    from gno_core.contracts.metadata import MetadataPredicate, Node

__all__ = ["metadata_sql"]

#: JSON types (``json_each.type``) of each scalar kind
_TYPES = {
    "string": "('text')",
    "number": "('integer', 'real')",
    "boolean": "('true', 'false')",
}
_ORDER = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def metadata_sql(predicate: MetadataPredicate, alias: str = "d") -> tuple[str, list[object]]:
    """The condition and its parameters."""
    params: list[object] = []
    body = _node(predicate.root, alias, params)
    return f"({alias}.metadata_state = 'valid' AND {body})", params


def _node(node: Node, alias: str, params: list[object]) -> str:
    from gno_core.contracts.metadata import Exists, Group, Not

    if isinstance(node, Group):
        joiner = " AND " if node.op == "and" else " OR "
        return "(" + joiner.join(_node(child, alias, params) for child in node.predicates) + ")"
    if isinstance(node, Not):
        return f"(NOT {_node(node.predicate, alias, params)})"
    each = f"json_each({alias}.metadata) j WHERE j.key = ?"
    params.append(node.key)
    if isinstance(node, Exists):
        found = f"EXISTS (SELECT 1 FROM {each})"
        has_any = _HAS_ANY.format(alias=alias)
        return f"({has_any} AND {found})" if node.value else f"(NOT ({has_any} AND {found}))"
    return f"({_HAS_ANY.format(alias=alias)} AND {_present(node, each, params)})"


#: Every leaf but ``exists: false`` needs the key present: a document with an empty map (most
#: of them, usually) is decided by this comparison, without opening ``json_each``.
_HAS_ANY = "{alias}.metadata != '{{}}'"


def _present(node: Node, each: str, params: list[object]) -> str:
    """A leaf that matches only a present key (its key's parameter already bound)."""
    from gno_core.contracts.metadata import Compare, Member, Order

    if isinstance(node, Compare):
        kind = scalar_kind(node.value)
        assert kind is not None
        params.append(_atom(node.value))
        op = "=" if node.op == "eq" else "!="
        return f"EXISTS (SELECT 1 FROM {each} AND j.type IN {_TYPES[kind]} AND j.atom {op} ?)"
    if isinstance(node, Order):
        params.append(node.value)
        return (
            f"EXISTS (SELECT 1 FROM {each} AND j.type IN {_TYPES['number']} "
            f"AND j.atom {_ORDER[node.op]} ?)"
        )
    assert isinstance(node, Member)
    kind = scalar_kind(node.values[0])
    assert kind is not None
    types = _TYPES[kind]
    values = list(dict.fromkeys(_atom(v) for v in node.values))
    marks = ", ".join("?" * len(values))
    # the stored value is comparable: a scalar of the kind, or an array with no member of
    # another kind (an empty array has every kind)
    comparable = (
        f"(j.type IN {types} OR (j.type = 'array' AND NOT EXISTS (SELECT 1 FROM "
        f"json_each(j.value) e WHERE e.type NOT IN {types})))"
    )
    member_hit = (
        f"((j.type IN {types} AND j.atom IN ({marks})) OR (j.type = 'array' AND EXISTS "
        f"(SELECT 1 FROM json_each(j.value) e WHERE e.atom IN ({marks}))))"
    )
    if node.op == "in":
        params.extend([*values, *values])
        return f"EXISTS (SELECT 1 FROM {each} AND {comparable} AND {member_hit})"
    if node.op == "nin":
        params.extend([*values, *values])
        return f"EXISTS (SELECT 1 FROM {each} AND {comparable} AND NOT {member_hit})"
    # all: an array of the kind holding every value
    holds = " AND ".join(
        "EXISTS (SELECT 1 FROM json_each(j.value) e WHERE e.atom = ?)" for _ in values
    )
    params.extend(values)
    return (
        f"EXISTS (SELECT 1 FROM {each} AND j.type = 'array' AND "
        f"NOT EXISTS (SELECT 1 FROM json_each(j.value) e WHERE e.type NOT IN {types}) "
        f"AND {holds})"
    )


def _atom(value: object) -> object:
    """The ``json_each.atom`` of a scalar: booleans are 1/0 (their JSON type tells them from
    numbers, which the type condition beside every comparison checks)."""
    if isinstance(value, bool):
        return int(value)
    return value
