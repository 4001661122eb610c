"""Port: one all-or-nothing change to several files (a note moved and the notes whose links
name it rewritten), with a recovery journal so that a crash at any point leaves, after the next
``recover``, either every file as it was or every file as planned, never a mix; and never a
byte the plan did not read replaced: a file saved meanwhile is kept as the user saved it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["FileChange", "KeptEdit", "RecoveryReport", "RefactorCommit", "kept_details"]


@dataclass(frozen=True, slots=True)
class FileChange:
    """The file ``rel_path`` under ``root`` goes from the bytes hashing to ``before_sha256``
    (None: no file there) to ``after`` (None: the file is removed)."""

    root: str
    rel_path: str
    before_sha256: str | None
    after: bytes | None


@dataclass(frozen=True, slots=True)
class KeptEdit:
    """A file a rollback found changed since the commit wrote it (the user saved it): kept as
    it is, and the bytes the rollback would have put there left beside it at ``copy_rel_path``
    (``<file>.conflict-<journal id>``; None when there were none: a new file the user edited,
    or a backup identical to a copy already kept)."""

    root: str
    rel_path: str
    copy_rel_path: str | None


def kept_details(kept: list[KeptEdit]) -> dict[str, Any]:
    """The ``kept`` entry of a rolled-back commit's error details (absent when nothing was
    kept): each ``{path, copy}``."""
    if not kept:
        return {}
    return {"kept": [{"path": k.rel_path, "copy": k.copy_rel_path} for k in kept]}


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What ``recover`` did with a journal a crashed commit left: ``rolled_back`` (every file
    as before, except the ``kept`` ones the user changed since) or ``completed`` (every file
    as planned)."""

    journal_id: str
    outcome: str
    kept: tuple[KeptEdit, ...] = ()


class RefactorCommit(Protocol):
    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        """Apply every change or none. Before touching anything, every file is checked against
        ``before_sha256``: ``CONFLICT`` (details ``path``, ``rolledBack: false``) when one
        differs, with nothing touched. Each file is checked again right before it is replaced
        and the bytes replaced are verified after (and all of them once more before the commit
        point): a file saved meanwhile is put back as saved, every other file rolled back and
        ``CONFLICT`` raised (details ``path``, ``rolledBack: true`` and ``kept``: the files
        the rollback left as the user saved them, each ``{path, copy}``). Any other failure
        rolls every file back and raises ``RUNTIME`` (details ``code: failed_rolled_back``);
        when the rollback fails too the journal is kept and the error's details say ``code:
        rollback_recovery_required``. Missing folders of a new file are created (and removed
        again on rollback). Never through a symlink."""
        ...

    def recover(self) -> list[RecoveryReport]:
        """Finish every journal a killed commit left: roll it back unless it had reached its
        committed point (then only its leftovers go). A file changed since the commit wrote it
        is kept and reported (``kept``), the bytes a rollback would have restored left beside
        it. Idempotent; [] when none is left."""
        ...
