"""``LocalNoteFiles``: notes and folders written under a collection root on disk.

Every step goes through directory descriptors opened with ``O_NOFOLLOW``: a symlinked folder
on the way is refused even if it was swapped in after the core checked the path, so a write
cannot be steered out of the root. A note is written to a hidden temporary file in its folder,
fsynced, then ``link``ed to its name (exclusive: fails if the name exists, whoever made it) or
``rename``d over it (replace); a writer killed half-way leaves only the temporary file, which is
hidden from the walker and swept by the next write in that folder.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gno_core.errors import (
    DuplicateError,
    GnoError,
    InvalidPathError,
    NotFoundError,
    PathNotFoundError,
    RuntimeFailure,
    ValidationError,
)

if TYPE_CHECKING:
    from gno_core.domain import SourceFile

__all__ = ["TEMP_PREFIX", "LocalNoteFiles"]

TEMP_PREFIX = ".gno-write-"
#: A temporary file older than this belongs to a writer that died; the next write removes it.
STALE_TEMP_SECONDS = 60.0
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NOTE_MODE = 0o644
_FOLDER_MODE = 0o755


def _segments(rel_path: str) -> list[str]:
    parts = rel_path.split("/")
    if not rel_path or any(p in ("", ".", "..") for p in parts) or "\x00" in rel_path:
        raise InvalidPathError(
            f"Not a safe relative path: {rel_path!r}", details={"path": rel_path}
        )
    return parts


def _symlink(rel_path: str) -> InvalidPathError:
    return InvalidPathError(
        f"Refusing to write through a symlink or over a non-folder: {rel_path}",
        details={"path": rel_path, "reason": "symlink_or_not_a_folder"},
    )


def _os_failure(action: str, rel_path: str, exc: OSError) -> GnoError:
    return RuntimeFailure(
        f"Cannot {action} {rel_path}: {exc.strerror or exc}",
        details={"path": rel_path, "errno": exc.errno},
    )


@contextlib.contextmanager
def _open_root(root: str) -> Iterator[int]:
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise PathNotFoundError(
            f"Collection root not found or not a folder: {root}", details={"path": root}
        ) from exc
    try:
        yield fd
    finally:
        os.close(fd)


def _open_child(parent: int, name: str, rel_path: str, *, create: bool) -> int:
    """The folder ``name`` under ``parent`` (created when missing and ``create``)."""
    if create:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, _FOLDER_MODE, dir_fd=parent)
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _symlink(rel_path) from exc
        raise _os_failure("open the folder of", rel_path, exc) from exc


@contextlib.contextmanager
def _walk_to(root: str, parts: list[str], rel_path: str, *, create: bool) -> Iterator[int]:
    """A descriptor of the folder ``parts`` under ``root``, every step without following links."""
    with _open_root(root) as fd:
        current = os.dup(fd)
        try:
            for name in parts:
                child = _open_child(current, name, rel_path, create=create)
                os.close(current)
                current = child
            yield current
        finally:
            os.close(current)


def _source(root: str, rel_path: str, info: os.stat_result) -> SourceFile:
    from gno_core.domain import SourceFile  # sync values: not on a read's import path

    return SourceFile(
        rel_path, os.path.join(root, *rel_path.split("/")), info.st_size, info.st_mtime_ns
    )


def _sweep_stale(folder: int) -> None:
    now = time.time()
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if not name.startswith(TEMP_PREFIX):
                continue
            with contextlib.suppress(OSError):
                info = os.stat(name, dir_fd=folder, follow_symlinks=False)
                if now - info.st_mtime > STALE_TEMP_SECONDS:
                    os.unlink(name, dir_fd=folder)


class LocalNoteFiles:
    def exists(self, root: str, rel_path: str) -> bool:
        *folders, name = _segments(rel_path)
        try:
            with _walk_to(root, folders, rel_path, create=False) as folder:
                os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            return False
        except NotADirectoryError as exc:
            raise _symlink(rel_path) from exc
        return True

    def read(self, root: str, rel_path: str, max_bytes: int) -> tuple[SourceFile, bytes]:
        *folders, name = _segments(rel_path)
        try:
            with _walk_to(root, folders, rel_path, create=False) as folder:
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
        except FileNotFoundError as exc:
            raise NotFoundError(f"Not found: {rel_path}", details={"path": rel_path}) from exc
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise _symlink(rel_path) from exc
            raise _os_failure("read", rel_path, exc) from exc
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise _symlink(rel_path)
            if info.st_size > max_bytes:
                raise ValidationError(
                    f"{rel_path} is {info.st_size} bytes, over the {max_bytes}-byte limit",
                    details={"code": "TOO_LARGE", "path": rel_path},
                )
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            return _source(root, rel_path, info), b"".join(chunks)
        finally:
            os.close(fd)

    def create(self, root: str, rel_path: str, data: bytes, *, replace: bool) -> SourceFile:
        *folders, name = _segments(rel_path)
        try:
            with _walk_to(root, folders, rel_path, create=True) as folder:
                _sweep_stale(folder)
                return self._write(root, folder, name, rel_path, data, replace=replace)
        except FileNotFoundError as exc:
            raise PathNotFoundError(
                f"Folder vanished while writing {rel_path}", details={"path": rel_path}
            ) from exc

    def _write(
        self, root: str, folder: int, name: str, rel_path: str, data: bytes, *, replace: bool
    ) -> SourceFile:
        import secrets  # (and random): only a write needs it

        temp = f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(temp, flags, _NOTE_MODE, dir_fd=folder)
        except OSError as exc:
            raise _os_failure("write", rel_path, exc) from exc
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            if replace:
                target = self._existing(folder, name)
                if target is not None and not stat.S_ISREG(target.st_mode):
                    raise _symlink(rel_path)
                os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
            else:
                try:
                    os.link(temp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
                except FileExistsError as exc:
                    raise DuplicateError(
                        f"A file already exists at {rel_path}",
                        details={"path": rel_path, "reason": "exists"},
                    ) from exc
                os.unlink(temp, dir_fd=folder)
            os.fsync(folder)
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except GnoError:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise _os_failure("write", rel_path, exc) from exc
        return _source(root, rel_path, info)

    @staticmethod
    def _existing(folder: int, name: str) -> os.stat_result | None:
        try:
            return os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def resolve_folder(self, path: str) -> str:
        expanded = os.path.expanduser(path.strip())
        if not os.path.isabs(expanded):
            raise ValidationError(
                f"The folder must be an absolute or ~ path: {path[:200]}", details={"path": path}
            )
        resolved = os.path.realpath(expanded)
        if not os.path.isdir(resolved):
            raise PathNotFoundError(f"Folder not found: {path[:200]}", details={"path": path})
        return resolved

    def home(self) -> str:
        # Resolved like the folders it is compared with (a home reached through a link).
        return os.path.realpath(os.path.expanduser("~"))

    def make_folder(self, root: str, rel_path: str) -> bool:
        *parents, name = _segments(rel_path)
        try:
            with _walk_to(root, parents, rel_path, create=True) as folder:
                try:
                    os.mkdir(name, _FOLDER_MODE, dir_fd=folder)
                    created = True
                except FileExistsError:
                    created = False
                info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError as exc:
            raise PathNotFoundError(
                f"Folder vanished while creating {rel_path}", details={"path": rel_path}
            ) from exc
        except OSError as exc:
            raise _os_failure("create the folder", rel_path, exc) from exc
        if not stat.S_ISDIR(info.st_mode):
            raise _symlink(rel_path)
        return created
