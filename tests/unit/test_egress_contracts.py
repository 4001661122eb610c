"""The four egress contracts (issue 26) accept what gno writes and refuse stale or leaky shapes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.schema_check import assert_valid

HASH = "a" * 64
STATE: dict[str, Any] = {
    "schemaVersion": "1.0",
    "collection": "notes",
    "configuredPolicy": None,
    "effectivePolicy": "local_only",
    "source": "config_default",
    "revision": 0,
    "version": f"egress-policy-v1:{HASH}",
}
RECEIPT: dict[str, Any] = {
    "auditId": "0" * 32,
    "createdAt": "2026-12-02T07:00:00Z",
    "expiresAt": "2027-01-01T07:00:00Z",
    "decision": "deny",
    "mode": "partial",
    "action": "serve",
    "destinationZone": "lan",
    "contentClass": "snippet",
    "effectivePolicy": "local_only",
    "reasonCode": "POLICY_LOCAL_ONLY",
    "collections": ["team"],
    "omittedCollections": [{"collection": "notes", "reason": "POLICY_LOCAL_ONLY"}],
    "lineageDigest": HASH,
}


def test_policy_state_and_change() -> None:
    assert_valid("collection-egress-policy", STATE)
    current = {**STATE, "configuredPolicy": "lan", "effectivePolicy": "lan", "revision": 1}
    current["source"] = "explicit"
    change = {
        "schemaVersion": "1.0",
        "previous": STATE,
        "current": current,
        "change": "relaxed",
        "invalidation": {
            "policyEpoch": "egress-epoch-v1:7",
            "queuedJobsInvalidated": 0,
            "sessionsInvalidated": 2,
            "staleWorkMustRetry": True,
        },
    }
    assert_valid("collection-egress-policy-set", change)
    assert_valid("collection-egress-policy-set", {**change, "invalidation": None})


@pytest.mark.parametrize(
    "bad",
    [
        {"version": "latest"},
        {"revision": -1},
        {"source": "legacy_default"},
        {"path": "/private"},
        {"collection": "Notes"},
    ],
)
def test_policy_state_refuses(bad: dict[str, Any]) -> None:
    with pytest.raises(AssertionError):
        assert_valid("collection-egress-policy", {**STATE, **bad})


def test_audit_management_operations() -> None:
    assert_valid(
        "egress-audit-management",
        {
            "schemaVersion": "1.0",
            "operation": "list",
            "receipts": [RECEIPT],
            "nextCursor": "gno-egress-audit-v1.abc",
        },
    )
    assert_valid("egress-audit-management", {"operation": "show", "receipt": RECEIPT})
    status = {
        "retention": {"maxAgeDays": 30, "maxReceipts": 10000, "maxBytes": 4194304},
        "receipts": 0,
        "bytes": 0,
        "oldestCreatedAt": None,
        "newestCreatedAt": None,
    }
    assert_valid("egress-audit-management", {"operation": "status", "status": status})
    assert_valid("egress-audit-management", {"operation": "purge", "deleted": 3})


@pytest.mark.parametrize(
    "bad",
    [{"query": "secret"}, {"path": "/home/me/a.md"}, {"operation": "gno_query?q=secret"}],
)
def test_a_receipt_has_no_room_for_content(bad: dict[str, Any]) -> None:
    with pytest.raises(AssertionError):
        assert_valid(
            "egress-audit-management", {"operation": "show", "receipt": {**RECEIPT, **bad}}
        )
