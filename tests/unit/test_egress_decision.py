"""The egress decision (issue 26): one row per reason code, reached by the smallest change to an
allowed request, in the reference evaluation order; and a property test that nothing allowed
ever carries a collection whose own policy refuses the destination."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_core.egress.decision import CollectionPolicy, EgressRequest, action_reaches, decide
from gno_core.egress.plan import plan
from gno_core.egress.values import (
    ACTIONS,
    ALLOW_REASONS,
    CONTENT_CLASSES,
    MAX_COLLECTIONS,
    POLICY_RANK,
    REASON_CODES,
    ZONES,
)

LAN = CollectionPolicy("team", "lan", "explicit")
REMOTE = CollectionPolicy("public", "remote", "explicit")
LOCAL = CollectionPolicy("private", "local_only", "config_default")


def req(**changes: Any) -> EgressRequest:
    base = EgressRequest(
        collections=(LAN,),
        action="serve",
        zone="lan",
        content_class="snippet",
        authenticated=True,
        authorized=True,
    )
    return replace(base, **changes)


def names(n: int) -> tuple[CollectionPolicy, ...]:
    return tuple(CollectionPolicy(f"c{i}", "remote", "explicit") for i in range(n))


#: reason -> a request that reaches it (each row one change away from an allowed request).
TABLE: dict[str, tuple[EgressRequest | object, bool]] = {
    "LOCAL_DESTINATION": (req(zone="loopback", collections=(LOCAL,)), True),
    "LAN_POLICY_AUTHENTICATED": (req(), True),
    "REMOTE_POLICY_AUTHENTICATED": (req(zone="remote", collections=(REMOTE,)), True),
    "INVALID_INPUT": ({"collections": [], "action": "serve"}, False),
    "NO_COLLECTION_POLICY": (req(collections=()), False),
    "COLLECTION_LIMIT_EXCEEDED": (req(collections=names(MAX_COLLECTIONS + 1)), False),
    "INVALID_COLLECTION": (
        req(collections=(CollectionPolicy("../etc", "lan", "explicit"),)),
        False,
    ),
    "UNKNOWN_ACTION": (req(action="upload"), False),
    "UNKNOWN_DESTINATION": (req(zone="unknown"), False),
    "ACTION_DESTINATION_MISMATCH": (req(action="publish", zone="lan"), False),
    "UNKNOWN_CONTENT_CLASS": (req(content_class="body"), False),
    "UNKNOWN_POLICY": (req(collections=(CollectionPolicy("team", "public", "explicit"),)), False),
    "UNKNOWN_POLICY_SOURCE": (req(collections=(CollectionPolicy("team", "lan", "yaml"),)), False),
    "INVALID_POLICY_SOURCE_PAIR": (
        req(collections=(CollectionPolicy("team", "lan", "config_default"),)),
        False,
    ),
    "INVALID_CALLER": (req(authenticated=None), False),
    "CALLER_NOT_AUTHORIZED": (req(authorized=False), False),
    "AUTHENTICATION_REQUIRED": (req(authenticated=False), False),
    "POLICY_LOCAL_ONLY": (req(collections=(LAN, LOCAL)), False),
    "POLICY_LAN_ONLY": (req(zone="remote"), False),
}


def test_the_table_names_each_of_the_19_reason_codes_once() -> None:
    assert len(REASON_CODES) == 19
    assert sorted(TABLE) == sorted(REASON_CODES)


@pytest.mark.parametrize("reason", list(TABLE))
def test_each_reason_code(reason: str) -> None:
    request, allowed = TABLE[reason]
    decision = decide(cast(EgressRequest, request))
    assert (decision.reason, decision.allowed) == (reason, allowed)
    assert decision.code == ("EGRESS_ALLOWED" if allowed else "EGRESS_DENIED")
    assert (reason in ALLOW_REASONS) is allowed


def test_a_duplicate_collection_is_invalid() -> None:
    assert decide(req(collections=(LAN, LAN))).reason == "INVALID_COLLECTION"


def test_64_collections_are_decided_65_are_not() -> None:
    assert decide(req(collections=names(64))).allowed
    assert decide(req(collections=names(65))).audit.collection_count == 65


def test_the_order_authorization_before_a_local_destination() -> None:
    # loopback is allowed for local_only content, but never for an unauthorised caller
    d = decide(req(zone="loopback", collections=(LOCAL,), authorized=False))
    assert d.reason == "CALLER_NOT_AUTHORIZED"
    # loopback needs no authentication
    assert decide(req(zone="loopback", collections=(LOCAL,), authenticated=False)).allowed


def test_the_order_policy_before_authentication() -> None:
    d = decide(req(collections=(LOCAL,), authenticated=False))
    assert d.reason == "POLICY_LOCAL_ONLY"


def test_action_destination_table() -> None:
    assert not action_reaches("serve", "local_process")
    assert not action_reaches("remote_inference", "local_process")
    assert not action_reaches("export", "loopback")
    assert action_reaches("publish", "remote") and not action_reaches("publish", "loopback")
    assert all(action_reaches(a, z) for a in ("retrieve", "clip_write") for z in ZONES)


def test_the_audit_holds_no_unrecognised_value() -> None:
    d = decide(req(action="exfiltrate /home/me/secret.md", zone="10.0.0.7"))
    assert d.audit.action == "unknown" and d.audit.zone == "unknown"
    bad = CollectionPolicy("/home/me", "lan", "explicit")
    assert decide(req(collections=(bad,))).audit.collections == ("unknown",)


def test_effective_source_is_mixed_when_the_strictest_policy_has_two_sources() -> None:
    a = CollectionPolicy("a", "local_only", "explicit")
    b = CollectionPolicy("b", "local_only", "config_default")
    d = decide(req(zone="loopback", collections=(a, b)))
    assert (d.audit.effective_policy, d.audit.effective_policy_source) == ("local_only", "mixed")


# --- property: nothing allowed carries content a collection's own policy refuses ----------

POLICY_SOURCE = st.sampled_from(
    [("local_only", "config_default"), ("local_only", "legacy_default")]
    + [(p, "explicit") for p in ("local_only", "lan", "remote")]
)
COLLECTIONS = st.lists(
    st.tuples(st.sampled_from([f"c{i}" for i in range(8)]), POLICY_SOURCE),
    min_size=1,
    max_size=8,
    unique_by=lambda t: t[0],
).map(lambda rows: tuple(CollectionPolicy(n, p, s) for n, (p, s) in rows))
REQUESTS = st.builds(
    EgressRequest,
    collections=COLLECTIONS,
    action=st.sampled_from(ACTIONS),
    zone=st.sampled_from(ZONES),
    content_class=st.sampled_from(CONTENT_CLASSES),
    authenticated=st.booleans(),
    authorized=st.booleans(),
)


def permits(c: CollectionPolicy, r: EgressRequest) -> bool:
    """The rule stated independently of the evaluator: may ``c``'s content go?"""
    if not r.authorized or r.zone == "unknown" or not action_reaches(r.action, r.zone):
        return False
    if r.zone in ("local_process", "loopback"):
        return True
    needed = {"lan": "lan", "remote": "remote"}[r.zone]
    return bool(r.authenticated) and POLICY_RANK[c.policy] >= POLICY_RANK[needed]


@settings(max_examples=600, deadline=None)
@given(REQUESTS, st.sampled_from(["deny", "explicit"]))
def test_no_allowed_collection_is_one_its_policy_refuses(r: EgressRequest, partial: str) -> None:
    whole = decide(r)
    if whole.allowed:
        assert all(permits(c, r) for c in r.collections)
    p = plan(r, partial)  # type: ignore[arg-type]
    by_name = {c.collection: c for c in r.collections}
    assert all(permits(by_name[name], r) for name in p.allowed)
    # nothing is lost without a word: every collection is allowed or omitted with a reason
    assert sorted([*p.allowed, *(o.collection for o in p.omitted)]) == sorted(by_name)
    if partial == "deny":
        assert p.mode in ("complete", "denied")
    if p.mode == "partial":
        assert p.allowed_decision is not None and p.allowed_decision.allowed
        assert p.omitted and p.allowed
