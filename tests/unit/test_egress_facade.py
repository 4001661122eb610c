"""The egress room through the ``Gno`` facade (issue 26): policies with their durable
revision and one-use confirmation, the configuration that only narrows, decide-and-record with
content-free receipts, and the receipts' management; over the fakes and over SQLite."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.sqlite.index import ApswIndexProvider
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts.egress_requests import RelaxationConfirmationInput
from gno_core.egress.lineage import lineage_of
from gno_core.errors import EgressRelaxationConfirmationError, NotFoundError, ValidationError
from gno_core.facade import Gno
from tests.schema_check import assert_valid

SECRET = "the merger closes on friday"


def _adapters(kind: str, tmp_path: Path, config: GnoConfig):  # type: ignore[no-untyped-def]
    made = in_memory()
    made.config.save(config)
    if kind == "apsw":
        made = replace(made, provider=ApswIndexProvider(tmp_path / "index.sqlite", made.clock))
    return made


CONFIG = GnoConfig(
    collections=[
        CollectionConfig(name="private", path="/p"),
        CollectionConfig(name="team", path="/t"),
        CollectionConfig(name="pinned", path="/x", egress_policy="local_only"),
    ]
)


@pytest.fixture(params=["memory", "apsw"])
def gno(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Gno]:
    with build(_adapters(request.param, tmp_path, CONFIG)) as facade:
        yield facade


def confirm(
    collection: str, current: str, revision: int, target: str
) -> RelaxationConfirmationInput:
    return RelaxationConfirmationInput(
        collection=collection,
        current_policy=current,  # type: ignore[arg-type]
        current_revision=revision,
        target_policy=target,  # type: ignore[arg-type]
        acknowledged=True,
    )


def share_team(gno: Gno) -> None:
    gno.egress_policy_set("team", "lan", confirm("team", "local_only", 0, "lan"))


def test_a_new_collection_is_local_only_by_default(gno: Gno) -> None:
    state = gno.egress_policy_get("private").wire()
    assert_valid("collection-egress-policy", state)
    assert (state["configuredPolicy"], state["effectivePolicy"], state["source"]) == (
        None,
        "local_only",
        "config_default",
    )
    assert state["revision"] == 0
    with pytest.raises(NotFoundError):
        gno.egress_policy_get("nope")


def test_relaxing_needs_the_current_revision_once(gno: Gno) -> None:
    with pytest.raises(EgressRelaxationConfirmationError):
        gno.egress_policy_set("team", "lan")
    epoch = gno.egress_epoch()
    result = gno.egress_policy_set("team", "lan", confirm("team", "local_only", 0, "lan")).wire()
    assert_valid("collection-egress-policy-set", result)
    assert result["change"] == "relaxed"
    assert result["current"]["revision"] == 1 and result["current"]["source"] == "explicit"
    assert result["invalidation"]["policyEpoch"] == f"egress-epoch-v1:{epoch + 1}"
    assert gno.egress_epoch() == epoch + 1
    # the same confirmation again (a replay), and one for another collection or target
    for bad in (
        confirm("team", "local_only", 0, "lan"),
        confirm("team", "lan", 0, "remote"),
        confirm("private", "lan", 1, "remote"),
        confirm("team", "lan", 1, "lan"),
    ):
        with pytest.raises(EgressRelaxationConfirmationError):
            gno.egress_policy_set("team", "remote", bad)
    assert gno.egress_policy_get("team").revision == 1
    assert gno.egress_epoch() == epoch + 1


def test_tightening_is_immediate_and_advances_the_epoch(gno: Gno) -> None:
    share_team(gno)
    epoch = gno.egress_epoch()
    result = gno.egress_policy_set("team", "local_only").wire()
    assert (result["change"], result["current"]["effectivePolicy"]) == ("tightened", "local_only")
    assert gno.egress_epoch() == epoch + 1
    unchanged = gno.egress_policy_set("team", "local_only").wire()
    assert unchanged["change"] == "unchanged" and unchanged["invalidation"] is None


def test_the_configuration_only_narrows(gno: Gno) -> None:
    gno.egress_policy_set("pinned", "remote", confirm("pinned", "local_only", 0, "remote"))
    state = gno.egress_policy_get("pinned")
    assert (state.configured_policy, state.effective_policy) == ("remote", "local_only")
    plan = gno.egress_authorize(
        collections=["pinned"],
        action="serve",
        zone="remote",
        content_class="snippet",
        authenticated=True,
        authorized=True,
    )
    assert plan.mode == "denied" and plan.decision.reason == "POLICY_LOCAL_ONLY"


def test_check_explains_without_recording(gno: Gno) -> None:
    share_team(gno)
    result = gno.egress_check(
        action="serve",
        zone="lan",
        content_class="snippet",
        authenticated=True,
        authorized=True,
        partial="explicit",
    ).wire()
    assert_valid("collection-egress-check", result)
    assert result["mode"] == "partial"
    assert result["allowedCollections"] == ["team"]
    assert {o["collection"] for o in result["omittedCollections"]} == {"pinned", "private"}
    assert gno.egress_audit_status().status.receipts == 0  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        gno.egress_check(
            collections=["team", "team"],
            action="serve",
            zone="lan",
            content_class="snippet",
            authenticated=True,
            authorized=True,
        )


def test_authorize_records_a_content_free_receipt(gno: Gno) -> None:
    share_team(gno)
    plan = gno.egress_authorize(
        collections=["private", "team"],
        action="serve",
        zone="lan",
        content_class="snippet",
        authenticated=True,
        authorized=True,
        partial="explicit",
        operation="gno_query",
    )
    assert plan.mode == "partial" and plan.allowed == ("team",)
    page = gno.egress_audit_list().wire()
    assert_valid("egress-audit-management", page)
    (receipt,) = page["receipts"]
    assert receipt["decision"] == "allow" and receipt["mode"] == "partial"
    assert receipt["collections"] == ["team"]
    assert receipt["omittedCollections"] == [
        {"collection": "private", "reason": "POLICY_LOCAL_ONLY"}
    ]
    assert receipt["operation"] == "gno_query"
    team = gno.egress_sources(["team"])
    assert receipt["lineageDigest"] == lineage_of(team).digest  # of what went
    assert SECRET not in json.dumps(page) and "/p" not in json.dumps(receipt)
    shown = gno.egress_audit_show(receipt["auditId"]).wire()
    assert_valid("egress-audit-management", shown)
    assert shown["receipt"] == receipt


def test_a_local_allowed_decision_leaves_no_receipt_a_denial_does(gno: Gno) -> None:
    kw = {"action": "serve", "content_class": "snippet", "authorized": True}
    gno.egress_authorize(collections=["private"], zone="loopback", authenticated=False, **kw)  # type: ignore[arg-type]
    assert gno.egress_audit_status().status.receipts == 0  # type: ignore[union-attr]
    denied = gno.egress_authorize(collections=["private"], zone="lan", authenticated=True, **kw)  # type: ignore[arg-type]
    assert denied.mode == "denied"
    listed = gno.egress_audit_list().receipts
    assert listed is not None and listed[0].decision == "deny"
    assert listed[0].reason_code == "POLICY_LOCAL_ONLY"


def test_receipts_page_newest_first_delete_and_purge(gno: Gno) -> None:
    clock = gno.handle.clock
    for _ in range(5):
        gno.egress_authorize(
            collections=["private"],
            action="serve",
            zone="remote",
            content_class="source",
            authenticated=True,
            authorized=True,
        )
        clock.advance(1.0)  # type: ignore[attr-defined]
    first = gno.egress_audit_list(limit=2)
    assert first.next_cursor is not None and first.next_cursor.startswith("gno-egress-audit-v1.")
    second = gno.egress_audit_list(limit=10, cursor=first.next_cursor)
    assert second.next_cursor is None
    times = [r.created_at for r in (first.receipts or []) + (second.receipts or [])]
    assert len(times) == 5 and times == sorted(times, reverse=True)
    with pytest.raises(ValidationError):
        gno.egress_audit_list(cursor="gno-change-v1.abc")
    doomed = (first.receipts or [])[0].audit_id
    assert gno.egress_audit_delete(doomed).deleted == 1
    with pytest.raises(NotFoundError):
        gno.egress_audit_delete(doomed)
    with pytest.raises(NotFoundError):
        gno.egress_audit_show(doomed)
    with pytest.raises(ValidationError):
        gno.egress_audit_purge(False)
    assert gno.egress_audit_purge(True).deleted == 4
    status = gno.egress_audit_status().wire()
    assert_valid("egress-audit-management", status)
    assert status["status"]["receipts"] == 0
    assert status["status"]["retention"] == {
        "maxAgeDays": 30,
        "maxReceipts": 10000,
        "maxBytes": 4194304,
    }


def test_lineage_sources_follow_the_current_policy(gno: Gno) -> None:
    share_team(gno)
    sources = {s.collection: (s.policy, s.source) for s in gno.egress_sources()}
    assert sources == {
        "pinned": ("local_only", "config_default"),
        "private": ("local_only", "config_default"),
        "team": ("lan", "explicit"),
    }
    assert gno.egress_sources(["gone"])[0].source == "legacy_default"


def test_a_name_added_again_for_another_folder_does_not_inherit_its_policy(gno: Gno) -> None:
    share_team(gno)
    config = gno.handle.load_config()
    moved = [
        c if c.name != "team" else CollectionConfig(name="team", path="/elsewhere")
        for c in config.collections
    ]
    gno.handle.config.save(GnoConfig(collections=moved))
    state = gno.egress_policy_get("team")
    assert (state.effective_policy, state.source, state.revision) == (
        "local_only",
        "config_default",
        1,
    )
    plan = gno.egress_authorize(
        collections=["team"],
        action="serve",
        zone="lan",
        content_class="source",
        authenticated=True,
        authorized=True,
    )
    assert plan.mode == "denied"
    with pytest.raises(EgressRelaxationConfirmationError):  # the old confirmation stays used
        gno.egress_policy_set("team", "lan", confirm("team", "local_only", 0, "lan"))
    gno.egress_policy_set("team", "lan", confirm("team", "local_only", 1, "lan"))
    assert gno.egress_policy_get("team").revision == 2


def test_the_revision_survives_a_new_process(tmp_path: Path) -> None:
    made = _adapters("apsw", tmp_path, CONFIG)
    with build(made) as first:
        share_team(first)
    with build(made) as second:
        assert second.egress_policy_get("team").revision == 1
        with pytest.raises(EgressRelaxationConfirmationError):  # the confirmation was used
            second.egress_policy_set("team", "remote", confirm("team", "local_only", 0, "remote"))
