"""The lineage of a result that mixes collections: ``{effectivePolicy, digest, sources}``.

Derived content (a snippet, a capsule, a recalled fact, a trace) keeps the policy of the
collections it came from: its effective policy is the strictest of its sources. The digest is
SHA-256 over the canonical JSON of the sources sorted by collection, so the same sources under
the same policies always give the same digest, whatever order they were met in, and a policy
change gives another.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from gno_core.egress.decision import CollectionPolicy
from gno_core.egress.values import POLICY_RANK, Policy, strictest
from gno_core.errors import ValidationError

__all__ = ["EgressLineage", "lineage_digest", "lineage_of"]


@dataclass(frozen=True, slots=True)
class EgressLineage:
    effective_policy: Policy
    digest: str
    sources: tuple[CollectionPolicy, ...]

    def wire(self) -> dict[str, object]:
        return {
            "effectivePolicy": self.effective_policy,
            "digest": self.digest,
            "sources": [
                {"collection": s.collection, "policy": s.policy, "source": s.source}
                for s in self.sources
            ],
        }


def lineage_digest(sources: Iterable[CollectionPolicy]) -> str:
    """SHA-256 (hex) of the canonical JSON of ``sources`` (sorted by collection)."""
    rows = sorted(
        ({"collection": s.collection, "policy": s.policy, "source": s.source} for s in sources),
        key=lambda row: row["collection"],
    )
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _rank(policy: str) -> int:
    """An unknown policy ranks below ``local_only``: it is never the more open one kept."""
    return POLICY_RANK.get(policy, -1)


def lineage_of(sources: Iterable[CollectionPolicy]) -> EgressLineage:
    """The lineage of content drawn from ``sources``. A collection named twice keeps its
    strictest policy (with that policy's source); an unknown policy makes the lineage
    ``local_only``. At least one source: content with no
    source has no lineage (``VALIDATION``)."""
    merged: dict[str, CollectionPolicy] = {}
    for source in sources:
        known = merged.get(source.collection)
        if known is None or _rank(source.policy) < _rank(known.policy):
            merged[source.collection] = source
    if not merged:
        raise ValidationError("a lineage needs at least one source collection")
    ordered = tuple(merged[name] for name in sorted(merged))
    return EgressLineage(
        effective_policy=strictest(s.policy for s in ordered),
        digest=lineage_digest(ordered),
        sources=ordered,
    )
