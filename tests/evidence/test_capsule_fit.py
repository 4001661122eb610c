"""Capsules that fit (issue 23): under budget pressure the capsule sheds its own detail before
its evidence and a small budget still carries a passage; selection prefers the section that
answers over a table of contents or a release-note line; a larger budget buys more distinct
evidence, not the same passages."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.bootstrap.local import LazyTokenCounter
from gno_core.contracts.evidence_requests import ContextRequest
from gno_core.evidence.canonical import canonical_bytes
from gno_core.evidence.capsule import capsule_id
from gno_core.evidence.verify import check_capsule
from tests.evidence.support import evidence_adapters, facade

COUNTER = LazyTokenCounter()

#: Many paragraphs on one subject: many candidates, so a long omission audit.
MANY = {
    f"guide/part-{n}.md": (
        f"# Caching part {n}\n\n"
        + "\n\n".join(
            f"Caching retries paragraph {n}.{i}: the cache keeps responses and retries "
            f"failed fetches with backoff, step {i} of the caching guide."
            for i in range(12)
        )
    )
    for n in range(8)
}

#: A contents page that names every word of the goal, the tutorial section that answers it,
#: and a changelog line that names them too.
ANSWERS = {
    "index.md": (
        "# Foam documentation\n\n"
        "- [Daily notes](features/daily-notes.md): daily notes\n"
        "- [Templates](features/templates.md): note templates\n"
        "- [Daily note templates](features/templates.md#daily): daily notes and templates\n"
        "- [Templates for daily notes](features/templates.md): templates, daily notes\n"
        "- [Notes](features/notes.md): notes, daily notes, templates\n"
    ),
    "features/templates.md": (
        "# Templates\n\nTemplates create new notes from a file in the templates folder.\n\n"
        "## Variables\n\nA template may use variables such as the title and the date.\n\n"
        "## Daily Note Templates\n\n"
        "Daily notes use the template `.foam/templates/daily-note.md` when it exists: each "
        "new daily note starts from that template, so the notes of every day share a "
        "layout. Put the sections you want every day in the template file.\n"
    ),
    "release-notes.md": (
        "# Release notes\n\n## 0.19.0\n\n"
        "- Daily notes: templates now apply to daily notes (#1021)\n"
        "- Fix notes templates daily path (#1034)\n"
    ),
}


@pytest.fixture(scope="module")
def many() -> Any:
    return evidence_adapters(MANY)


@pytest.fixture(scope="module")
def answers() -> Any:
    return evidence_adapters(ANSWERS)


def compiled(made: Any, goal: str, budget: int) -> dict[str, Any]:
    with facade(made) as gno:
        capsule: dict[str, Any] = gno.context(
            ContextRequest(goal=goal, budget_tokens=budget)
        ).wire()
    return capsule


def assert_fits(capsule: dict[str, Any], budget: int) -> None:
    body = canonical_bytes(capsule)
    assert capsule["budget"]["usedBytes"] == len(body)
    assert COUNTER.count(body.decode("utf-8")) <= capsule["budget"]["usedTokens"] <= budget
    assert capsule["capsuleId"] == capsule_id(capsule)
    assert check_capsule(capsule, capsule["scope"]["indexName"]) == capsule


def test_a_small_budget_carries_a_passage_and_fits(many: Any) -> None:
    """The old compiler kept eight omission items (about 900 tokens) and refused 2,000
    tokens as smaller than the capsule's own fields; now the audit collapses to counts and
    the best passage is cut to whole lines that fit."""
    capsule = compiled(many, "caching retries backoff", 2000)
    assert len(capsule["evidence"]) >= 1
    assert_fits(capsule, 2000)
    assert capsule["omissions"]["items"] == []
    assert capsule["omissions"]["truncated"] is True
    assert "omissions_truncated" in capsule["warnings"]
    assert capsule["omissions"]["total"] == sum(capsule["omissions"]["reasonCounts"].values())
    assert capsule["truncated"] is True


def test_detail_is_shed_before_evidence() -> None:
    """40 tokens short of what the capsule used: the old compiler dropped a passage and kept
    its eight omission items; now the items go and every passage stays."""
    made = evidence_adapters()
    roomy = compiled(made, "Foam and Obsidian", 4000)
    assert roomy["omissions"]["items"], "the roomy capsule keeps its omission audit"
    tight_budget = roomy["budget"]["usedTokens"] - 40
    tight = compiled(made, "Foam and Obsidian", tight_budget)
    assert_fits(tight, tight_budget)
    # The same passages: the audit went, not the evidence.
    assert [e["evidenceId"] for e in tight["evidence"]] == [
        e["evidenceId"] for e in roomy["evidence"]
    ]
    assert tight["omissions"]["total"] == roomy["omissions"]["total"]
    assert len(tight["omissions"]["items"]) < len(roomy["omissions"]["items"])
    assert tight["omissions"]["truncated"] is True
    assert "omissions_truncated" in tight["warnings"]


def test_the_answering_section_beats_a_contents_page_and_a_changelog(answers: Any) -> None:
    capsule = compiled(answers, "daily notes and templates", 6000)
    assert_fits(capsule, 6000)
    first = capsule["evidence"][0]
    assert first["uri"] == "gno://notes/features/templates.md"
    assert first["heading"] == "Daily Note Templates"
    order = [e["uri"] for e in capsule["evidence"]]
    for other in ("gno://notes/index.md", "gno://notes/release-notes.md"):
        if other in order:
            assert order.index(other) > 0


def test_a_larger_budget_buys_more_distinct_evidence(many: Any) -> None:
    smaller = compiled(many, "caching retries backoff", 4000)
    larger = compiled(many, "caching retries backoff", 12000)
    assert_fits(larger, 12000)
    small_ids = {e["evidenceId"] for e in smaller["evidence"]}
    large_ids = {e["evidenceId"] for e in larger["evidence"]}
    assert small_ids < large_ids
    assert len({e["uri"] for e in larger["evidence"]}) > len(
        {e["uri"] for e in smaller["evidence"]}
    )
    assert larger["budget"]["usedTokens"] > 0.8 * 12000


def test_navigation_and_release_notes_are_recognised() -> None:
    from gno_core.evidence.answering import is_navigation, is_release_notes

    contents = ["- [Daily notes](daily.md)", "- [Templates](templates.md)", "* [[graph-view]]"]
    assert is_navigation(contents)
    assert is_navigation(["See [[a]], [[b]] and [[c]]", "- [[d]]", "- [[e]]"])
    assert not is_navigation(["Daily notes use a template.", "See [templates](t.md) for more."])
    assert is_release_notes("release-notes.md", ("Release notes",))
    assert is_release_notes("docs/notes.md", ("Release notes", "0.19.0"))
    assert is_release_notes("advanced/deps.md", ("Details",), "Before FastAPI 0.106.0, the exit")
    assert not is_release_notes("tutorial/deps.md", ("Dependencies with yield",), "Use yield.")
