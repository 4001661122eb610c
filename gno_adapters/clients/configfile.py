"""Read and replace one client config without following a link gno did not choose.

At project scope the config sits in a folder someone else may have filled (a cloned repo): every
step below the project folder, and the file itself, is opened through directory descriptors
with ``O_NOFOLLOW``, so a ``.mcp.json`` or ``.codex/`` that is a symlink is refused, even one
swapped in after the check. At user scope the home folder is the user's own: a dotfile manager's
``~/.claude.json -> ~/dotfiles/claude.json`` is resolved once, and the file it points to is edited
in its own folder (the link stays a link). Either way the files gno creates, the backup and the
temporary file, are opened ``O_CREAT | O_EXCL | O_NOFOLLOW`` under names nobody holds: an existing
``<name>.bak`` (the user's, or a planted link) is never opened for writing, the backup takes the
first free ``<name>.bak.N`` instead.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gno_core.errors import (
    ConflictError,
    InvalidPathError,
    UnreadableConfigError,
    UnwritableConfigError,
)

__all__ = ["Location", "locate", "read", "replace"]

_CLOEXEC = os.O_CLOEXEC
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC
_NEW_FILE_MODE = 0o600
#: ``<name>.bak``, then ``<name>.bak.1`` ... up to this many before giving up
_MAX_BACKUPS = 1000


@dataclass(frozen=True, slots=True)
class Location:
    """Where a config is read and written: ``base`` is opened as it is (links at or above it
    are followed), each of ``folders`` below it without following a link (created when
    missing), then the file ``name``, never followed. ``shown`` is the path the client names."""

    shown: Path
    base: Path
    folders: tuple[str, ...]
    name: str

    @property
    def real(self) -> Path:
        return self.base.joinpath(*self.folders, self.name)


def _link_refusal(config: Path, link: Path, reason: str = "symlink") -> InvalidPathError:
    what = "a symlink" if reason == "symlink" else "not a folder"
    return InvalidPathError(
        f"Refusing to edit {config}: {link} is {what} inside the project (a cloned repository "
        "can plant one to steer the write elsewhere); replace it with a plain file or folder",
        details={"path": str(link), "config": str(config), "reason": reason},
    )


def locate(path: Path, project: Path | None) -> Location:
    """The location of the config at ``path``: below ``project`` (project scope) no link is
    followed and one on the way is refused now, so ``--dry-run`` says so too; without a
    project (user scope) the path is resolved, links and all."""
    if project is not None:
        rel = path.relative_to(project)
        for depth in range(1, len(rel.parts) + 1):
            step = project.joinpath(*rel.parts[:depth])
            if step.is_symlink():
                raise _link_refusal(path, step)
        return Location(path, project, rel.parts[:-1], rel.parts[-1])
    try:
        real = path.resolve()
    except (OSError, RuntimeError) as exc:  # a loop of links
        raise InvalidPathError(
            f"Cannot resolve {path}: {exc}", details={"path": str(path), "reason": "symlink_loop"}
        ) from None
    base, missing = real.parent, list[str]()
    while not base.is_dir() and base != base.parent:
        missing.insert(0, base.name)
        base = base.parent
    return Location(path, base, tuple(missing), real.name)


def _unwritable(loc: Location, exc: OSError) -> UnwritableConfigError:
    where = str(loc.shown) if loc.real == loc.shown else f"{loc.shown} (-> {loc.real})"
    name = errno.errorcode.get(exc.errno or 0, str(exc.errno))
    hint = " (immutable? see lsattr)" if exc.errno == errno.EPERM else ""
    return UnwritableConfigError(
        f"Cannot write {where}: {exc.strerror or exc}{hint}. The file was not changed.",
        details={"path": str(loc.shown), "errno": name},
    )


@contextlib.contextmanager
def _folder(loc: Location, *, create: bool) -> Iterator[int]:
    """A descriptor of the config's folder; FileNotFoundError when it is missing and not
    ``create``; every step below ``base`` opened without following a link."""
    current = os.open(loc.base, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    try:
        for depth, name in enumerate(loc.folders, 1):
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o777, dir_fd=current)
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=current)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    step = loc.base.joinpath(*loc.folders[:depth])
                    reason = "symlink" if exc.errno == errno.ELOOP else "not_a_folder"
                    raise _link_refusal(loc.shown, step, reason) from None
                raise
            os.close(current)
            current = child
        yield current
    finally:
        os.close(current)


def _read_at(folder: int, loc: Location) -> tuple[bytes, os.stat_result] | None:
    try:
        fd = os.open(loc.name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link_refusal(loc.shown, loc.real) from None
        raise
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableConfigError(
                f"{loc.shown} is not a regular file; gno leaves it alone",
                details={"path": str(loc.shown)},
            )
        return handle.read(), info


def read(loc: Location) -> bytes | None:
    """The config's bytes, or None when there is no file (nor folder) yet."""
    try:
        with _folder(loc, create=False) as folder:
            found = _read_at(folder, loc)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnreadableConfigError(
            f"Cannot read {loc.shown}: {exc.strerror or exc}", details={"path": str(loc.shown)}
        ) from None
    return None if found is None else found[0]


