"""``JournaledCommit``: several files changed as one all-or-nothing step on disk.

Steps (each followed by the test hook with its name):

1. ``checked`` - every file is compared with its expected SHA-256; ``CONFLICT`` with nothing
   touched when one differs.
2. ``journal`` - the journal (``<journal dir>/<id>.json``: every change, its temporary and backup
   names, state ``prepared``) is written atomically and fsynced.
3. ``stage:<i>`` - the new bytes of change ``i`` go to a hidden temporary file beside it
   (``.gno-refactor-<id>-<i>.tmp``, fsynced); ``backup:<i>`` - a file being replaced or removed
   gets a hard link ``.gno-refactor-<id>-<i>.bak`` to its current bytes.
4. ``committing`` - the journal says so (with the folders step 3 created).
5. ``apply:<i>`` - the temporary file is renamed over the file (a new file is linked in
   exclusively), or the file is removed.
6. ``committed`` - the journal says so; ``cleaned`` - backups and journal removed.

A failure before ``committed`` rolls back: every backup is renamed over its file, new files
are removed, temporary files and created folders go. ``recover`` does the same for a journal a
killed process left (or, from ``committed`` on, only the cleaning). Every path is walked with
``O_NOFOLLOW`` directory descriptors, so no step can be steered through a symlink."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gno_adapters.files.notes import _segments, _walk_to
from gno_core.errors import ConflictError, GnoError, RuntimeFailure
from gno_core.ports.refactors import FileChange, RecoveryReport

__all__ = ["JournaledCommit"]

_PREFIX = ".gno-refactor-"
_FOLDER_MODE = 0o755
_NOTE_MODE = 0o644


def _sha_at(folder: int, name: str) -> str | None:
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


def _unlink_leftovers(folder: int, entry: dict[str, Any]) -> None:
    """Remove the temporary file and the backup of one journal ``entry`` (when there)."""
    for leftover in (entry["temp"], entry["backup"]):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(leftover, dir_fd=folder)


def _exists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


class _Folders:
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

    # -- commit -----------------------------------------------------------------------------

    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        check = _Folders()
        try:
            for change in changes:
                try:
                    current = _sha_at(*check.get(change.root, change.rel_path))
                except FileNotFoundError:
                    current = None
                if current != change.before_sha256:
                    raise ConflictError(
                        f"{change.rel_path} changed since the plan was made",
                        details={"path": change.rel_path},
                    )
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
        folders = _Folders()
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
                self._apply(folders, entry)
                self._hook(f"apply:{i}")
            folders.sync()
            journal["state"] = "committed"
            self._write_journal(journal)
            self._hook("committed")
        except BaseException as exc:
            folders.close()
            if not isinstance(exc, OSError | GnoError):
                raise  # a crash: the journal is finished by the next start
            try:
                self._rollback(journal)
            except (OSError, GnoError) as again:
                raise RuntimeFailure(
                    f"Could not roll back after a failed commit ({again}); the journal "
                    f"{journal_id} is kept and the next start finishes it",
                    details={"code": "rollback_recovery_required", "journalId": journal_id},
                ) from exc
            raise RuntimeFailure(
                f"The change was rolled back: {exc}",
                details={"code": "failed_rolled_back", "journalId": journal_id},
            ) from exc
        if self._background:
            threading.Thread(
                target=self._finish, args=(folders, journal), name=f"gno-refactor-{journal_id}"
            ).start()
        else:
            self._finish(folders, journal)

    def _finish(self, folders: _Folders, journal: dict[str, Any]) -> None:
        self._clean(journal, folders)
        self._hook("cleaned")

    def _stage(self, folders: _Folders, change: FileChange, entry: dict[str, Any]) -> None:
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
        if change.before_sha256 is not None:
            os.link(
                name, entry["backup"], src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False
            )

    def _apply(self, folders: _Folders, entry: dict[str, Any]) -> None:
        folder, name = folders.get(entry["root"], entry["relPath"])
        if entry["after"] is None:
            os.unlink(name, dir_fd=folder)
        elif entry["before"] is None:
            os.link(
                entry["temp"],
                name,
                src_dir_fd=folder,
                dst_dir_fd=folder,
                follow_symlinks=False,
            )  # exclusive: a file that appeared meanwhile fails the commit
            os.unlink(entry["temp"], dir_fd=folder)
        else:
            os.rename(entry["temp"], name, src_dir_fd=folder, dst_dir_fd=folder)

    # -- rollback and recovery --------------------------------------------------------------

    def _rollback(self, journal: dict[str, Any]) -> None:
        for entry in reversed(journal["changes"]):
            with _folder_or_none(entry["root"], entry["relPath"]) as found:
                if found is None:
                    continue
                folder, name = found
                backup_there = _exists(folder, entry["backup"])
                if entry["before"] is None:
                    if entry["after"] is not None and _sha_at(folder, name) == entry["after"]:
                        os.unlink(name, dir_fd=folder)
                elif backup_there:
                    os.rename(entry["backup"], name, src_dir_fd=folder, dst_dir_fd=folder)
                _unlink_leftovers(folder, entry)
                os.fsync(folder)
        for path in reversed(journal["createdFolders"]):
            with contextlib.suppress(OSError):
                os.rmdir(path)
        self._forget(journal["id"])

    def _clean(self, journal: dict[str, Any], folders: _Folders) -> None:
        """Remove a committed change's backups and leftovers (in ``folders``, a folder gone
        skipped), then its journal."""
        try:
            for entry in journal["changes"]:
                try:
                    folder = folders.get(entry["root"], entry["relPath"])[0]
                except FileNotFoundError:
                    continue
                _unlink_leftovers(folder, entry)
        finally:
            folders.close()
        self._forget(journal["id"])

    def _forget(self, journal_id: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._journal_path(journal_id))

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
                self._clean(journal, _Folders())
                reports.append(RecoveryReport(journal["id"], "completed"))
            else:
                self._rollback(journal)
                reports.append(RecoveryReport(journal["id"], "rolled_back"))
        return reports


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


@contextlib.contextmanager
def _folder_or_none(root: str, rel_path: str) -> Iterator[tuple[int, str] | None]:
    """The descriptor of the folder of ``rel_path`` and its file name, or None when a folder
    on the way is missing."""
    *folders, name = _segments(rel_path)
    stack = contextlib.ExitStack()
    try:
        fd = stack.enter_context(_walk_to(root, folders, rel_path, create=False))
    except FileNotFoundError:
        yield None
        return
    with stack:
        yield fd, name
