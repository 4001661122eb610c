"""The issue 23 capsule reproductions on the real Foam docs (``../shared/data/foam-docs``,
read into an in-memory index, never copied): the section that answers comes first, no table
of contents is taken, and a larger budget buys more distinct evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_core.contracts.evidence_requests import ContextRequest
from gno_core.evidence.answering import is_navigation


@pytest.fixture(scope="module")
def foam() -> object:
    root = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "foam-docs"
    if not root.is_dir():
        pytest.skip(f"shared corpora not found at {root}")
    notes = {p.relative_to(root).as_posix(): p.read_text("utf-8") for p in root.rglob("*.md")}
    made = in_memory(notes)
    with build(made) as gno:
        gno.sync()
    return made


def test_daily_notes_and_templates_picks_the_answering_sections(foam: object) -> None:
    with build(foam) as gno:  # type: ignore[arg-type]
        small = gno.context(ContextRequest(goal="daily notes and templates", budget_tokens=4000))
        large = gno.context(ContextRequest(goal="daily notes and templates", budget_tokens=12000))
    evidence = small.wire()["evidence"]
    first = evidence[0]
    assert (first["uri"], first.get("heading")) == (
        "gno://notes/user/features/daily-notes.md",
        "Daily Note Templates",
    )
    assert not any(is_navigation(e["text"].split("\n")) for e in evidence)
    assert "gno://notes/user/features/templates.md" in {e["uri"] for e in evidence}
    many = large.wire()["evidence"]
    assert {e["evidenceId"] for e in evidence} < {e["evidenceId"] for e in many}
    assert len({e["uri"] for e in many}) > len({e["uri"] for e in evidence})
