"""Rename, move and duplicate through the real ``Gno`` over the in-memory adapters: the plan
(classifications, edit spans, digest, blockers), the bytes written, and the link graph after."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError as PydanticValidationError

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.contracts.refactors import (
    DuplicateNoteRequest,
    MoveNoteRequest,
    RefactorApplyResult,
    RefactorPreview,
    RenameNoteRequest,
)
from gno_core.facade import Gno
from tests.schema_check import assert_valid

ROOT = "/notes"
HUB = (
    "# Hub\n\nSee [[old]] and [[old|the old one]] and [[old#Intro]].\r\n"
    "Also ![[old]] and [md](old.md#x) and [ref][r].\n\n[r]: ./old.md\n"
    "```\n[[old]] in a fence\n```\n"
)
NOTES: dict[str, str | bytes] = {
    "hub.md": HUB,
    "sub/deep.md": "\ufeff# Deep\n\n[up](../old.md) and [[old.md]] and [[sub/deep]]\n",
    "old.md": "---\ntitle: Old Note\n---\n# Old\n\nself [[old]] and [deep](sub/deep.md)\n",
    "other.md": "by title [[Old Note]]\n`[[old]]` in code\n",
}


def _gno(notes: dict[str, str | bytes] | None = None) -> tuple[Gno, Adapters]:
    adapters = in_memory(notes or NOTES)
    gno = build(adapters)
    gno.sync()
    return gno, adapters


def _files(adapters: Adapters) -> dict[str, bytes]:
    tree: Any = adapters.tree
    return {p: tree.read(p, 1 << 30) for p in sorted(tree._files)}


def _apply(request: Any, digest: str) -> Any:
    return request.model_copy(
        update={
            "action": "apply",
            "schema_version": "1.0",
            "plan_digest": digest,
            "confirmation": "apply",
            "confirm": True,
        }
    )


def _preview(gno: Gno, request: RenameNoteRequest | MoveNoteRequest) -> RefactorPreview:
    result = (
        gno.rename_note(request)
        if isinstance(request, RenameNoteRequest)
        else (gno.move_note(request))
    )
    assert isinstance(result, RefactorPreview)
    assert_valid("file-refactor-preview", result.wire())
    return result


def _backlinks(gno: Gno, ref: str) -> list[tuple[str, str, int]]:
    found = gno.backlinks(ref).wire()["backlinks"]
    return sorted(
        (b["sourceDocUri"], b.get("targetAnchor") or "", b["position"]["startLine"]) for b in found
    )


def test_a_rename_rewrites_every_form_in_its_own_style_and_nothing_else() -> None:
    gno, adapters = _gno()
    before_links = _backlinks(gno, "notes/old.md")
    request = RenameNoteRequest(ref="notes/old.md", name="new")
    preview = _preview(gno, request)
    assert preview.can_apply and preview.safety.blockers == []
    assert preview.target.rel_path == "new.md"
    result = gno.rename_note(_apply(request, preview.plan_digest))
    assert isinstance(result, RefactorApplyResult)
    assert_valid("file-refactor-apply-result", result.wire())
    assert (result.status, result.filesystem.state, result.index_convergence.state) == (
        "applied",
        "committed",
        "converged",
    )
    files = _files(adapters)
    assert f"{ROOT}/old.md" not in files
    assert (
        files[f"{ROOT}/hub.md"]
        == HUB.replace("[[old", "[[new", 4)
        .replace("](old.md", "](new.md")
        .replace("./old.md", "./new.md")
        .encode()
    )
    assert b"[[old]] in a fence" in files[f"{ROOT}/hub.md"]  # code is never rewritten
    assert files[f"{ROOT}/sub/deep.md"] == (
        "\ufeff# Deep\n\n[up](../new.md) and [[new.md]] and [[sub/deep]]\n".encode()
    )
    assert files[f"{ROOT}/new.md"].endswith(b"self [[new]] and [deep](sub/deep.md)\n")
    assert files[f"{ROOT}/other.md"] == NOTES["other.md"].encode()  # by title: unchanged
    after_links = _backlinks(gno, "notes/new.md")
    assert [(a, b) for a, b, _ in after_links] == [
        (a.replace("old.md", "new.md"), b) for a, b, _ in before_links
    ]


def test_the_digest_is_the_same_for_the_same_files_and_changes_with_any_of_them() -> None:
    gno, adapters = _gno()
    request = RenameNoteRequest(ref="notes/old.md", name="new")
    first, second = _preview(gno, request), _preview(gno, request)
    assert first.plan_digest == second.plan_digest
    assert first.wire() == second.wire()
    other, _ = _gno()
    assert _preview(other, request).plan_digest == first.plan_digest
    adapters.tree.write(f"{ROOT}/other.md", "by title [[Old Note]] edited\n")  # type: ignore[attr-defined]
    assert _preview(gno, request).plan_digest != first.plan_digest


def test_apply_refuses_a_wrong_or_stale_digest_before_touching_anything() -> None:
    gno, adapters = _gno()
    request = RenameNoteRequest(ref="notes/old.md", name="new")
    preview = _preview(gno, request)
    untouched = _files(adapters)
    wrong = gno.rename_note(_apply(request, "0" * 64))
    assert isinstance(wrong, RefactorApplyResult)
    assert (wrong.status, wrong.reason_code, wrong.filesystem.state) == (
        "stale_plan",
        "stale_plan",
        "unchanged",
    )
    assert _files(adapters) == untouched
    adapters.tree.write(f"{ROOT}/hub.md", HUB + "one more line\n")  # type: ignore[attr-defined]
    gno.sync()
    stale = gno.rename_note(_apply(request, preview.plan_digest))
    assert isinstance(stale, RefactorApplyResult) and stale.status == "stale_plan"
    assert f"{ROOT}/old.md" in _files(adapters)


def test_apply_without_every_confirmation_is_refused_by_the_request() -> None:
    with pytest.raises(PydanticValidationError):
        RenameNoteRequest(ref="notes/old.md", name="x", action="apply", plan_digest="a" * 64)
    with pytest.raises(PydanticValidationError):
        RenameNoteRequest.model_validate(
            {
                "action": "apply",
                "ref": "notes/old.md",
                "name": "x",
                "schemaVersion": "1.0",
                "planDigest": "a" * 64,
                "confirmation": "apply",
                "confirm": False,
            }
        )
    with pytest.raises(PydanticValidationError):
        RenameNoteRequest(ref="notes/old.md", name="x", plan_digest="a" * 64)


def test_a_move_recalculates_the_moved_notes_relative_links() -> None:
    gno, adapters = _gno()
    request = MoveNoteRequest(ref="notes/old.md", folder_path="sub")
    preview = _preview(gno, request)
    reasons = {r.reason_code for r in preview.examined_references}
    assert "relative_path_recalculated" in reasons and "reference_definition_site" in reasons
    result = gno.move_note(_apply(request, preview.plan_digest))
    assert isinstance(result, RefactorApplyResult) and result.status == "applied"
    files = _files(adapters)
    assert files[f"{ROOT}/sub/old.md"].endswith(b"self [[old]] and [deep](deep.md)\n")
    assert b"[up](old.md)" in files[f"{ROOT}/sub/deep.md"]
    assert b"[md](sub/old.md#x)" in files[f"{ROOT}/hub.md"]


@pytest.mark.parametrize(
    ("notes", "request_", "blocker"),
    [
        (
            {**NOTES, "new.md": "taken\n"},
            RenameNoteRequest(ref="notes/old.md", name="new"),
            "occupied_target",
        ),
        (
            {**NOTES, "elsewhere/new.md": "x\n"},
            RenameNoteRequest(ref="notes/old.md", name="new"),
            "duplicate_basename_ambiguity",
        ),
        (
            {"a/x.md": "one\n", "b/x.md": "two\n", "l.md": "[[x]]\n"},
            RenameNoteRequest(ref="notes/a/x.md", name="y"),
            "ambiguous_resolution",
        ),
        (NOTES, RenameNoteRequest(ref="notes/old.md", name="old"), "destination_unchanged"),
        (
            NOTES,
            MoveNoteRequest(ref="notes/old.md", folder_path="gno://other/x"),
            "cross_collection_unsupported",
        ),
    ],
)
def test_unsafe_plans_are_blocked_and_apply_answers_unsupported(
    notes: dict[str, str | bytes], request_: Any, blocker: str
) -> None:
    gno, adapters = _gno(notes)
    preview = _preview(gno, request_)
    assert not preview.can_apply and blocker in preview.safety.blockers
    untouched = _files(adapters)
    apply = gno.rename_note if isinstance(request_, RenameNoteRequest) else gno.move_note
    result = apply(_apply(request_, preview.plan_digest))
    assert isinstance(result, RefactorApplyResult)
    assert (result.status, result.filesystem.state) == ("unsupported", "unchanged")
    assert _files(adapters) == untouched


def test_a_duplicate_adds_a_copy_and_changes_no_other_file() -> None:
    gno, adapters = _gno()
    untouched = _files(adapters)
    result = gno.duplicate_note(DuplicateNoteRequest(ref="notes/sub/deep.md", folder_path=""))
    assert_valid("file-refactor-apply-result", result.wire())
    assert result.status == "applied" and result.target.rel_path == "deep-copy.md"
    files = _files(adapters)
    assert files[f"{ROOT}/deep-copy.md"] == (
        "\ufeff# Deep\n\n[up](old.md) and [[old.md]] and [[deep-copy]]\n".encode()
    )
    assert {k: v for k, v in files.items() if k != f"{ROOT}/deep-copy.md"} == untouched
    assert gno.get("notes/deep-copy.md").wire()["uri"] == "gno://notes/deep-copy.md"


DEFINITIONS: dict[str, str | bytes] = {
    "a/target.md": "# T\n\n[up]: ../hub.md 'Up'\n[self]: <target.md#top> \"Me\"\n",
    "hub.md": "# Hub\n\nJust [[target]].\n\n[target]: a/target.md 'Target'\n",
    "b/user.md": "# User\n\nUse [it][T] and [t].\n\n[t]: ../a/target.md#x (Title)\n",
}


def test_a_move_rewrites_each_definitions_destination_and_never_a_use() -> None:
    """Issue 22: 2. A definition no text uses (Foam's, under a wiki link) is rewritten; a used
    one once, its uses' lines untouched; the moved note's own definitions are recalculated
    from its new folder; titles, anchors and angle brackets kept."""
    gno, adapters = _gno(DEFINITIONS)
    before = _backlinks(gno, "notes/a/target.md")
    assert before == [
        ("gno://notes/a/target.md", "top", 4),
        ("gno://notes/b/user.md", "x", 3),
        ("gno://notes/b/user.md", "x", 3),
        ("gno://notes/b/user.md", "x", 5),
        ("gno://notes/hub.md", "", 3),
        ("gno://notes/hub.md", "", 5),
    ]
    request = MoveNoteRequest(ref="notes/a/target.md", folder_path="c/d")
    preview = _preview(gno, request)
    assert preview.can_apply, preview.safety.blockers
    result = gno.move_note(_apply(request, preview.plan_digest))
    assert isinstance(result, RefactorApplyResult) and result.status == "applied"
    files = _files(adapters)
    assert (
        files[f"{ROOT}/hub.md"]
        == b"# Hub\n\nJust [[target]].\n\n[target]: c/d/target.md 'Target'\n"
    )
    assert files[f"{ROOT}/b/user.md"] == (
        b"# User\n\nUse [it][T] and [t].\n\n[t]: ../c/d/target.md#x (Title)\n"
    )
    assert files[f"{ROOT}/c/d/target.md"] == (
        b"# T\n\n[up]: ../../hub.md 'Up'\n[self]: <target.md#top> \"Me\"\n"
    )
    after = _backlinks(gno, "notes/c/d/target.md")
    assert after == sorted((a.replace("a/target", "c/d/target"), b, n) for a, b, n in before)
    assert len(_backlinks(gno, "notes/hub.md")) == 1
