"""Egress lineage on results (issue 26): ``gno_recall`` facts and the recall result carry
``egressLineage`` (the memory collection's current policy; absent when no fact came back), and
a Context Capsule's evidence carries its collection's egress classification in ``e[]`` and in
``structuredContent`` (``egressPolicy`` capability, no ``egress_policy_unavailable`` fallback);
a policy change shows in the next answer. Over MCP on the real facade."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.config import CollectionConfig
from gno_core.contracts.egress_requests import RelaxationConfirmationInput
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer
from tests.wire.test_memory_recall import NOTES as FACTS

TEAM = {"plan.md": "# Plan\n\nThe launch plan for the comet telescope ships in March.\n"}


def adapters() -> Adapters:
    """``notes`` (a memory collection holding facts) and ``team`` (ordinary notes)."""
    made = in_memory(FACTS, embedder=False)
    made.tree.mkdir("/team")
    for rel, text in TEAM.items():
        made.tree.write(f"/team/{rel}", text)
    config = made.config.load()
    notes = config.collections[0].model_copy(update={"memory_managed": True})
    team = CollectionConfig(name="team", path="/team")
    made.config.save(config.model_copy(update={"collections": [notes, team]}))
    with build(made) as gno:
        gno.sync()
    return made


def relax(made: Adapters, collection: str, target: str) -> None:
    with build(made) as gno:
        state = gno.egress_policy_get(collection)
        gno.egress_policy_set(
            collection,
            target,
            RelaxationConfirmationInput(
                collection=collection,
                current_policy=state.effective_policy,
                current_revision=state.revision,
                target_policy=target,  # type: ignore[arg-type]
                acknowledged=True,
            ),
        )


def call(peer: Peer, name: str, **arguments: Any) -> dict[str, Any]:
    result: dict[str, Any] = peer.request("tools/call", {"name": name, "arguments": arguments})[
        "result"
    ]
    assert not result.get("isError"), result
    return result


def digest(sources: list[dict[str, str]]) -> str:
    text = json.dumps(sources, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def test_recall_facts_carry_the_egress_lineage() -> None:
    made = adapters()
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    args = {"query": "when is the standup", "collection": "notes", "scopes": ["team", "home"]}
    out = call(peer, "gno_recall", **args)["structuredContent"]
    assert_valid("memory-recall", out)
    sources = [{"collection": "notes", "policy": "local_only", "source": "config_default"}]
    lineage = {"effectivePolicy": "local_only", "digest": digest(sources), "sources": sources}
    assert out["facts"] and all(f["egressLineage"] == lineage for f in out["facts"])
    assert out["egressLineage"] == lineage
    empty = call(peer, "gno_recall", **{**args, "scopes": ["work"]})["structuredContent"]
    assert empty["facts"] == [] and "egressLineage" not in empty

    relax(made, "notes", "lan")
    after = call(peer, "gno_recall", **args)["structuredContent"]
    assert_valid("memory-recall", after)
    assert after["egressLineage"]["effectivePolicy"] == "lan"
    assert after["egressLineage"]["sources"][0]["source"] == "explicit"
    assert after["egressLineage"]["digest"] != lineage["digest"]


def test_capsule_evidence_carries_its_collection_policy() -> None:
    made = adapters()
    relax(made, "team", "remote")
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    result = call(
        peer,
        "gno_context",
        goal="the comet telescope launch plan and the standup",
        budgetTokens=4000,
    )
    capsule = result["structuredContent"]
    assert_valid("context-capsule-v1", capsule)
    by_collection = {e["collection"]: e["egress"] for e in capsule["evidence"]}
    assert by_collection.get("team") == "remote", by_collection
    assert set(by_collection.values()) <= {"local_only", "remote"}
    if "notes" in by_collection:
        assert by_collection["notes"] == "local_only"
    assert capsule["capabilities"]["egressPolicy"] is True
    assert "egress_policy_unavailable" not in {f["code"] for f in capsule["fallbacks"]}
    # The model-visible projection's e[] tuples end with the same classification.
    projection = json.loads(result["content"][0]["text"])
    assert [e[-1] for e in projection["e"]] == [e["egress"] for e in capsule["evidence"]]
