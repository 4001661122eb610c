"""Partial results: which collections of a scope may go, which are omitted and why.

A caller asks for ``partial="deny"`` (the default: one collection that may not go denies the
whole response) or ``partial="explicit"`` (the collections that may go are served, the others
omitted and disclosed). Only a denial that belongs to collections (``POLICY_LOCAL_ONLY``,
``POLICY_LAN_ONLY``) is split per collection; any other denial (bad input, an unauthorised or
unauthenticated caller, an action that cannot reach the zone) denies the whole scope, each
collection omitted with that reason.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from gno_core.egress.decision import CollectionPolicy, EgressDecision, EgressRequest, decide
from gno_core.egress.lineage import EgressLineage, lineage_of
from gno_core.egress.values import ReasonCode

__all__ = [
    "PER_COLLECTION_REASONS",
    "EgressPlan",
    "Omission",
    "PartialMode",
    "Remediation",
    "plan",
    "remediation_for",
]

PartialMode = Literal["deny", "explicit"]
#: Denials that belong to a collection's own policy, so that the other collections may still go.
PER_COLLECTION_REASONS: frozenset[str] = frozenset({"POLICY_LOCAL_ONLY", "POLICY_LAN_ONLY"})

_REMEDIES: dict[str, str] = {
    "INVALID_INPUT": "Send a well-formed egress request.",
    "NO_COLLECTION_POLICY": "Name at least one configured collection.",
    "COLLECTION_LIMIT_EXCEEDED": "Name at most 64 collections in one request.",
    "INVALID_COLLECTION": "Name each collection once, by its canonical name.",
    "UNKNOWN_ACTION": "Use one of the egress actions.",
    "UNKNOWN_DESTINATION": (
        "Reach gno from loopback, a private LAN address or a public address; overlay and "
        "metadata addresses are not classified."
    ),
    "ACTION_DESTINATION_MISMATCH": "Choose a destination this action can go to.",
    "UNKNOWN_CONTENT_CLASS": "Use one of the egress content classes.",
    "UNKNOWN_POLICY": "Set the collection's policy: gno collection policy set.",
    "UNKNOWN_POLICY_SOURCE": "Set the collection's policy: gno collection policy set.",
    "INVALID_POLICY_SOURCE_PAIR": (
        "Relax a collection only by a confirmed change: gno collection policy set "
        "<name> <policy> --confirm-relaxation <revision>."
    ),
    "INVALID_CALLER": "The transport must say whether the caller is authenticated and authorised.",
    "CALLER_NOT_AUTHORIZED": "Authorise this operation separately from collection policy.",
    "AUTHENTICATION_REQUIRED": (
        "Authenticate the caller (a bearer token); policy never makes authentication optional."
    ),
    "POLICY_LOCAL_ONLY": (
        "Keep the action local, or relax every source collection with a confirmed change."
    ),
    "POLICY_LAN_ONLY": (
        "Use an authenticated LAN destination, or relax the collection to remote with a "
        "confirmed change."
    ),
}


@dataclass(frozen=True, slots=True)
class Omission:
    collection: str
    reason: ReasonCode


@dataclass(frozen=True, slots=True)
class Remediation:
    code: ReasonCode
    message: str


def remediation_for(decision: EgressDecision) -> Remediation | None:
    """What the caller can do about a denial; ``None`` when allowed."""
    if decision.allowed:
        return None
    return Remediation(decision.reason, _REMEDIES[decision.reason])


@dataclass(frozen=True, slots=True)
class EgressPlan:
    """``mode``: ``complete`` (every collection may go), ``partial`` (some are omitted) or
    ``denied`` (none may go). ``decision`` is the decision on the whole scope (why anything was
    omitted); ``allowed_decision`` the decision on what goes (``None`` when nothing does);
    ``lineage`` is of the whole scope (``None`` when it was not readable)."""

    mode: Literal["complete", "partial", "denied"]
    allowed: tuple[str, ...]
    omitted: tuple[Omission, ...]
    decision: EgressDecision
    allowed_decision: EgressDecision | None
    lineage: EgressLineage | None

    @property
    def remediation(self) -> Remediation | None:
        """What the caller can do about what was omitted (``None`` when nothing was)."""
        return remediation_for(self.decision)


def plan(request: EgressRequest, partial: PartialMode = "deny") -> EgressPlan:
    """What of ``request``'s scope may go, under ``partial``."""
    whole = decide(request)
    lineage = _lineage(request, whole)
    if whole.allowed:
        names = tuple(sorted(c.collection for c in request.collections))
        return EgressPlan("complete", names, (), whole, whole, lineage)
    if partial != "explicit" or whole.reason not in PER_COLLECTION_REASONS:
        return EgressPlan("denied", (), _omit_all(request, whole), whole, None, lineage)
    allowed: list[CollectionPolicy] = []
    omitted: list[Omission] = []
    for c in sorted(request.collections, key=lambda c: c.collection):
        alone = decide(replace(request, collections=(c,)))
        if alone.allowed:
            allowed.append(c)
        else:
            omitted.append(Omission(c.collection, alone.reason))
    if not allowed:
        return EgressPlan("denied", (), tuple(omitted), whole, None, lineage)
    kept = decide(replace(request, collections=tuple(allowed)))
    names = tuple(c.collection for c in allowed)
    return EgressPlan("partial", names, tuple(omitted), whole, kept, lineage)


def _omit_all(request: EgressRequest, decision: EgressDecision) -> tuple[Omission, ...]:
    names = decision.audit.collections if decision.audit.collection_count else ()
    return tuple(Omission(name, decision.reason) for name in sorted(set(names)))


def _lineage(request: EgressRequest, decision: EgressDecision) -> EgressLineage | None:
    if decision.audit.effective_policy == "unknown":  # the request did not validate
        return None
    return lineage_of(request.collections)
