"""The collections a decision covers. An explicit scope is a non-empty, duplicate-free list of
at most 64 canonical collection names (refused otherwise, ``VALIDATION``); an omitted scope
means every configured collection. A name gno has no policy for is judged ``local_only``
(``legacy_default``): an unknown collection never widens egress."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gno_core.egress.decision import CollectionPolicy
from gno_core.egress.values import COLLECTION_NAME_RE, MAX_COLLECTIONS
from gno_core.errors import ValidationError

__all__ = ["resolve_scope", "sources_for"]


def resolve_scope(requested: Sequence[str] | None, configured: Iterable[str]) -> tuple[str, ...]:
    """The scope of a request: ``requested`` validated, or every ``configured`` name (sorted)
    when it is ``None``."""
    if requested is None:
        return tuple(sorted(set(configured)))
    if isinstance(requested, str) or not requested:
        raise ValidationError(
            "collections: name at least one collection, or leave the scope out for all",
            details={"field": "collections"},
        )
    if len(requested) > MAX_COLLECTIONS:
        raise ValidationError(
            f"collections: at most {MAX_COLLECTIONS} collections in one request",
            details={"field": "collections", "count": len(requested)},
        )
    seen: set[str] = set()
    for name in requested:
        if not isinstance(name, str) or not COLLECTION_NAME_RE.fullmatch(name):
            raise ValidationError(
                f"collections: {name!r} is not a canonical collection name "
                "(lowercase a-z, 0-9, '_' or '-', 1-64 characters)",
                details={"field": "collections"},
            )
        if name in seen:
            raise ValidationError(
                f"collections: {name} is named twice", details={"field": "collections"}
            )
        seen.add(name)
    return tuple(requested)


def sources_for(
    names: Iterable[str], policies: Mapping[str, CollectionPolicy]
) -> tuple[CollectionPolicy, ...]:
    """The policy of each of ``names`` from ``policies`` (by collection), ``local_only``
    (``legacy_default``) for a name it does not hold."""
    return tuple(
        policies.get(name) or CollectionPolicy(name, "local_only", "legacy_default")
        for name in names
    )
