"""Changing a collection's policy: tightening is immediate, relaxing needs a confirmation.

A relaxation (to a more open policy) is accepted only with a confirmation
``{collection, currentPolicy, currentRevision, targetPolicy, acknowledged: true}`` that names
this collection, its current effective policy and revision, and this target. Every change
increments the revision, so a confirmation is good once: replayed after its change, it names a
revision that is no longer current. Any mismatch fails closed (``EGRESS_RELAXATION_CONFIRMATION_REQUIRED``
with what did not match, and the current policy and revision). A tightening never needs one
and ignores one given. Setting the policy a collection already has changes nothing, unless it
came from a default: then it becomes explicit (``source_changed``, a new revision).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gno_core.egress.values import POLICIES, POLICY_RANK, Policy, PolicySource
from gno_core.errors import ConflictError, EgressRelaxationConfirmationError, ValidationError

__all__ = [
    "ChangeKind",
    "PolicyChange",
    "PolicyState",
    "RelaxationConfirmation",
    "confirmation_mismatch",
    "plan_change",
    "stale_revision",
]

ChangeKind = Literal["tightened", "relaxed", "source_changed", "unchanged"]


@dataclass(frozen=True, slots=True)
class PolicyState:
    """A collection's policy as stored: what is configured (``None``: nothing explicit), what
    applies, where that came from, and the revision (0 before any change)."""

    collection: str
    configured: Policy | None
    effective: Policy
    source: PolicySource
    revision: int


@dataclass(frozen=True, slots=True)
class RelaxationConfirmation:
    collection: str
    current_policy: str
    current_revision: int
    target_policy: str
    acknowledged: bool


@dataclass(frozen=True, slots=True)
class PolicyChange:
    """The outcome: ``kind`` and the state after it (``after is before`` when unchanged)."""

    kind: ChangeKind
    before: PolicyState
    after: PolicyState


def plan_change(
    current: PolicyState, target: str, confirmation: RelaxationConfirmation | None = None
) -> PolicyChange:
    """The change of ``current`` to ``target`` (``VALIDATION`` for an unknown policy;
    ``EGRESS_RELAXATION_CONFIRMATION_REQUIRED`` for a relaxation without its matching confirmation)."""
    if target not in POLICY_RANK:
        raise ValidationError(
            f"unknown egress policy {target!r}: local_only, lan or remote",
            details={"field": "policy", "value": target},
        )
    step = POLICY_RANK[target] - POLICY_RANK[current.effective]
    if step > 0:
        mismatch = confirmation_mismatch(current, target, confirmation)
        if mismatch is not None:
            raise EgressRelaxationConfirmationError(
                f"relaxing {current.collection} from {current.effective} to {target} needs a "
                f"confirmation bound to its current revision {current.revision} ({mismatch})",
                details={
                    "collection": current.collection,
                    "mismatch": mismatch,
                    "currentPolicy": current.effective,
                    "currentRevision": current.revision,
                    "targetPolicy": target,
                },
            )
    if step == 0 and current.source == "explicit":
        return PolicyChange("unchanged", current, current)
    kind: ChangeKind = "relaxed" if step > 0 else "tightened" if step < 0 else "source_changed"
    policy = POLICIES[POLICY_RANK[target]]
    after = PolicyState(
        collection=current.collection,
        configured=policy,
        effective=policy,
        source="explicit",
        revision=current.revision + 1,
    )
    return PolicyChange(kind, current, after)


def confirmation_mismatch(
    current: PolicyState, target: str, confirmation: RelaxationConfirmation | None
) -> str | None:
    """What makes ``confirmation`` not confirm relaxing ``current`` to ``target`` (``None``:
    it does): ``missing``, ``not_acknowledged``, ``cross_collection``, ``stale_policy``,
    ``stale_revision`` (also a replay: the revision it named was consumed), ``cross_target``."""
    if confirmation is None:
        return "missing"
    if confirmation.acknowledged is not True:
        return "not_acknowledged"
    if confirmation.collection != current.collection:
        return "cross_collection"
    if confirmation.current_policy != current.effective:
        return "stale_policy"
    if (
        isinstance(confirmation.current_revision, bool)
        or confirmation.current_revision != current.revision
    ):
        return "stale_revision"
    if confirmation.target_policy != target:
        return "cross_target"
    return None


def stale_revision(collection: str, current: int) -> ConflictError:
    """What a policy store raises when ``collection``'s revision is no longer the one the
    change was planned from (``current`` is)."""
    return ConflictError(
        f"the egress policy of {collection} changed meanwhile (revision {current})",
        details={"collection": collection, "currentRevision": current},
    )
