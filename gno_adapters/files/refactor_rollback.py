"""The rollback of a ``JournaledCommit`` journal (after a conflict, a failure, or a killed
process), deciding each file by what is on disk now against the hashes the journal wrote:

- a file still holding the bytes the commit wrote gets its backup back, through an exchange
  verified like the commit's own (a save landing in between is put back and wins);
- a file holding anything else (the user saved it since) is kept, and its backup is left
  beside it as ``<file>.conflict-<journal id>`` (a ``KeptEdit``);
- a temporary file whose bytes are the staged ones was never applied and goes; one holding
  other bytes (a save an exchange displaced when the process died) is kept as a conflict copy
  too. Nothing is removed whose bytes are not also somewhere else."""

from __future__ import annotations

import contextlib
import hashlib
import os
import posixpath
from typing import Any

from gno_adapters.files.notes import _segments, _walk_to
from gno_adapters.files.swap import exchange
from gno_core.ports.refactors import KeptEdit

__all__ = ["Folders", "keep_aside", "rollback", "sha_at"]


def sha_at(folder: int, name: str) -> str | None:
    """The SHA-256 of the file ``name`` in ``folder``, None when there is none."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
    except FileNotFoundError:
        return None
    digest = hashlib.sha256()
    try:
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest()


class Folders:
    """Descriptors of the folders one commit touches, each walked (``O_NOFOLLOW``) once: a
    rename of a note with 2,000 referrers opens a handful of folders, not 2,000 paths."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._open: dict[tuple[str, tuple[str, ...]], int] = {}

    def get(self, root: str, rel_path: str, *, create: bool = False) -> tuple[int, str]:
        *folders, name = _segments(rel_path)
        key = (root, tuple(folders))
        if key not in self._open:
            self._open[key] = self._stack.enter_context(
                _walk_to(root, folders, rel_path, create=create)
            )
        return self._open[key], name

    def sync(self) -> None:
        for fd in self._open.values():
            os.fsync(fd)

    def close(self) -> None:
        self._stack.close()
        self._open.clear()


def keep_aside(folder: int, entry: dict[str, Any], journal_id: str, leftover: str) -> KeptEdit:
    """Rename ``leftover`` to a free ``<file>.conflict-<journal id>[-n]`` beside the file of
    ``entry`` (never over anything), and say so."""
    name = posixpath.basename(entry["relPath"])
    n = 1
    while True:
        copy = f"{name}.conflict-{journal_id}" + ("" if n == 1 else f"-{n}")
        try:
            os.link(leftover, copy, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
        except FileExistsError:
            n += 1
            continue
        os.unlink(leftover, dir_fd=folder)
        folder_path = posixpath.dirname(entry["relPath"])
        return KeptEdit(entry["root"], entry["relPath"], posixpath.join(folder_path, copy))


def rollback(journal: dict[str, Any]) -> list[KeptEdit]:
    """Put every file of ``journal`` back as it was, except the ones changed since the commit
    wrote them (returned); then remove the folders the commit created (when empty). Each
    folder is walked once and fsynced once, at the end."""
    kept: list[KeptEdit] = []
    folders = Folders()
    try:
        for entry in reversed(journal["changes"]):
            try:
                folder, name = folders.get(entry["root"], entry["relPath"])
            except FileNotFoundError:
                continue  # a folder on the way is gone: nothing of this entry is there
            if entry["before"] is None:
                kept += _undo_new(folder, name, entry, journal["id"])
            elif entry["after"] is None:
                kept += _undo_removal(folder, name, entry, journal["id"])
            else:
                kept += _undo_replace(folder, name, entry, journal["id"])
        folders.sync()
    finally:
        folders.close()
    for path in reversed(journal["createdFolders"]):
        with contextlib.suppress(OSError):
            os.rmdir(path)
    return kept


def _unlink(folder: int, name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=folder)


def _same_file(folder: int, first: str, second: str) -> bool:
    try:
        a = os.stat(first, dir_fd=folder, follow_symlinks=False)
        b = os.stat(second, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _undo_new(folder: int, name: str, entry: dict[str, Any], journal_id: str) -> list[KeptEdit]:
    temp, after = entry["temp"], entry["after"]
    if sha_at(folder, temp) == after and not _same_file(folder, temp, name):
        _unlink(folder, temp)  # never linked in
        return []
    _unlink(folder, temp)  # linked in (the file is the same inode) or gone
    current = sha_at(folder, name)
    if current is None:
        return []
    if current != after:  # the user wrote in it: theirs
        return [KeptEdit(entry["root"], entry["relPath"], None)]
    os.rename(name, temp, src_dir_fd=folder, dst_dir_fd=folder)  # exactly this file goes
    if sha_at(folder, temp) == after:
        _unlink(folder, temp)
        return []
    try:  # saved in between: it stays
        os.link(temp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    except FileExistsError:
        return [keep_aside(folder, entry, journal_id, temp)]
    _unlink(folder, temp)
    return [KeptEdit(entry["root"], entry["relPath"], None)]


def _undo_removal(folder: int, name: str, entry: dict[str, Any], journal_id: str) -> list[KeptEdit]:
    backup = entry["backup"]
    saved = sha_at(folder, backup)
    if saved is None:
        return []
    current = sha_at(folder, name)
    if current is None:
        try:
            os.link(backup, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
        except FileExistsError:  # created in between: the user's
            return [keep_aside(folder, entry, journal_id, backup)]
        _unlink(folder, backup)
        return []
    if current == saved:
        _unlink(folder, backup)
        return []
    return [keep_aside(folder, entry, journal_id, backup)]


def _undo_replace(folder: int, name: str, entry: dict[str, Any], journal_id: str) -> list[KeptEdit]:
    temp, backup, after = entry["temp"], entry["backup"], entry["after"]
    if sha_at(folder, temp) == after:  # never applied (or put back): the file is untouched
        _unlink(folder, temp)
        _unlink(folder, backup)
        return []
    kept: list[KeptEdit] = []
    saved = sha_at(folder, backup)
    if saved is not None:
        current = sha_at(folder, name)
        if current == after:
            kept += _restore(folder, name, entry, journal_id)
        elif current == saved:
            _unlink(folder, backup)
        elif current is None:
            try:
                os.link(backup, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
                _unlink(folder, backup)
            except FileExistsError:
                kept.append(keep_aside(folder, entry, journal_id, backup))
        else:  # the user saved the file after the commit wrote it: theirs is kept
            kept.append(keep_aside(folder, entry, journal_id, backup))
    leftover = sha_at(folder, temp)  # a save an exchange displaced when the process died
    if leftover is not None:
        if leftover in (after, sha_at(folder, name)) or (saved and leftover == saved):
            _unlink(folder, temp)
        else:
            kept.append(keep_aside(folder, entry, journal_id, temp))
    return kept


def _restore(folder: int, name: str, entry: dict[str, Any], journal_id: str) -> list[KeptEdit]:
    """The backup back over a file holding the committed bytes, verified like an apply."""
    backup = entry["backup"]
    if not exchange(folder, backup, name):
        os.rename(backup, name, src_dir_fd=folder, dst_dir_fd=folder)
        return []
    if sha_at(folder, backup) == entry["after"]:
        _unlink(folder, backup)
        return []
    exchange(folder, backup, name)  # saved in between: the user's save wins
    return [keep_aside(folder, entry, journal_id, backup)]
