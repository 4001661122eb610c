"""Ports of the egress policy (issue 26): the explicit policy of each collection with its
durable revision and the authorization epoch (``EgressPolicyStore``), and the content-free
receipts of decisions (``EgressReceiptStore``). Values: ``gno_core.egress``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from gno_core.egress.receipts import Receipt, ReceiptDraft, ReceiptRetention
from gno_core.egress.values import Policy

__all__ = ["EgressPolicyStore", "EgressReceiptStore", "ReceiptStats", "StoredPolicy"]


@dataclass(frozen=True, slots=True)
class StoredPolicy:
    """A collection's explicit policy and its revision (the number of changes made to it).
    ``binding`` names what the policy was set for (a digest of the collection's folder): a
    collection removed and added again for another folder under the same name does not
    inherit it."""

    collection: str
    policy: Policy
    revision: int
    binding: str = ""


@dataclass(frozen=True, slots=True)
class ReceiptStats:
    receipts: int
    bytes: int
    oldest_ms: int | None
    newest_ms: int | None


class EgressPolicyStore(Protocol):
    def get(self, collection: str) -> StoredPolicy | None:
        """The explicit policy of ``collection`` (None: never set; its revision is 0)."""
        ...

    def all(self) -> dict[str, StoredPolicy]:
        """Every collection with an explicit policy, by name."""
        ...

    def apply(
        self, collection: str, policy: Policy, expected_revision: int, binding: str = ""
    ) -> StoredPolicy:
        """Store ``policy`` (set for ``binding``) as revision ``expected_revision + 1`` and advance the authorization
        epoch, in one transaction, only while the collection's revision is still
        ``expected_revision`` (``CONFLICT`` otherwise: the revision a confirmation named is
        consumed once). Revisions never go back, also when a collection is removed."""
        ...

    def epoch(self) -> int:
        """The authorization epoch: advanced by every applied change (0 before any)."""
        ...


class EgressReceiptStore(Protocol):
    def append(self, draft: ReceiptDraft, now_ms: int, retention: ReceiptRetention) -> Receipt:
        """Keep ``draft`` as a new receipt (a fresh random 32-hex id, created ``now_ms``,
        expiring ``retention.max_age_ms`` later), then apply ``retention``: expired receipts
        go, and the oldest until at most ``max_receipts`` and ``max_bytes`` are kept."""
        ...

    def page(self, now_ms: int, limit: int, before: tuple[int, str] | None = None) -> list[Receipt]:
        """Up to ``limit`` unexpired receipts, newest first (by created time, then id), strictly
        after ``before`` (createdMs, auditId) in that order."""
        ...

    def get(self, audit_id: str, now_ms: int) -> Receipt | None:
        """The unexpired receipt ``audit_id``, or None."""
        ...

    def delete(self, audit_id: str) -> bool:
        """Delete one receipt; False when there was none."""
        ...

    def purge(self) -> int:
        """Delete every receipt (receipts only, never a policy); how many there were."""
        ...

    def stats(self, now_ms: int) -> ReceiptStats:
        """Count, bytes and the oldest and newest times of the unexpired receipts."""
        ...
