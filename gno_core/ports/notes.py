"""Port: writing notes and folders inside a collection root, for capture and folder tools.

Every path is relative to ``root`` (POSIX separators, already validated by the core) and is
never followed through a symlink: a link inside the root that points anywhere is refused, so a
write can never land outside the root, whatever the root's contents are.
"""

from __future__ import annotations

from typing import Protocol

from gno_core.domain import SourceFile


class NoteFiles(Protocol):
    def exists(self, root: str, rel_path: str) -> bool:
        """True when something (file, folder or link) is at ``rel_path``. ``INVALID_PATH`` when a
        folder on the way is a symlink."""
        ...

    def read(self, root: str, rel_path: str, max_bytes: int) -> tuple[SourceFile, bytes]:
        """The file at ``rel_path`` and its bytes. ``NOT_FOUND`` when missing, ``INVALID_PATH``
        through a symlink, ``VALIDATION`` (``code: TOO_LARGE``) above ``max_bytes``."""
        ...

    def create(self, root: str, rel_path: str, data: bytes, *, replace: bool) -> SourceFile:
        """Write ``data`` at ``rel_path``, creating missing folders. Atomic: readers and a
        killed writer leave either no file or the whole one. Without ``replace`` the create is
        exclusive: ``DUPLICATE`` when anything is there by the time of the write, even a file
        that appeared after the caller checked. ``INVALID_PATH`` when a folder on the way or the
        target is a symlink or not a folder; ``PATH_NOT_FOUND`` when ``root`` is missing."""
        ...

    def resolve_folder(self, path: str) -> str:
        """``path`` (absolute or ``~``-expanded) as an absolute folder with links resolved, for a
        new collection root; ``PATH_NOT_FOUND`` when it is not a folder, ``VALIDATION`` when it
        is relative."""
        ...

    def home(self) -> str:
        """The user's home folder, links resolved (the collection-root rules refuse it and its
        hidden folders)."""
        ...

    def make_folder(self, root: str, rel_path: str) -> bool:
        """Create the folder ``rel_path`` (and missing parents); False when it already existed.
        ``INVALID_PATH`` through a symlink or over a file."""
        ...
