"""Egress receipts: the content-free record of one decision that protected content, their
retention and their cursors.

A receipt holds the decision (allow or deny), the partial mode's outcome, the action, zone,
content class, effective policy, reason code, the collections that went and the ones omitted
(with their reasons), the lineage digest and the operation's name; never a query, a text, a
host or a path. Retention: 30 days, 10,000 receipts, 4 MiB (the oldest go first). Pages are
newest first; a cursor is ``gno-egress-audit-v1.`` then base64url of ``<createdMs>:<auditId>``
of the last receipt of the page before.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gno_core.egress.lineage import lineage_of
from gno_core.egress.plan import EgressPlan
from gno_core.egress.values import ALLOW_REASONS, REASON_CODES
from gno_core.errors import ValidationError

__all__ = [
    "AUDIT_ID_RE",
    "CURSOR_PREFIX",
    "OPERATION_RE",
    "RETENTION",
    "Receipt",
    "ReceiptDraft",
    "ReceiptRetention",
    "decode_cursor",
    "draft_of",
    "encode_cursor",
]

CURSOR_PREFIX = "gno-egress-audit-v1."
AUDIT_ID_RE = re.compile(r"^[0-9a-f]{32}$")
#: A tool or route name (``gno_query``, ``/api/search``): what was served, never its arguments.
OPERATION_RE = re.compile(r"^[a-z][a-z0-9_./:-]{0,63}$")
DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class ReceiptRetention:
    max_age_ms: int = 30 * DAY_MS
    max_receipts: int = 10_000
    max_bytes: int = 4 * 1024 * 1024

    def overflow(self, oldest_first: Iterable[tuple[str, int]], count: int, size: int) -> list[str]:
        """The ids to drop, oldest first, until both bounds hold: ``oldest_first`` is every
        kept receipt's (id, size) from the oldest, ``count`` and ``size`` their totals."""
        doomed: list[str] = []
        for audit_id, nbytes in oldest_first:
            if count <= self.max_receipts and size <= self.max_bytes:
                break
            doomed.append(audit_id)
            count, size = count - 1, size - nbytes
        return doomed


RETENTION = ReceiptRetention()


@dataclass(frozen=True, slots=True)
class ReceiptDraft:
    """A receipt before the store gives it an id and a time."""

    decision: str  # allow | deny
    mode: str  # complete | partial | denied
    action: str
    zone: str
    content_class: str
    effective_policy: str
    reason: str
    collections: tuple[str, ...]
    omitted: tuple[tuple[str, str], ...]
    lineage_digest: str | None = None
    operation: str | None = None

    def payload(self) -> str:
        """Canonical JSON of the receipt's fields (what the store keeps and counts)."""
        return json.dumps(
            {
                "decision": self.decision,
                "mode": self.mode,
                "action": self.action,
                "zone": self.zone,
                "contentClass": self.content_class,
                "effectivePolicy": self.effective_policy,
                "reason": self.reason,
                "collections": list(self.collections),
                "omitted": [list(pair) for pair in self.omitted],
                "lineageDigest": self.lineage_digest,
                "operation": self.operation,
            },
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=True,
        )

    @classmethod
    def from_payload(cls, payload: str) -> ReceiptDraft:
        data: dict[str, Any] = json.loads(payload)
        return cls(
            decision=data["decision"],
            mode=data["mode"],
            action=data["action"],
            zone=data["zone"],
            content_class=data["contentClass"],
            effective_policy=data["effectivePolicy"],
            reason=data["reason"],
            collections=tuple(data["collections"]),
            omitted=tuple((str(a), str(b)) for a, b in data["omitted"]),
            lineage_digest=data["lineageDigest"],
            operation=data["operation"],
        )


@dataclass(frozen=True, slots=True)
class Receipt:
    audit_id: str
    created_ms: int
    expires_ms: int
    draft: ReceiptDraft
    #: What the receipt counts against the byte bound: its payload and its keys (computed
    #: once: retention sums it over every kept receipt).
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.draft.payload().encode("ascii")) + 64)

    def wire(self, iso: Callable[[int], str]) -> dict[str, Any]:
        """The receipt in ``egress-audit-management@1.0`` (``iso``: ms -> ISO-8601 text)."""
        d = self.draft
        out: dict[str, Any] = {
            "auditId": self.audit_id,
            "createdAt": iso(self.created_ms),
            "expiresAt": iso(self.expires_ms),
            "decision": d.decision,
            "mode": d.mode,
            "action": d.action,
            "destinationZone": d.zone,
            "contentClass": d.content_class,
            "effectivePolicy": d.effective_policy,
            "reasonCode": d.reason,
            "collections": list(d.collections),
            "omittedCollections": [{"collection": c, "reason": r} for c, r in d.omitted],
        }
        if d.lineage_digest is not None:
            out["lineageDigest"] = d.lineage_digest
        if d.operation is not None:
            out["operation"] = d.operation
        return out


def draft_of(plan: EgressPlan, operation: str | None = None) -> ReceiptDraft:
    """The receipt of ``plan``: the decision and lineage digest of what went (``allow``), or
    of the whole scope (``deny``, nothing went). Names that are not canonical were already ``unknown`` in the
    decision's audit; an operation that is not a plain name is dropped."""
    went = plan.allowed_decision if plan.allowed_decision is not None else plan.decision
    audit = went.audit
    reason = went.reason if went.reason in REASON_CODES else "INVALID_INPUT"
    return ReceiptDraft(
        decision="allow" if reason in ALLOW_REASONS and plan.allowed else "deny",
        mode=plan.mode,
        action=audit.action,
        zone=audit.zone,
        content_class=audit.content_class,
        effective_policy=audit.effective_policy,
        reason=reason,
        collections=plan.allowed,
        omitted=tuple((o.collection, o.reason) for o in plan.omitted),
        lineage_digest=_digest(plan),
        operation=operation if operation and OPERATION_RE.fullmatch(operation) else None,
    )


def _digest(plan: EgressPlan) -> str | None:
    """The lineage digest of what went (of the whole scope when nothing did)."""
    if plan.lineage is None:
        return None
    if plan.mode != "partial":
        return plan.lineage.digest
    went = set(plan.allowed)
    return lineage_of(s for s in plan.lineage.sources if s.collection in went).digest


def encode_cursor(created_ms: int, audit_id: str) -> str:
    raw = f"{created_ms}:{audit_id}".encode("ascii")
    return CURSOR_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(value: str) -> tuple[int, str]:
    """(createdMs, auditId) of a cursor; ``VALIDATION`` when it is not one gno wrote."""
    bad = ValidationError(
        "cursor is not an egress audit cursor of this gno (expected gno-egress-audit-v1.…)",
        details={"field": "cursor"},
    )
    if not isinstance(value, str) or not value.startswith(CURSOR_PREFIX):
        raise bad
    body = value[len(CURSOR_PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    created, _, audit_id = raw.partition(":")
    if not created.isdigit() or len(created) > 18 or not AUDIT_ID_RE.fullmatch(audit_id):
        raise bad
    return int(created), audit_id
