"""Capsule compilation: the budget holds for the complete canonical payload, reruns are
byte-identical, facets and selection behave as documented, and the Markdown projection's
fences cannot be closed by the evidence they quote."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gno_adapters.bootstrap.lazy import LazyTokenCounter
from gno_core.contracts.evidence_requests import ContextRequest
from gno_core.evidence.canonical import canonical_bytes
from gno_core.evidence.capsule import ContextError, capsule_id
from gno_core.evidence.facets import derive_facets
from gno_core.evidence.projection import compact, fence_for, markdown
from tests.evidence.support import evidence_adapters, facade

WORDS = (
    "foam obsidian launch decision alice bob march caching retries notes links graph plugins "
    "dataview markdown editor vault review owner tool wikilinks backlinks deep paragraph the of "
    'compare vs and "quoted words" 2026 Obsidian Foam Alice'
).split()
COUNTER = LazyTokenCounter()


@pytest.fixture(scope="module")
def made() -> Any:
    return evidence_adapters()


def compile_bytes(gno: Any, **fields: Any) -> bytes:
    return canonical_bytes(gno.context(ContextRequest(**fields)).wire())


@settings(
    # 1000 in the default suite (about 30 s on 2 shared cores); GNO_CAPSULE_EXAMPLES=5000 for
    # a longer run.
    max_examples=int(os.environ.get("GNO_CAPSULE_EXAMPLES", "1000")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
@given(
    goal=st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join),
    budget=st.integers(min_value=1, max_value=20_000),
    byte_factor=st.sampled_from([None, 1, 2, 3]),
    fast=st.booleans(),
)
def test_budget_never_exceeded_and_reruns_are_identical(
    made: Any, goal: str, budget: int, byte_factor: int | None, fast: bool
) -> None:
    fields: dict[str, Any] = {
        "goal": goal,
        "budget_tokens": budget,
        "depth_policy": "fast" if fast else "balanced",
    }
    if byte_factor is not None:
        fields["budget_bytes"] = budget * byte_factor
    with facade(made) as gno:
        try:
            first = compile_bytes(gno, **fields)
        except ContextError as exc:
            assert exc.reason in ("invalid_budget", "invalid_goal")
            return
        second = compile_bytes(gno, **fields)
    assert first == second
    capsule = json.loads(first)
    used = capsule["budget"]
    assert used["usedBytes"] == len(first)
    assert used["usedBytes"] <= used["requestedBytes"]
    assert COUNTER.count(first.decode("utf-8")) <= used["usedTokens"] <= budget
    assert capsule["capsuleId"] == capsule_id(capsule)


def test_identical_bytes_from_two_separately_built_indexes() -> None:
    one, two = evidence_adapters(), evidence_adapters()
    with facade(one) as a, facade(two) as b:
        fields = {"goal": "Compare Foam vs Obsidian", "budget_tokens": 3000}
        assert compile_bytes(a, **fields) == compile_bytes(b, **fields)


def test_comparison_covers_both_sides(made: Any) -> None:
    with facade(made) as gno:
        capsule = gno.context(
            ContextRequest(goal="Compare Foam vs Obsidian", budget_tokens=4000)
        ).wire()
    assert capsule["retrieval"]["facets"] == ["foam", "obsidian"]
    assert capsule["coverage"]["complete"] is True
    uris = {e["uri"] for e in capsule["evidence"]}
    assert uris == {"gno://notes/foam.md", "gno://notes/obsidian.md"}
    for item in capsule["evidence"]:
        assert item["trust"] == "untrusted_data"
        mirror_lines = item["text"].split("\n")
        assert len(mirror_lines) == item["endLine"] - item["startLine"] + 1
    assert capsule["guidance"]["evidenceTrust"] == "untrusted_data"


def test_small_budget_reports_the_gap_and_the_omission(made: Any) -> None:
    with facade(made) as gno:
        roomy = gno.context(ContextRequest(goal="Foam and Obsidian", budget_tokens=4000)).wire()
        # Shedding the omission items and the passages' descriptive fields does not reach
        # this far: passages have to go.
        floor = roomy["budget"]["usedTokens"] - 1800
        tight = gno.context(ContextRequest(goal="Foam and Obsidian", budget_tokens=floor)).wire()
    assert len(tight["evidence"]) < len(roomy["evidence"])
    assert tight["truncated"] is True
    assert tight["omissions"]["reasonCounts"].get("global_budget", 0) >= 1
    assert any(g["code"] == "global_budget_exhausted" for g in tight["coverage"]["gaps"])
    assert "incomplete_coverage" in tight["warnings"]


def test_a_budget_below_the_envelope_is_invalid_budget(made: Any) -> None:
    with facade(made) as gno, pytest.raises(ContextError) as caught:
        gno.context(ContextRequest(goal="foam", budget_tokens=50))
    assert caught.value.reason == "invalid_budget"
    assert caught.value.code == "VALIDATION"
    # The refusal says what the capsule's own fields need, everything optional shed: that
    # budget compiles.
    minimum = caught.value.details["minimumTokens"]
    assert minimum > 50
    with facade(made) as gno:
        capsule = gno.context(ContextRequest(goal="foam", budget_tokens=minimum)).wire()
    assert capsule["budget"]["usedTokens"] <= minimum


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"collections": ["nope"]}, "invalid_filter"),
        ({"uri_prefix": "/etc/"}, "invalid_uri"),
        ({"safety_margin_tokens": 5000}, "invalid_budget"),
        ({"goal": "the of and"}, "invalid_goal"),
    ],
)
def test_context_errors_have_stable_reasons(made: Any, fields: dict[str, Any], reason: str) -> None:
    with facade(made) as gno, pytest.raises(ContextError) as caught:
        gno.context(ContextRequest(**{"goal": "foam", "budget_tokens": 5000, **fields}))
    assert caught.value.reason == reason


def test_uri_prefix_scopes_the_evidence(made: Any) -> None:
    with facade(made) as gno:
        capsule = gno.context(
            ContextRequest(goal="notes", budget_tokens=6000, uri_prefix="gno://notes/foam")
        ).wire()
    assert {e["uri"] for e in capsule["evidence"]} == {"gno://notes/foam.md"}
    assert capsule["omissions"]["reasonCounts"].get("filtered_by_scope", 0) >= 1


def test_one_document_cannot_fill_the_capsule_when_others_compete(made: Any) -> None:
    with facade(made) as gno:
        capsule = gno.context(
            ContextRequest(goal="paragraph caching retries foam", budget_tokens=3000)
        ).wire()
    spend = capsule["budget"]["requestedBytes"]
    per_doc: dict[str, int] = {}
    for e in capsule["evidence"]:
        per_doc[e["uri"]] = per_doc.get(e["uri"], 0) + len(canonical_bytes(e))
    assert all(size <= spend * 3 // 5 for size in per_doc.values())


def test_facets_from_goal_structure() -> None:
    assert derive_facets("Compare Foam and Obsidian") == ("foam", "obsidian")
    assert derive_facets('What did "launch review" decide in March 2026?') == (
        "launch review",
        "march 2026",
        "decide",
    )
    assert derive_facets("Who owns the launch decision? Ask Alice Smith") == (
        "alice smith",
        "owns",
        "launch",
        "decision",
    )
    assert derive_facets("Compare Foam vs Obsidian") == ("foam", "obsidian")
    assert derive_facets("dependency injection scopes") == ("dependency", "injection", "scopes")


def test_markdown_fences_outlast_the_quoted_evidence(made: Any) -> None:
    assert fence_for("no ticks") == "```"
    assert fence_for("a ```` b") == "`````"
    with facade(made) as gno:
        capsule = gno.context(ContextRequest(goal="obsidian plugins", budget_tokens=4000)).wire()
    text = markdown(capsule)
    quoted = [e for e in capsule["evidence"] if "```" in e["text"]]
    assert quoted, "the corpus has a passage with a backtick fence"
    for e in quoted:
        fence = fence_for(e["text"])
        assert len(fence) > 3
        assert f"{fence}text\n{e['text']}\n{fence}" in text


def test_compact_projection_keeps_every_passage_and_count(made: Any) -> None:
    with facade(made) as gno:
        capsule = gno.context(ContextRequest(goal="Foam vs Obsidian", budget_tokens=4000)).wire()
    projection = json.loads(compact(capsule))
    assert projection["v"] == "gno-context-agent-v1"
    assert projection["id"] == capsule["capsuleId"]
    assert projection["b"][:4] == [
        capsule["budget"][k]
        for k in ("requestedTokens", "requestedBytes", "usedTokens", "usedBytes")
    ]
    assert [e[6] for e in projection["e"]] == [e["text"] for e in capsule["evidence"]]
    assert projection["o"][0] == capsule["omissions"]["total"]
    assert projection["g"][:2] == ["untrusted_data", "hard_delimited"]
    assert projection["trust"] == "untrusted_data"
    assert len(compact(capsule).encode()) < len(canonical_bytes(capsule))


def test_without_a_tokenizer_the_byte_estimate_is_said_as_such() -> None:
    from dataclasses import replace

    made = replace(evidence_adapters(), token_counter=None)
    with facade(made) as gno:
        capsule = gno.context(ContextRequest(goal="foam", budget_tokens=8000)).wire()
    assert capsule["budget"]["estimator"] == "unicode_conservative"
    assert "tokenizerFingerprint" not in capsule["budget"]
    assert {"code": "tokenizer_unavailable", "capability": "exactTokenCount"} in capsule[
        "fallbacks"
    ]
    assert "token_estimate_used" in capsule["warnings"]
    assert capsule["budget"]["usedTokens"] >= capsule["budget"]["usedBytes"]
