"""Port: one all-or-nothing change to several files (a note moved and the notes whose links
name it rewritten), with a recovery journal so that a crash at any point leaves, after the next
``recover``, either every file as it was or every file as planned, never a mix."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["FileChange", "RecoveryReport", "RefactorCommit"]


@dataclass(frozen=True, slots=True)
class FileChange:
    """The file ``rel_path`` under ``root`` goes from the bytes hashing to ``before_sha256``
    (None: no file there) to ``after`` (None: the file is removed)."""

    root: str
    rel_path: str
    before_sha256: str | None
    after: bytes | None


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What ``recover`` did with a journal a crashed commit left: ``rolled_back`` (every file
    as before) or ``completed`` (every file as planned)."""

    journal_id: str
    outcome: str


class RefactorCommit(Protocol):
    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        """Apply every change or none. Before touching anything, every file is checked against
        ``before_sha256``: ``CONFLICT`` (details ``path``) when one differs, with nothing
        touched. A failure after that rolls every file back and raises ``RUNTIME`` (details
        ``code: failed_rolled_back``); when the rollback fails too the journal is kept and the
        error's details say ``code: rollback_recovery_required``. Missing folders of a new file
        are created (and removed again on rollback). Never through a symlink."""
        ...

    def recover(self) -> list[RecoveryReport]:
        """Finish every journal a killed commit left: roll it back unless it had reached its
        committed point (then only its leftovers go). Idempotent; [] when none is left."""
        ...
