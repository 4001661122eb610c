"""The egress decision: may this content (of these collections, this class) go to this
destination for this action, for this caller? Pure, total and fail-closed: any input it cannot
read is a denial with a reason, never an exception.

The order (``docs/reference/egress.md``): the shape of the request, the number of collections,
an empty scope, the action, the destination zone, whether the action can go there at all, the
content class, the caller flags, each collection (name, policy, source, their pairing, no
duplicate); then the effective policy (the strictest of the collections), the caller's
authorization, a local destination (allowed), ``local_only`` (denied), ``lan`` to a remote
destination (denied), authentication, and the allowing reason of the zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from gno_core.egress.values import (
    ACTIONS,
    ALLOW_REASONS,
    COLLECTION_NAME_RE,
    CONTENT_CLASSES,
    KNOWN_ZONES,
    MAX_COLLECTIONS,
    POLICY_RANK,
    POLICY_SOURCES,
    ReasonCode,
    strictest,
)

__all__ = [
    "CollectionPolicy",
    "EgressAudit",
    "EgressDecision",
    "EgressRequest",
    "action_reaches",
    "decide",
]


@dataclass(frozen=True, slots=True)
class CollectionPolicy:
    """One collection's effective policy and where it came from (names are canonical)."""

    collection: str
    policy: str
    source: str


@dataclass(frozen=True, slots=True)
class EgressRequest:
    """What a decision is asked. Fields are plain strings and booleans on purpose: a request
    built from untrusted input is judged, not trusted (``None`` caller flags: unknown)."""

    collections: Sequence[CollectionPolicy]
    action: str
    zone: str
    content_class: str
    authenticated: bool | None
    authorized: bool | None


@dataclass(frozen=True, slots=True)
class EgressAudit:
    """The content-free account of a decision: what was asked, in the vocabulary only (an
    unrecognised value reads ``unknown``); never a host, query, path or text."""

    action: str = "unknown"
    zone: str = "unknown"
    content_class: str = "unknown"
    collection_count: int = 0
    collections: tuple[str, ...] = ()
    effective_policy: str = "unknown"
    effective_policy_source: str = "unknown"
    caller_authenticated: bool | None = None
    caller_authorized: bool | None = None


@dataclass(frozen=True, slots=True)
class EgressDecision:
    allowed: bool
    reason: ReasonCode
    audit: EgressAudit = field(default_factory=EgressAudit)

    @property
    def code(self) -> Literal["EGRESS_ALLOWED", "EGRESS_DENIED"]:
        return "EGRESS_ALLOWED" if self.allowed else "EGRESS_DENIED"


def action_reaches(action: str, zone: str) -> bool:
    """Whether ``action`` can go to ``zone`` at all, whatever the policy: publishing is to a
    remote destination only, serving and remote inference cross a process boundary, an export
    leaves the machine's loopback (a file or another process), retrieval and clip writes go
    anywhere."""
    if action == "publish":
        return zone == "remote"
    if action in ("serve", "remote_inference"):
        return zone != "local_process"
    if action == "export":
        return zone != "loopback"
    return True


def _audit(request: EgressRequest) -> EgressAudit:
    names = sorted(
        c.collection
        if isinstance(c, CollectionPolicy)
        and isinstance(c.collection, str)
        and COLLECTION_NAME_RE.fullmatch(c.collection)
        else "unknown"
        for c in request.collections
    )
    return EgressAudit(
        action=request.action if request.action in ACTIONS else "unknown",
        zone=request.zone if request.zone in KNOWN_ZONES else "unknown",
        content_class=request.content_class
        if request.content_class in CONTENT_CLASSES
        else "unknown",
        collection_count=len(request.collections),
        collections=tuple(names),
        caller_authenticated=_flag(request.authenticated),
        caller_authorized=_flag(request.authorized),
    )


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _collection_fault(collections: Sequence[CollectionPolicy]) -> ReasonCode | None:
    seen: set[str] = set()
    for c in collections:
        if not isinstance(c.collection, str) or not COLLECTION_NAME_RE.fullmatch(c.collection):
            return "INVALID_COLLECTION"
        if c.policy not in POLICY_RANK:
            return "UNKNOWN_POLICY"
        if c.source not in POLICY_SOURCES:
            return "UNKNOWN_POLICY_SOURCE"
        if c.source != "explicit" and c.policy != "local_only":
            return "INVALID_POLICY_SOURCE_PAIR"
        if c.collection in seen:
            return "INVALID_COLLECTION"
        seen.add(c.collection)
    return None


def _well_formed(request: object) -> bool:
    if not isinstance(request, EgressRequest):
        return False
    collections: object = request.collections
    if isinstance(collections, str | bytes) or not isinstance(collections, Sequence):
        return False
    if not all(isinstance(c, CollectionPolicy) for c in collections):
        return False
    fields: tuple[object, ...] = (request.action, request.zone, request.content_class)
    return all(isinstance(v, str) for v in fields)


def decide(request: EgressRequest) -> EgressDecision:
    """The decision on ``request`` (see the module docstring for the order)."""
    if not _well_formed(request):
        return EgressDecision(False, "INVALID_INPUT")
    if len(request.collections) > MAX_COLLECTIONS:
        return EgressDecision(
            False, "COLLECTION_LIMIT_EXCEEDED", EgressAudit(collection_count=MAX_COLLECTIONS + 1)
        )
    audit = _audit(request)
    early = _early_fault(request)
    if early is not None:
        return EgressDecision(False, early, audit)
    collections = request.collections
    effective = strictest(c.policy for c in collections)
    sources = {c.source for c in collections if c.policy == effective}
    audit = _with_effective(audit, effective, sources)
    return EgressDecision(_allowing(reason := _verdict(request, effective)), reason, audit)


def _early_fault(request: EgressRequest) -> ReasonCode | None:
    if not request.collections:
        return "NO_COLLECTION_POLICY"
    if request.action not in ACTIONS:
        return "UNKNOWN_ACTION"
    if request.zone not in KNOWN_ZONES:
        return "UNKNOWN_DESTINATION"
    if not action_reaches(request.action, request.zone):
        return "ACTION_DESTINATION_MISMATCH"
    if request.content_class not in CONTENT_CLASSES:
        return "UNKNOWN_CONTENT_CLASS"
    if not isinstance(request.authenticated, bool) or not isinstance(request.authorized, bool):
        return "INVALID_CALLER"
    return _collection_fault(request.collections)


def _with_effective(audit: EgressAudit, effective: str, sources: set[str]) -> EgressAudit:
    return EgressAudit(
        action=audit.action,
        zone=audit.zone,
        content_class=audit.content_class,
        collection_count=audit.collection_count,
        collections=audit.collections,
        effective_policy=effective,
        effective_policy_source=next(iter(sources)) if len(sources) == 1 else "mixed",
        caller_authenticated=audit.caller_authenticated,
        caller_authorized=audit.caller_authorized,
    )


def _verdict(request: EgressRequest, effective: str) -> ReasonCode:
    if not request.authorized:
        return "CALLER_NOT_AUTHORIZED"
    if request.zone in ("local_process", "loopback"):
        return "LOCAL_DESTINATION"
    if effective == "local_only":
        return "POLICY_LOCAL_ONLY"
    if request.zone == "remote" and effective == "lan":
        return "POLICY_LAN_ONLY"
    if not request.authenticated:
        return "AUTHENTICATION_REQUIRED"
    return "LAN_POLICY_AUTHENTICATED" if request.zone == "lan" else "REMOTE_POLICY_AUTHENTICATED"


def _allowing(reason: str) -> bool:
    return reason in ALLOW_REASONS
