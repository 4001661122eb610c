"""Apply reuses the plan its preview made only while every input of that plan answers the same
(``gno_core.refactors.inputs``): any change a new plan would see makes the apply stale."""

from __future__ import annotations

from typing import Any

import pytest

from gno_core.contracts.refactors import RefactorApplyResult, RenameNoteRequest
from gno_core.errors import NotFoundError
from gno_core.refactors.inputs import record
from tests.refactors.test_refactor_plans import NOTES, ROOT, _apply, _files, _gno, _preview

REQUEST = RenameNoteRequest(ref="notes/old.md", name="new")


def _stale(gno: Any, digest: str) -> bool:
    result = gno.rename_note(_apply(REQUEST, digest))
    assert isinstance(result, RefactorApplyResult)
    return bool(result.status == "stale_plan")


def test_the_kept_plan_is_applied_when_nothing_changed() -> None:
    gno, adapters = _gno()
    preview = _preview(gno, REQUEST)
    result = gno.rename_note(_apply(REQUEST, preview.plan_digest))
    assert isinstance(result, RefactorApplyResult) and result.status == "applied"
    assert f"{ROOT}/new.md" in _files(adapters) and f"{ROOT}/old.md" not in _files(adapters)


def test_a_new_linking_note_indexed_after_the_preview_makes_the_apply_stale() -> None:
    gno, adapters = _gno()
    preview = _preview(gno, REQUEST)
    adapters.tree.write(f"{ROOT}/late.md", "late [[old]]\n")  # type: ignore[attr-defined]
    gno.sync()
    assert _stale(gno, preview.plan_digest)
    assert f"{ROOT}/old.md" in _files(adapters)


def test_an_unindexed_edit_of_a_note_the_plan_read_makes_the_apply_stale() -> None:
    gno, adapters = _gno()
    preview = _preview(gno, REQUEST)
    # other.md names the note by title: read by the plan, never written by it.
    adapters.tree.write(f"{ROOT}/other.md", "by title [[Old Note]] edited\n")  # type: ignore[attr-defined]
    assert _stale(gno, preview.plan_digest)
    assert f"{ROOT}/old.md" in _files(adapters)


def test_inputs_answer_again_and_notice_a_changed_answer() -> None:
    gno, adapters = _gno()
    index = gno.handle.index
    documents, links, notes, ledger, inputs = record(
        index.documents, index.links, adapters.notes, index.ledger
    )
    assert links.incoming("notes", "old.md")
    notes.read(ROOT, "other.md", 1 << 20)
    assert documents.get_document("notes", "hub.md") is not None
    assert ledger.failures("notes") == []
    assert [c[1] for c in inputs.calls] == ["incoming", "read", "get_document", "failures"]
    ports = (index.documents, index.links, adapters.notes, index.ledger)
    assert inputs.current(*ports)
    adapters.tree.write(f"{ROOT}/other.md", "changed\n")  # type: ignore[attr-defined]
    assert not inputs.current(*ports)


def test_a_read_that_raised_is_an_answer_too() -> None:
    gno, adapters = _gno()
    index = gno.handle.index
    ports = (index.documents, index.links, adapters.notes, index.ledger)
    _, _, notes, _, inputs = record(*ports)
    with pytest.raises(NotFoundError):
        notes.read(ROOT, "late.md", 1 << 20)
    assert inputs.current(*ports)
    adapters.tree.write(f"{ROOT}/late.md", "late [[old]]\n")  # type: ignore[attr-defined]
    assert not inputs.current(*ports)


def test_an_edit_of_a_note_sync_could_not_index_makes_the_apply_stale() -> None:
    gno, adapters = _gno({**NOTES, "broken.md": "---\ntitle: [x\n---\nno link yet\n"})
    preview = _preview(gno, REQUEST)
    assert not [d for d in preview.affected_documents if d.rel_path == "broken.md"]
    adapters.tree.write(f"{ROOT}/broken.md", "---\ntitle: [x\n---\nnow [[old]]\n")  # type: ignore[attr-defined]
    assert _stale(gno, preview.plan_digest)
    again = _preview(gno, REQUEST)
    assert [d.edits for d in again.affected_documents if d.rel_path == "broken.md"] == [1]
