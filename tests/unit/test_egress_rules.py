"""Egress rules beside the decision (issue 26): the peer zone classifier, the lineage digest,
the scope, partial results in their contract, and the relaxation confirmation."""

from __future__ import annotations

import pytest

from gno_core.egress.change import PolicyState, RelaxationConfirmation, plan_change
from gno_core.egress.decision import CollectionPolicy, EgressRequest
from gno_core.egress.lineage import lineage_of
from gno_core.egress.plan import plan
from gno_core.egress.scope import resolve_scope, sources_for
from gno_core.egress.wire import check_result
from gno_core.egress.zones import classify_peer
from gno_core.errors import EgressRelaxationConfirmationError, ValidationError
from tests.schema_check import assert_valid


@pytest.mark.parametrize(
    ("address", "zone"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("[::1]", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("10.0.0.7", "lan"),
        ("172.16.0.1", "lan"),
        ("172.31.255.254", "lan"),
        ("192.168.1.20", "lan"),
        ("169.254.10.1", "lan"),
        ("fe80::1%eth0", "lan"),
        ("fd12:3456::1", "lan"),
        ("::ffff:192.168.1.20", "lan"),
        ("100.64.0.1", "unknown"),
        ("100.101.102.103", "unknown"),
        ("fd7a:115c:a1e0::1", "unknown"),
        ("169.254.169.254", "unknown"),
        ("fd00:ec2::254", "unknown"),
        ("0.0.0.0", "unknown"),
        ("224.0.0.1", "unknown"),
        ("not an address", "unknown"),
        ("", "unknown"),
        (None, "unknown"),
        ("172.32.0.1", "remote"),
        ("100.128.0.1", "remote"),
        ("8.8.8.8", "remote"),
        ("2001:4860:4860::8888", "remote"),
        ("fd7a:115c:a1e1::1", "lan"),  # outside Tailscale's /48: an ordinary ULA
    ],
)
def test_peer_zone(address: str | None, zone: str) -> None:
    assert classify_peer(address) == zone


A = CollectionPolicy("a", "lan", "explicit")
B = CollectionPolicy("b", "local_only", "config_default")


def test_lineage_is_the_strictest_source_and_its_digest_is_order_free() -> None:
    one, two = lineage_of([A, B]), lineage_of([B, A])
    assert one == two
    assert one.effective_policy == "local_only"
    assert [s.collection for s in one.sources] == ["a", "b"]
    assert len(one.digest) == 64
    relaxed = lineage_of([A, CollectionPolicy("b", "lan", "explicit")])
    assert relaxed.effective_policy == "lan" and relaxed.digest != one.digest


def test_lineage_keeps_the_strictest_policy_of_a_collection_met_twice() -> None:
    lin = lineage_of([CollectionPolicy("a", "remote", "explicit"), A])
    assert [(s.collection, s.policy) for s in lin.sources] == [("a", "lan")]


def test_lineage_with_no_source_is_refused() -> None:
    with pytest.raises(ValidationError):
        lineage_of([])


def test_scope_omitted_is_every_configured_collection() -> None:
    assert resolve_scope(None, ["b", "a"]) == ("a", "b")


@pytest.mark.parametrize(
    "scope", [[], ["a", "a"], ["Notes"], ["../x"], [f"c{i}" for i in range(65)], "a"]
)
def test_scope_refused(scope: list[str]) -> None:
    with pytest.raises(ValidationError):
        resolve_scope(scope, ["a"])


def test_an_unknown_collection_is_local_only() -> None:
    assert sources_for(["a", "zz"], {"a": A}) == (
        A,
        CollectionPolicy("zz", "local_only", "legacy_default"),
    )


def _request(zone: str, *collections: CollectionPolicy) -> EgressRequest:
    return EgressRequest(collections, "serve", zone, "snippet", True, True)


def test_partial_explicit_serves_the_lan_collection_and_discloses_the_other() -> None:
    result = check_result(plan(_request("lan", A, B), "explicit")).wire()
    assert_valid("collection-egress-check", result)
    assert result["mode"] == "partial"
    assert result["allowedCollections"] == ["a"]
    assert result["omittedCollections"] == [{"collection": "b", "reason": "POLICY_LOCAL_ONLY"}]
    assert result["disclosure"]["omittedCollections"] == ["b"]
    assert result["remediation"]["code"] == "POLICY_LOCAL_ONLY"


def test_partial_deny_denies_the_whole_scope() -> None:
    result = check_result(plan(_request("lan", A, B))).wire()
    assert_valid("collection-egress-check", result)
    assert (result["mode"], result["allowedCollections"]) == ("denied", [])
    assert {o["collection"] for o in result["omittedCollections"]} == {"a", "b"}


def test_a_caller_denial_is_never_split_per_collection() -> None:
    request = EgressRequest((A, B), "serve", "lan", "snippet", False, True)
    p = plan(request, "explicit")
    assert p.mode == "denied" and p.decision.reason == "POLICY_LOCAL_ONLY"
    unauth = plan(EgressRequest((A,), "serve", "lan", "snippet", False, True), "explicit")
    assert (unauth.mode, unauth.omitted[0].reason) == ("denied", "AUTHENTICATION_REQUIRED")


def test_complete_and_invalid_results_fit_the_contract() -> None:
    ok = check_result(plan(_request("loopback", A, B))).wire()
    assert_valid("collection-egress-check", ok)
    assert ok["mode"] == "complete" and ok["remediation"] is None
    bad = check_result(plan(_request("lan"))).wire()
    assert_valid("collection-egress-check", bad)
    assert bad["decision"]["reason"] == "NO_COLLECTION_POLICY" and bad["lineage"] is None


# --- relaxation --------------------------------------------------------------------------

NOTES = PolicyState("notes", None, "local_only", "config_default", 0)


def confirm(**changes: object) -> RelaxationConfirmation:
    base = {
        "collection": "notes",
        "current_policy": "local_only",
        "current_revision": 0,
        "target_policy": "lan",
        "acknowledged": True,
    }
    base.update(changes)
    return RelaxationConfirmation(**base)  # type: ignore[arg-type]


def test_relaxing_with_the_current_revision_is_accepted_once() -> None:
    change = plan_change(NOTES, "lan", confirm())
    assert change.kind == "relaxed"
    assert (change.after.effective, change.after.source, change.after.revision) == (
        "lan",
        "explicit",
        1,
    )
    # replayed after its change: the revision it names is no longer current
    with pytest.raises(EgressRelaxationConfirmationError) as replay:
        plan_change(change.after, "remote", confirm(target_policy="remote"))
    assert replay.value.details["mismatch"] == "stale_policy"
    with pytest.raises(EgressRelaxationConfirmationError) as stale:
        plan_change(change.after, "remote", confirm(current_policy="lan", target_policy="remote"))
    assert stale.value.details["mismatch"] == "stale_revision"


@pytest.mark.parametrize(
    ("confirmation", "mismatch"),
    [
        (None, "missing"),
        (confirm(acknowledged=False), "not_acknowledged"),
        (confirm(collection="other"), "cross_collection"),
        (confirm(current_policy="lan"), "stale_policy"),
        (confirm(current_revision=3), "stale_revision"),
        (confirm(current_revision=True), "stale_revision"),
        (confirm(target_policy="remote"), "cross_target"),
    ],
)
def test_a_relaxation_fails_closed(
    confirmation: RelaxationConfirmation | None, mismatch: str
) -> None:
    with pytest.raises(EgressRelaxationConfirmationError) as err:
        plan_change(NOTES, "lan", confirmation)
    assert err.value.code == "EGRESS_RELAXATION_CONFIRMATION_REQUIRED"
    assert err.value.details["mismatch"] == mismatch
    assert err.value.details["currentRevision"] == 0


def test_tightening_is_immediate_and_needs_no_confirmation() -> None:
    shared = PolicyState("notes", "remote", "remote", "explicit", 4)
    change = plan_change(shared, "local_only", None)
    assert (change.kind, change.after.effective, change.after.revision) == (
        "tightened",
        "local_only",
        5,
    )


def test_same_policy_is_unchanged_unless_it_was_a_default() -> None:
    explicit = PolicyState("notes", "lan", "lan", "explicit", 2)
    assert plan_change(explicit, "lan").kind == "unchanged"
    became = plan_change(NOTES, "local_only")
    assert (became.kind, became.after.source, became.after.revision) == (
        "source_changed",
        "explicit",
        1,
    )


def test_an_unknown_target_policy_is_refused() -> None:
    with pytest.raises(ValidationError):
        plan_change(NOTES, "public")
