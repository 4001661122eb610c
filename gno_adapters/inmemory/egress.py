"""``InMemoryEgressPolicies`` and ``InMemoryEgressReceipts``: the egress ports in memory, with
the rules of the SQLite adapter (the contract suite runs against both)."""

from __future__ import annotations

import threading
import uuid

from gno_core.egress.change import stale_revision
from gno_core.egress.receipts import Receipt, ReceiptDraft, ReceiptRetention
from gno_core.egress.values import Policy
from gno_core.ports.egress import ReceiptStats, StoredPolicy

__all__ = ["InMemoryEgressPolicies", "InMemoryEgressReceipts"]


class InMemoryEgressPolicies:
    """The ``EgressPolicyStore`` port."""

    def __init__(self) -> None:
        self._rows: dict[str, StoredPolicy] = {}
        self._epoch = 0
        self._lock = threading.Lock()

    def get(self, collection: str) -> StoredPolicy | None:
        return self._rows.get(collection)

    def all(self) -> dict[str, StoredPolicy]:
        return dict(self._rows)

    def apply(
        self, collection: str, policy: Policy, expected_revision: int, binding: str = ""
    ) -> StoredPolicy:
        with self._lock:
            known = self._rows.get(collection)
            current = known.revision if known else 0
            if current != expected_revision:
                raise stale_revision(collection, current)
            row = self._rows[collection] = StoredPolicy(collection, policy, current + 1, binding)
            self._epoch += 1
            return row

    def epoch(self) -> int:
        return self._epoch


def _key(receipt: Receipt) -> tuple[int, str]:
    return (receipt.created_ms, receipt.audit_id)


class InMemoryEgressReceipts:
    """The ``EgressReceiptStore`` port."""

    def __init__(self) -> None:
        self._rows: dict[str, Receipt] = {}
        self._lock = threading.Lock()

    def append(self, draft: ReceiptDraft, now_ms: int, retention: ReceiptRetention) -> Receipt:
        with self._lock:
            receipt = Receipt(uuid.uuid4().hex, now_ms, now_ms + retention.max_age_ms, draft)
            self._rows[receipt.audit_id] = receipt
            for gone in [r for r in self._rows.values() if r.expires_ms <= now_ms]:
                del self._rows[gone.audit_id]
            oldest_first = [(r.audit_id, r.size) for r in sorted(self._rows.values(), key=_key)]
            size = sum(n for _, n in oldest_first)
            for gone_id in retention.overflow(oldest_first, len(oldest_first), size):
                del self._rows[gone_id]
            return receipt

    def _live(self, now_ms: int) -> list[Receipt]:
        return sorted((r for r in self._rows.values() if r.expires_ms > now_ms), key=_key)

    def page(self, now_ms: int, limit: int, before: tuple[int, str] | None = None) -> list[Receipt]:
        newest = reversed(self._live(now_ms))
        return [r for r in newest if before is None or _key(r) < before][:limit]

    def get(self, audit_id: str, now_ms: int) -> Receipt | None:
        found = self._rows.get(audit_id)
        return found if found is not None and found.expires_ms > now_ms else None

    def delete(self, audit_id: str) -> bool:
        with self._lock:
            return self._rows.pop(audit_id, None) is not None

    def purge(self) -> int:
        with self._lock:
            n = len(self._rows)
            self._rows.clear()
            return n

    def stats(self, now_ms: int) -> ReceiptStats:
        live = self._live(now_ms)
        return ReceiptStats(
            len(live),
            sum(r.size for r in live),
            live[0].created_ms if live else None,
            live[-1].created_ms if live else None,
        )
