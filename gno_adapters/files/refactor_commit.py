"""``JournaledCommit``: several files changed as one all-or-nothing step on disk, replacing no
byte it did not read.

Steps (each followed by the test hook with its name):

1. ``checked`` - every file is compared with its expected SHA-256; ``CONFLICT`` with nothing
   touched when one differs.
2. ``journal`` - the journal (``<journal dir>/<id>.json``: every change, its hashes before and
   after, its temporary and backup names, state ``prepared``) is written atomically and fsynced.
3. ``stage:<i>`` - the new bytes of change ``i`` go to a hidden temporary file beside it
   (``.gno-refactor-<id>-<i>.tmp``); a file being replaced gets a hard link
   ``.gno-refactor-<id>-<i>.bak`` to its current bytes; one flush makes them durable.
4. ``committing`` - the journal says so (with the folders step 3 created).
5. ``check:<i>`` - the file is hashed again right before it is replaced; ``apply:<i>`` - the
   temporary file is exchanged with the file in one step (``swap.exchange``), so the bytes
   replaced are exactly the ones now at the temporary name: they must hash to the expected
   value, else a save landed after the check and is put back (the user's version wins). The
   replaced file then becomes the backup. A removed file is renamed to its backup and verified
   the same way; a new file is linked in exclusively. Where no exchange exists the temporary
   file is renamed over the file and the backup link (the checked inode) is verified instead.
6. ``committed`` - every backup is hashed once more (a write through a descriptor opened before
   the exchange), then the journal says so; ``cleaned`` - backups and journal removed.

A conflict or failure before ``committed`` rolls back (``refactor_rollback``): a file still
holding the bytes the commit wrote gets its backup back; a file changed since is kept as the
user's, with the backup left beside it as ``<file>.conflict-<id>`` and reported. ``recover``
does the same for a journal a killed process left (or, from ``committed`` on, only the
cleaning). Every path is walked with ``O_NOFOLLOW`` directory descriptors, so no step can be
steered through a symlink."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from gno_adapters.files.notes import _segments
from gno_adapters.files.refactor_rollback import (
    Folders,
    keep_aside,
    rollback,
    sha_at,
)
from gno_adapters.files.swap import exchange
from gno_core.errors import ConflictError, GnoError, RuntimeFailure
from gno_core.ports.refactors import FileChange, KeptEdit, RecoveryReport, kept_details

__all__ = ["JournaledCommit"]

_PREFIX = ".gno-refactor-"
_NOTE_MODE = 0o644


def _conflict(rel_path: str) -> ConflictError:
    return ConflictError(f"{rel_path} changed since the plan was made", details={"path": rel_path})


class JournaledCommit:
    def __init__(
        self,
        journal_dir: str,
        hook: Callable[[str], None] | None = None,
        *,
        background_cleanup: bool = False,
    ) -> None:
        """``background_cleanup``: remove the backups of a committed change on a thread after
        ``commit`` returns (freeing thousands of old inodes takes seconds on some disks); the
        interpreter waits for it at exit, and a process killed first leaves a committed
        journal that the next ``recover`` cleans."""
        self._dir = journal_dir
        self._hook = hook or (lambda _step: None)
        self._background = background_cleanup

    # -- journal ----------------------------------------------------------------------------

    def _journal_path(self, journal_id: str) -> str:
        return os.path.join(self._dir, f"{journal_id}.json")

    def _write_journal(self, journal: dict[str, Any]) -> None:
        os.makedirs(self._dir, mode=0o700, exist_ok=True)
        path = self._journal_path(journal["id"])
        temp = path + ".tmp"
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(journal, sort_keys=True))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
        dir_fd = os.open(self._dir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    def _forget(self, journal_id: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._journal_path(journal_id))

    # -- commit -----------------------------------------------------------------------------

    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        check = Folders()
        try:
            for change in changes:
                try:
                    current = sha_at(*check.get(change.root, change.rel_path))
                except FileNotFoundError:
                    current = None
                if current != change.before_sha256:
                    error = _conflict(change.rel_path)
                    error.details["rolledBack"] = False
                    raise error
        finally:
            check.close()
        self._hook("checked")
        journal: dict[str, Any] = {
            "id": journal_id,
            "state": "prepared",
            "changes": [
                {
                    "root": c.root,
                    "relPath": c.rel_path,
                    "before": c.before_sha256,
                    "after": None if c.after is None else hashlib.sha256(c.after).hexdigest(),
                    "temp": f"{_PREFIX}{journal_id}-{i}.tmp",
                    "backup": f"{_PREFIX}{journal_id}-{i}.bak",
                }
                for i, c in enumerate(changes)
            ],
            # Folders a new file needs that are missing now (under the write lease): made
            # while staging, removed again (when empty) by a rollback.
            "createdFolders": _missing_folders(changes),
        }
        self._write_journal(journal)
        self._hook("journal")
        folders = Folders()
        try:
            for i, (change, entry) in enumerate(zip(changes, journal["changes"], strict=True)):
                self._stage(folders, change, entry)
                self._hook(f"stage:{i}")
            # One flush for every staged file and backup link (not one fsync per file): they
            # are all durable before the journal says the originals may be replaced.
            os.sync()
            journal["state"] = "committing"
            self._write_journal(journal)
            self._hook("committing")
            for i, entry in enumerate(journal["changes"]):
                self._apply(folders, entry, i)
                self._hook(f"apply:{i}")
            for entry in journal["changes"]:
                if entry["before"] is not None:
                    folder, _ = folders.get(entry["root"], entry["relPath"])
                    if sha_at(folder, entry["backup"]) != entry["before"]:
                        raise _conflict(entry["relPath"])
            folders.sync()
            journal["state"] = "committed"
            self._write_journal(journal)
            self._hook("committed")
        except BaseException as exc:
            folders.close()
            if not isinstance(exc, OSError | GnoError):
                raise  # a crash: the journal is finished by the next start
            self._fail(journal, exc)
        if self._background:
            threading.Thread(
                target=self._finish, args=(folders, journal), name=f"gno-refactor-{journal_id}"
            ).start()
        else:
            self._finish(folders, journal)

    def _fail(self, journal: dict[str, Any], exc: OSError | GnoError) -> None:
        """Roll ``journal`` back after ``exc`` and raise what the caller answers."""
        journal_id = journal["id"]
        try:
            kept = rollback(journal)
        except (OSError, GnoError) as again:
            raise RuntimeFailure(
                f"Could not roll back after a failed commit ({again}); the journal "
                f"{journal_id} is kept and the next start finishes it",
                details={"code": "rollback_recovery_required", "journalId": journal_id},
            ) from exc
        self._forget(journal_id)
        if isinstance(exc, ConflictError):
            raise ConflictError(
                exc.message, details={**exc.details, "rolledBack": True, **kept_details(kept)}
            ) from exc
        raise RuntimeFailure(
            f"The change was rolled back: {exc}",
            details={"code": "failed_rolled_back", "journalId": journal_id, **kept_details(kept)},
        ) from exc

    def _finish(self, folders: Folders, journal: dict[str, Any]) -> None:
        self._clean(journal, folders)
        self._hook("cleaned")

    def _stage(self, folders: Folders, change: FileChange, entry: dict[str, Any]) -> None:
        folder, name = folders.get(change.root, change.rel_path, create=True)
        if change.after is not None:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(entry["temp"], flags, _NOTE_MODE, dir_fd=folder)
            try:
                view = memoryview(change.after)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
        if change.before_sha256 is not None and change.after is not None:
            # A removed file becomes its backup by a rename at apply (no link before).
            os.link(
                name, entry["backup"], src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False
            )

    def _apply(self, folders: Folders, entry: dict[str, Any], i: int) -> None:
        """Replace, remove or create one file, checking it right before and verifying the bytes
        replaced right after; ``CONFLICT`` (the user's save put back) when they moved."""
        folder, name = folders.get(entry["root"], entry["relPath"])
        before, temp, backup = entry["before"], entry["temp"], entry["backup"]
        if sha_at(folder, name) != before:
            raise _conflict(entry["relPath"])
        self._hook(f"check:{i}")
        if before is None:
            try:  # exclusive: a file that appeared meanwhile is the user's
                os.link(temp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
            except FileExistsError:
                raise _conflict(entry["relPath"]) from None
            os.unlink(temp, dir_fd=folder)
        elif entry["after"] is None:
            os.rename(name, backup, src_dir_fd=folder, dst_dir_fd=folder)
            if sha_at(folder, backup) != before:  # saved after the check: put it back
                with contextlib.suppress(FileExistsError):
                    os.link(
                        backup, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False
                    )
                    os.unlink(backup, dir_fd=folder)
                raise _conflict(entry["relPath"])
        elif exchange(folder, temp, name):
            if sha_at(folder, temp) != before:  # saved after the check: it is at temp now
                exchange(folder, temp, name)
                if sha_at(folder, temp) == entry["after"]:
                    os.unlink(temp, dir_fd=folder)
                    os.unlink(backup, dir_fd=folder)  # the bytes the user's save replaced
                raise _conflict(entry["relPath"])
            if _same_file(folder, temp, backup):  # rename would do nothing: same inode
                os.unlink(temp, dir_fd=folder)
            else:
                os.rename(temp, backup, src_dir_fd=folder, dst_dir_fd=folder)
        else:
            if not _same_file(folder, name, backup):  # replaced meanwhile by equal bytes
                os.unlink(backup, dir_fd=folder)
                os.link(name, backup, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
                if sha_at(folder, backup) != before:
                    raise _conflict(entry["relPath"])
            os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
            if sha_at(folder, backup) != before:  # the rollback puts the user's save back
                raise _conflict(entry["relPath"])

    # -- cleaning and recovery --------------------------------------------------------------

    def _clean(self, journal: dict[str, Any], folders: Folders) -> list[KeptEdit]:
        """Remove a committed change's backups and leftovers (in ``folders``, a folder gone
        skipped), then its journal. A backup that no longer hashes to the bytes replaced (a
        write through a descriptor opened before the exchange) is kept as a conflict copy."""
        kept: list[KeptEdit] = []
        try:
            for entry in journal["changes"]:
                try:
                    folder = folders.get(entry["root"], entry["relPath"])[0]
                except FileNotFoundError:
                    continue
                backup = sha_at(folder, entry["backup"])
                if backup is not None and backup != entry["before"]:
                    kept.append(keep_aside(folder, entry, journal["id"], entry["backup"]))
                for leftover in (entry["temp"], entry["backup"]):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(leftover, dir_fd=folder)
        finally:
            folders.close()
        self._forget(journal["id"])
        return kept

    def recover(self) -> list[RecoveryReport]:
        try:
            names = sorted(n for n in os.listdir(self._dir) if n.endswith(".json"))
        except FileNotFoundError:
            return []
        reports: list[RecoveryReport] = []
        for name in names:
            try:
                with open(os.path.join(self._dir, name), encoding="utf-8") as handle:
                    journal = json.load(handle)
            except (OSError, ValueError):
                continue  # a journal torn before its first rename never existed
            if journal.get("state") == "committed":
                kept = self._clean(journal, Folders())
                reports.append(RecoveryReport(journal["id"], "completed", tuple(kept)))
            else:
                kept = rollback(journal)
                self._forget(journal["id"])
                reports.append(RecoveryReport(journal["id"], "rolled_back", tuple(kept)))
        return reports


def _same_file(folder: int, first: str, second: str) -> bool:
    a = os.stat(first, dir_fd=folder, follow_symlinks=False)
    b = os.stat(second, dir_fd=folder, follow_symlinks=False)
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _missing_folders(changes: Sequence[FileChange]) -> list[str]:
    """Absolute paths of the folders the new files need that do not exist, parents first."""
    missing: list[str] = []
    for change in changes:
        if change.after is None:
            continue
        folders = _segments(change.rel_path)[:-1]
        for depth in range(1, len(folders) + 1):
            path = os.path.join(change.root, *folders[:depth])
            if path not in missing and not os.path.lexists(path):
                missing.append(path)
    return missing
