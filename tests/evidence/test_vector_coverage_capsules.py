"""Issue 22, failure 6, for capsules and Ask: a capsule compiled while part of its scope has no
vectors says so with the ``embedding_coverage_incomplete`` warning (the capsule contract is
closed: the share is said by the text renderings beside it: CLI stderr, a second MCP text block,
the Ask text); a fully embedded scope gives the capsule it always gave."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gno_adapters.bootstrap import Adapters, build
from gno_adapters.generation.extractive import ExtractiveGenerator
from gno_core.contracts.evidence_requests import AskRequest, ContextRequest
from gno_core.evidence.projection import markdown
from tests.evidence.support import evidence_adapters
from tests.schema_check import assert_valid
from tests.wire.test_mcp_semantic import RealPeer

GOAL = "Who owns the launch decision?"
SHARE = "of the chunks of the index have vectors"


def degraded() -> Adapters:
    """The evidence corpus embedded, then 30 notes synced without embedding."""
    made = replace(evidence_adapters(), generator=ExtractiveGenerator())
    for i in range(30):
        made.tree.write(f"/notes/extra{i}.md", f"# Extra {i}\n\nUnrelated filler {i}.\n")  # type: ignore[attr-defined]
    with build(made) as gno:
        gno.sync()
    return made


def context(made: Adapters) -> dict[str, Any]:
    with build(made) as gno:
        capsule: dict[str, Any] = gno.context(ContextRequest(goal=GOAL, budget_tokens=6000)).wire()
    assert_valid("context-capsule-v1", capsule)
    return capsule


def test_a_capsule_over_a_partly_embedded_scope_warns() -> None:
    made = degraded()
    capsule = context(made)
    assert "embedding_coverage_incomplete" in capsule["warnings"]
    assert capsule["capabilities"]["semanticSearch"] is True  # used, over the embedded part
    assert "Warning: embedding_coverage_incomplete" in markdown(capsule)
    with build(made) as gno:
        result = gno.ask(AskRequest(query=GOAL, verify=True)).wire()
    assert_valid("ask", result)
    assert "embedding_coverage_incomplete" in result["verification"]["capsule"]["warnings"]


def test_mcp_context_and_ask_say_the_share() -> None:
    made = degraded()
    with build(made) as gno:
        peer = RealPeer(gno)
        ctx = peer.call("gno_context", goal=GOAL, budgetTokens=6000)
        assert len(ctx["content"]) == 2 and SHARE in ctx["content"][1]["text"]
        assert "embedding_coverage_incomplete" in ctx["structuredContent"]["warnings"]
        ask = peer.call("gno_ask", query=GOAL, verify=True)
        assert SHARE in ask["content"][0]["text"]


def test_a_fully_embedded_scope_gives_the_same_capsule_as_before() -> None:
    made = degraded()
    with build(made) as gno:
        gno.embed()
    capsule = context(made)
    assert "embedding_coverage_incomplete" not in capsule["warnings"]
    assert "Warning:" not in markdown(capsule)
    with build(made) as gno:
        peer = RealPeer(gno)
        ctx = peer.call("gno_context", goal=GOAL, budgetTokens=6000)
        assert len(ctx["content"]) == 1
        assert "Note:" not in peer.call("gno_ask", query=GOAL, verify=True)["content"][0]["text"]
