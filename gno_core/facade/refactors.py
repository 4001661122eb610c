"""Facade operations of the refactors room: rename, move and duplicate a note, every link to
it rewritten in one all-or-nothing step (``gno_core.refactors``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts.refactors import (
        DuplicateNoteRequest,
        MoveNoteRequest,
        RefactorApplyResult,
        RefactorPreview,
        RenameNoteRequest,
    )

__all__ = ["RefactorCalls"]


class RefactorCalls(FacadeBase):
    def rename_note(self, request: RenameNoteRequest) -> RefactorPreview | RefactorApplyResult:
        """Preview (``action: preview``) or apply a rename in the note's folder."""
        return self.refactors.run("rename", request)

    def move_note(self, request: MoveNoteRequest) -> RefactorPreview | RefactorApplyResult:
        """Preview or apply a move to another folder of the same collection."""
        return self.refactors.run("move", request)

    def duplicate_note(self, request: DuplicateNoteRequest) -> RefactorApplyResult:
        """A copy of the note (its relative links recalculated), planned and applied at once."""
        return self.refactors.duplicate(request)
