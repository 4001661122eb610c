"""Contract suite of the egress ports (issue 26): ``EgressPolicyStore`` (explicit policies, the
durable revision a confirmation is bound to, the authorization epoch) and
``EgressReceiptStore`` (content-free receipts, retention by age, count and bytes, newest-first
pages), run against the in-memory and the SQLite index."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_core.egress.receipts import DAY_MS, ReceiptDraft, ReceiptRetention
from gno_core.errors import ConflictError
from tests.contract.store_support import Store, apsw_index

NOW = 1_800_000_000_000


def draft(n: int = 0, collections: tuple[str, ...] = ("team",)) -> ReceiptDraft:
    return ReceiptDraft(
        decision="allow",
        mode="partial",
        action="serve",
        zone="lan",
        content_class="snippet",
        effective_policy="lan",
        reason="LAN_POLICY_AUTHENTICATED",
        collections=collections,
        omitted=(("private", "POLICY_LOCAL_ONLY"),),
        lineage_digest=f"{n:064x}",
        operation="gno_query",
    )


# --- policies -------------------------------------------------------------------------------


def test_a_collection_never_set_has_no_row_and_epoch_zero(store: Store) -> None:
    policies = store.egress_policies
    assert policies.get("notes") is None
    assert policies.all() == {}
    assert policies.epoch() == 0


def test_apply_bumps_revision_and_epoch(store: Store) -> None:
    policies = store.egress_policies
    first = policies.apply("notes", "lan", 0)
    assert (first.policy, first.revision) == ("lan", 1)
    second = policies.apply("notes", "local_only", 1)
    assert (second.policy, second.revision) == ("local_only", 2)
    policies.apply("team", "remote", 0)
    assert policies.epoch() == 3
    assert policies.get("notes") == second
    assert set(policies.all()) == {"notes", "team"}


def test_a_revision_is_consumed_once(store: Store) -> None:
    policies = store.egress_policies
    policies.apply("notes", "lan", 0)
    with pytest.raises(ConflictError) as replay:
        policies.apply("notes", "remote", 0)  # the revision 0 was consumed
    assert replay.value.details["currentRevision"] == 1
    with pytest.raises(ConflictError):
        policies.apply("notes", "remote", 7)  # never reached
    assert policies.get("notes").policy == "lan"  # type: ignore[union-attr]
    assert policies.epoch() == 1  # a refused change advances nothing


def test_the_binding_is_kept_with_the_policy(store: Store) -> None:
    policies = store.egress_policies
    policies.apply("notes", "lan", 0, "f" * 32)
    assert policies.get("notes").binding == "f" * 32  # type: ignore[union-attr]
    assert policies.all()["notes"].binding == "f" * 32
    policies.apply("notes", "local_only", 1, "e" * 32)
    assert policies.get("notes").binding == "e" * 32  # type: ignore[union-attr]


def test_policies_and_epoch_survive_reopening(tmp_path: Path) -> None:
    path = str(tmp_path / "index.sqlite")
    with apsw_index(path) as db:
        db.egress_policies.apply("notes", "lan", 0)
        db.egress_receipts.append(draft(), NOW, ReceiptRetention())
    with apsw_index(path) as db:
        assert db.egress_policies.get("notes").revision == 1  # type: ignore[union-attr]
        assert db.egress_policies.epoch() == 1
        assert db.egress_receipts.stats(NOW).receipts == 1


# --- receipts -------------------------------------------------------------------------------


def test_receipts_round_trip_and_page_newest_first(store: Store) -> None:
    receipts = store.egress_receipts
    made = [receipts.append(draft(i), NOW + i // 2, ReceiptRetention()) for i in range(5)]
    assert len({r.audit_id for r in made}) == 5
    assert all(len(r.audit_id) == 32 for r in made)
    got = receipts.get(made[0].audit_id, NOW)
    assert got == made[0] and got.draft == draft(0)
    expected = sorted(made, key=lambda r: (r.created_ms, r.audit_id), reverse=True)
    first = receipts.page(NOW, 2)
    assert first == expected[:2]
    last = first[-1]
    rest = receipts.page(NOW, 10, before=(last.created_ms, last.audit_id))
    assert rest == expected[2:]


def test_delete_one_and_purge_all(store: Store) -> None:
    receipts = store.egress_receipts
    a = receipts.append(draft(1), NOW, ReceiptRetention())
    receipts.append(draft(2), NOW + 1, ReceiptRetention())
    assert receipts.delete(a.audit_id) is True
    assert receipts.delete(a.audit_id) is False
    assert receipts.get(a.audit_id, NOW) is None
    store.egress_policies.apply("notes", "lan", 0)
    assert receipts.purge() == 1
    assert receipts.stats(NOW).receipts == 0
    assert store.egress_policies.get("notes") is not None  # a purge deletes receipts only


def test_retention_by_age(store: Store) -> None:
    receipts = store.egress_receipts
    retention = ReceiptRetention()
    old = receipts.append(draft(1), NOW, retention)
    later = NOW + 30 * DAY_MS
    assert receipts.get(old.audit_id, later) is None  # expired: never listed
    assert receipts.page(later, 10) == []
    assert receipts.stats(later).receipts == 0
    receipts.append(draft(2), later, retention)  # and dropped at the next append
    assert receipts.stats(NOW).receipts == 1


def test_retention_by_count_and_bytes_drops_the_oldest(store: Store) -> None:
    receipts = store.egress_receipts
    by_count = ReceiptRetention(max_receipts=3)
    made = [receipts.append(draft(i), NOW + i, by_count) for i in range(5)]
    assert [r.audit_id for r in receipts.page(NOW, 10)] == [r.audit_id for r in made[:1:-1]]
    size = made[0].size
    by_bytes = ReceiptRetention(max_bytes=2 * size)
    receipts.append(draft(9), NOW + 9, by_bytes)
    stats = receipts.stats(NOW)
    assert stats.receipts == 2 and stats.bytes <= 2 * size
    assert stats.newest_ms == NOW + 9 and stats.oldest_ms == NOW + 4


def test_stats_of_an_empty_store(store: Store) -> None:
    stats = store.egress_receipts.stats(NOW)
    assert (stats.receipts, stats.bytes, stats.oldest_ms, stats.newest_ms) == (0, 0, None, None)


def test_an_append_serialises_each_receipt_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retention sums the kept receipts' sizes on every append: a size is computed once, when
    its receipt is made, never again for every receipt already kept."""
    calls = 0
    payload = ReceiptDraft.payload

    def counted(self: ReceiptDraft) -> str:
        nonlocal calls
        calls += 1
        return payload(self)

    monkeypatch.setattr(ReceiptDraft, "payload", counted)
    for i in range(50):
        store.egress_receipts.append(draft(i), NOW + i, ReceiptRetention())
    assert calls <= 2 * 50
