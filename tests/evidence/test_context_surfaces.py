"""``gno_context`` / ``gno_context_verify`` over MCP in both protocol eras, REST-free CLI runs
over a real SQLite index: compile, edit one source note, verify, and see exactly that evidence
as stale; edited and foreign capsules are refused before any read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import build
from gno_core.evidence.canonical import canonical_bytes
from tests.evidence.support import evidence_adapters
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer


def peer_over(made: Any) -> Peer:
    return Peer(facade=lambda: build(made))


def call(peer: Peer, era: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    if era == "modern":
        response = peer.modern("tools/call", params)
    else:
        response = peer.request("tools/call", params)
    result: dict[str, Any] = response["result"]
    return result


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_compile_edit_verify_shows_exactly_the_edited_evidence_stale(era: str) -> None:
    made = evidence_adapters()
    peer = peer_over(made)
    if era == "legacy":
        peer.initialize()
    result = call(
        peer, era, "gno_context", {"goal": "Compare Foam vs Obsidian", "budgetTokens": 4000}
    )
    assert not result.get("isError")
    capsule = result["structuredContent"]
    assert_valid("context-capsule-v1", capsule)
    projection = json.loads(result["content"][0]["text"])
    assert projection["v"] == "gno-context-agent-v1" and projection["id"] == capsule["capsuleId"]
    foam = [e for e in capsule["evidence"] if e["uri"].endswith("/foam.md")]
    assert foam and len(capsule["evidence"]) > len(foam)

    fresh = call(peer, era, "gno_context_verify", {"capsule": capsule})["structuredContent"]
    assert_valid("context-capsule-verification", fresh)
    assert fresh["status"] == "fresh" and fresh["fingerprintStatus"] == "unchanged"

    made.tree.write("/notes/foam.md", "# Foam\n\nFoam was rewritten entirely.\n")
    with build(made) as gno:
        gno.sync()
    stale = call(peer, era, "gno_context_verify", {"capsule": capsule})["structuredContent"]
    assert stale["status"] == "stale"
    changed = {e["evidenceId"] for e in stale["evidence"] if e["contentStatus"] != "unchanged"}
    assert changed == {e["evidenceId"] for e in foam}
    assert stale["fingerprintStatus"] == "drifted"
    assert "index" in {d["name"] for d in stale["drift"]}


def test_edits_above_a_passage_report_where_it_moved() -> None:
    made = evidence_adapters()
    with build(made) as gno:
        from gno_core.contracts.evidence_requests import ContextRequest

        capsule = gno.context(
            ContextRequest(goal="Alice launch decision", budget_tokens=3000)
        ).wire()
        made.tree.write(
            "/notes/launch.md",
            "A new first paragraph.\n\n# Launch decision\n\nAlice owns the launch decision for "
            "2026.\n\nThe launch happens in March after the review by Bob.\n",
        )
        gno.sync()
        receipt = gno.context_verify(capsule).wire()
    moved = [e for e in receipt["evidence"] if e["reason"] == "passage_moved"]
    assert moved and all(e["currentStartLine"] > e["startLine"] for e in moved)


def test_tampered_and_foreign_capsules_are_refused_before_reads() -> None:
    made = evidence_adapters()
    peer = peer_over(made)
    peer.initialize()
    capsule = call(peer, "legacy", "gno_context", {"goal": "foam", "budgetTokens": 3000})[
        "structuredContent"
    ]
    tampered = json.loads(canonical_bytes(capsule))
    tampered["evidence"][0]["text"] += " (edited)"
    result = call(peer, "legacy", "gno_context_verify", {"capsule": tampered})
    assert result["isError"] is True
    assert (
        "does not match" in result["content"][0]["text"] or "hash" in result["content"][0]["text"]
    )
    other = json.loads(canonical_bytes(capsule))
    other["scope"]["indexName"] = "elsewhere"
    from gno_core.evidence.capsule import capsule_id

    other["capsuleId"] = capsule_id(other)
    result = call(peer, "legacy", "gno_context_verify", {"capsule": other})
    assert result["isError"] is True and "elsewhere" in result["content"][0]["text"]
    result = call(peer, "legacy", "gno_context_verify", {"capsule": {"schemaVersion": "1.0"}})
    assert result["isError"] is True


def test_context_tool_input_is_closed() -> None:
    peer = peer_over(evidence_adapters())
    peer.initialize()
    result = call(peer, "legacy", "gno_context", {"goal": "foam", "budgetTokens": 10, "bogus": 1})
    assert result["isError"] is True


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_cli_context_and_verify_over_sqlite(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nalpha beta gamma\n\n## More\n\ndelta alpha\n", "utf-8")
    (notes / "b.md").write_text("# B\n\nbeta only here\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    saved = tmp_path / "capsule.json"
    first = cli.ok("context", "alpha", "and", "beta", "--budget", "3000", "--json").json()
    cli.ok("context", "alpha", "and", "beta", "--budget", "3000", "--output", str(saved))
    assert json.loads(saved.read_text("utf-8")) == first
    assert_valid("context-capsule-v1", first)
    assert first["budget"]["estimator"] == "active_tokenizer"
    md = cli.ok("context", "alpha", "and", "beta", "--budget", "3000", "--format", "md").out
    assert md.startswith("# Context Capsule ") and "```text" in md
    fresh = cli.ok("context", "verify", str(saved), "--json").json()
    assert fresh["status"] == "fresh"
    (notes / "a.md").write_text("# A\n\nsomething else now\n", encoding="utf-8")
    cli.ok("update")
    stale = cli.ok("context", "verify", str(saved))
    assert "stale" in stale.out and "a.md" in stale.out
    missing_budget = cli("context", "alpha")
    assert missing_budget.code == 1 and "--budget" in missing_budget.err


def test_ranking_is_rerun_only_when_something_drifted() -> None:
    from gno_adapters.bootstrap import in_memory
    from gno_core.contracts.evidence_requests import ContextRequest
    from tests.evidence.support import NOTES

    made = in_memory(NOTES)
    with build(made) as gno:
        gno.sync()
        capsule = gno.context(ContextRequest(goal="Foam vs Obsidian", budget_tokens=4000)).wire()
        assert capsule["retrieval"]["mode"] == "bm25_only"
        same = gno.context_verify(capsule).wire()
        assert same["rankingReason"] == "index, config and models are unchanged"
        gno.embed()
        after = gno.context_verify(capsule).wire()
    assert [d["name"] for d in after["drift"]] == ["embeddingModel"]
    assert after["rankingReason"] != same["rankingReason"]
    assert after["status"] == "fresh" and after["fingerprintStatus"] == "drifted"
