"""Filesystem helpers shared by adapters: atomic replacement of a file's content, and private
(owner-only) folders and files."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory, fsync, then a
    rename, so readers see the old file or the new one, never a torn one. Raises ``OSError``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # (and random, shutil): only a write needs them

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


#: Index databases and their folders hold every indexed note: readable by their owner only.
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def ensure_private_dir(path: Path) -> None:
    """Create ``path`` (missing parents with the default mode) as ``0700``, or tighten it to
    ``0700`` when it exists with group or other bits, if it is ours to tighten. Raises
    ``OSError`` only when it cannot be created: tightening is best effort, so an index on a
    read-only mount still opens."""
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR_MODE)
    info = path.stat()
    if not info.st_mode & 0o077:
        return
    # A folder the user pointed gno at may be shared on purpose (``GNO_DATA_DIR=/tmp``, the
    # home folder): only a plain folder of our own is tightened, never a sticky one like /tmp.
    if info.st_uid != os.geteuid() or info.st_mode & stat.S_ISVTX:
        return
    if path.resolve() in (Path.home().resolve(), Path("/")):
        return
    with contextlib.suppress(OSError):
        os.chmod(path, PRIVATE_DIR_MODE)


def ensure_private_file(path: Path) -> None:
    """Create ``path`` empty as ``0600`` when missing, else tighten it to ``0600`` when it has
    group or other bits and is ours (best effort: a read-only file or mount is left as it is).
    Raises ``OSError`` only when a missing file cannot be created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, PRIVATE_FILE_MODE)
    except FileExistsError:
        with contextlib.suppress(OSError):
            info = path.stat()
            if info.st_mode & 0o077 and info.st_uid == os.geteuid():
                os.chmod(path, PRIVATE_FILE_MODE)
        return
    os.close(fd)


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