def _create(folder: int, name: str, data: bytes, mode: int) -> None:
    """Write ``data`` to a new file ``name`` (exclusive, never through a link), fsynced; on a
    failure the half-written file is removed. FileExistsError when the name is taken."""
    fd = os.open(name, _CREATE_FLAGS, _NEW_FILE_MODE, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb", closefd=False) as out:
            out.write(data)
            out.flush()
            os.fchmod(fd, mode)
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=folder)
        raise
    os.close(fd)


def _backup(folder: int, name: str, data: bytes, info: os.stat_result) -> str:
    """A copy of the previous file under the first free ``<name>.bak[.N]``."""
    for n in range(_MAX_BACKUPS):
        candidate = f"{name}.bak" if n == 0 else f"{name}.bak.{n}"
        try:
            _create(folder, candidate, data, stat.S_IMODE(info.st_mode))
        except FileExistsError:
            continue
        with contextlib.suppress(OSError):
            os.utime(candidate, ns=(info.st_atime_ns, info.st_mtime_ns), dir_fd=folder)
        return candidate
    raise FileExistsError(errno.EEXIST, f"{_MAX_BACKUPS} backups of {name} exist already")


def _temporary(folder: int, name: str, data: bytes, mode: int) -> str:
    for _ in range(100):
        candidate = f".{name}.{os.urandom(4).hex()}.tmp"
        try:
            _create(folder, candidate, data, mode)
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {name}")


def _changed(loc: Location) -> ConflictError:
    return ConflictError(
        f"{loc.shown} changed since gno read it; run the command again",
        details={"path": str(loc.shown)},
    )


def _key(info: os.stat_result) -> tuple[int, ...]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _identity(folder: int, name: str) -> tuple[int, ...] | None:
    """What says the file ``name`` is still the one read (None: there is none)."""
    try:
        return _key(os.stat(name, dir_fd=folder, follow_symlinks=False))
    except FileNotFoundError:
        return None


def replace(loc: Location, expected: bytes | None, data: bytes) -> Path | None:
    """Replace the config's content with ``data`` in one rename, after copying the previous
    file to a fresh backup; returns the backup's path (None when there was no file). When the
    file no longer holds ``expected`` (None: no file), or is no longer the file just read when
    the rename comes, nothing is written (``CONFLICT``); a write the system refuses is
    ``CONFIG_UNWRITABLE`` and leaves no file of gno's behind."""
    try:
        with _folder(loc, create=True) as folder:
            found = _read_at(folder, loc)
            if (None if found is None else found[0]) != expected:
                raise _changed(loc)
            backup = None if found is None else _backup(folder, loc.name, *found)
            try:
                mode = _NEW_FILE_MODE if found is None else stat.S_IMODE(found[1].st_mode)
                temp = _temporary(folder, loc.name, data, mode)
                try:
                    # an editor may have saved while the two files above were fsynced
                    if _identity(folder, loc.name) != (None if found is None else _key(found[1])):
                        raise _changed(loc)
                    os.replace(temp, loc.name, src_dir_fd=folder, dst_dir_fd=folder)
                except BaseException:
                    with contextlib.suppress(OSError):
                        os.unlink(temp, dir_fd=folder)
                    raise
                with contextlib.suppress(OSError):
                    os.fsync(folder)
            except BaseException:
                if backup is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(backup, dir_fd=folder)
                raise
    except OSError as exc:
        raise _unwritable(loc, exc) from None
    return None if backup is None else loc.real.with_name(backup)
