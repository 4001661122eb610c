"""``LocalSourceTree``: the ``SourceTree`` port over the local file system (``os.scandir``).

Symlinks are followed only while their target stays inside the (resolved) collection root and
outside any key store (``roots.key_store_in``: a link ``cloud -> .aws`` is not a way in), and a
directory reached twice through links is walked once. Excluded names prune whole directories.
A name that is not valid UTF-8 has no faithful relPath or URI (a lossless escape such as %FF
would collide with names that really contain "%FF"), so it is yielded as an unindexable entry
(``FILENAME_ENCODING``, undecodable bytes shown as ``\\xNN``) for sync to report, never skipped
silently. A folder with such a name is reported once, as ``name/``, and not walked.
Only regular files are ever opened: FIFOs, sockets and devices are left out of the walk, and
``read`` checks the type before opening and again after (opening non-blocking), so one swapped
in after the walk is neither opened nor, in a race, waited on.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterator

from gno_core.domain import SourceFile
from gno_core.errors import (
    FILENAME_ENCODING,
    InvalidPathError,
    PathNotFoundError,
    RuntimeFailure,
    ValidationError,
)
from gno_core.sources.key_stores import KEY_STORE, key_store_in
from gno_core.sources.patterns import compile_glob, exclusions

__all__ = ["LocalSourceTree"]

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class LocalSourceTree:
    """Walks and reads files under collection roots on the local disk."""

    def walk(
        self, root: str, pattern: str, include: tuple[str, ...], exclude: tuple[str, ...]
    ) -> Iterator[SourceFile]:
        """Regular files under ``root`` matching ``pattern`` or ``include``, none of whose path
        segments matches ``exclude``, sorted by relative path. Raises ``PATH_NOT_FOUND`` (on the
        first ``next``) when ``root`` is not a directory, ``INVALID_PATH`` (``details.code``
        ``KEY_STORE``) when it resolves into a key store (a root swapped for a link to one after
        it was added, or a configuration from before the rule)."""
        if not os.path.isdir(root):
            raise PathNotFoundError(
                f"Collection root not found or not a directory: {root}", details={"path": root}
            )
        matches = compile_glob(pattern).fullmatch
        extensions = frozenset(ext.lower() for ext in include)
        excluded_name, excluded_path = exclusions(exclude)
        real_root = os.path.realpath(root)
        store = key_store_in(real_root)
        if store is not None:
            raise InvalidPathError(
                f"Collection root {root} is, or is inside, the key store {store}: not read",
                details={"code": KEY_STORE, "path": root, "keyStore": store},
            )
        found: list[SourceFile] = []
        # (directory as walked, its relative prefix, its real path, real paths of its ancestors)
        stack: list[tuple[str, str, str, frozenset[str]]] = [
            (root, "", real_root, frozenset({real_root}))
        ]
        while stack:
            directory, prefix, real_dir, chain = stack.pop()
            try:
                with os.scandir(directory) as listing:
                    entries = list(listing)
            except OSError:
                continue  # unreadable directory: nothing under it can be indexed
            for entry in entries:
                name = entry.name
                if excluded_name(name):
                    continue
                valid = _valid_name(name)
                rel = prefix + (name if valid else _shown_name(name))
                if excluded_path is not None and excluded_path(rel):
                    continue
                if not valid:
                    bad = _undecodable_entry(entry, rel, real_root, extensions, matches)
                    if bad is not None:
                        found.append(bad)
                    continue
                try:
                    if entry.is_symlink():
                        target = os.path.realpath(entry.path)
                        if not _inside(target, real_root) or key_store_in(target) is not None:
                            continue  # out of the root, or an alias of a key store in it
                        info = os.stat(target)
                        if stat.S_ISDIR(info.st_mode):
                            if target not in chain:  # else a cycle back to an ancestor
                                stack.append((entry.path, rel + "/", target, chain | {target}))
                            continue
                    elif entry.is_dir(follow_symlinks=False):
                        real = os.path.join(real_dir, name)
                        stack.append((entry.path, rel + "/", real, chain | {real}))
                        continue
                    else:
                        info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # vanished or unreadable between listing and stat
                if not stat.S_ISREG(info.st_mode):
                    continue  # fifos, sockets, devices
                ext = os.path.splitext(name)[1].lower()
                if (ext and ext in extensions) or matches(rel):
                    found.append(SourceFile(rel, entry.path, info.st_size, info.st_mtime_ns))
        found.sort(key=lambda f: f.rel_path)
        yield from found

    def read(self, abs_path: str, max_bytes: int) -> bytes:
        """The file's bytes. Raises ``VALIDATION`` (``code: TOO_LARGE``) past ``max_bytes`` and
        ``RUNTIME`` (``code: UNREADABLE``) when it cannot be read or is not a regular file."""
        try:
            # Checked before opening too: opening a device can act on it (a tape rewinds), and
            # the walk's answer may be stale. The fstat below closes the remaining race.
            if not stat.S_ISREG(os.stat(abs_path).st_mode):
                raise _not_regular(abs_path)
            fd = os.open(abs_path, _READ_FLAGS)
        except OSError as exc:
            raise _unreadable(abs_path, exc) from exc
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise _not_regular(abs_path)
            if info.st_size > max_bytes:
                raise _too_large(abs_path, info.st_size, max_bytes)
            chunks: list[bytes] = []
            remaining = max_bytes + 1  # one byte more tells a file that grew past the limit
            while remaining > 0:
                chunk = os.read(fd, min(remaining, max(info.st_size + 1, 65536)))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
            if len(data) > max_bytes:
                raise _too_large(abs_path, len(data), max_bytes)
            return data
        except OSError as exc:
            raise _unreadable(abs_path, exc) from exc
        finally:
            os.close(fd)


def _inside(target: str, real_root: str) -> bool:
    return target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep)


def _valid_name(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown_name(name: str) -> str:
    """``name`` (from ``os.scandir``, undecodable bytes as surrogates) with those bytes as
    ``\\xNN``: storable, printable, and telling the user which byte to fix."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _undecodable_entry(
    entry: os.DirEntry[str],
    rel: str,
    real_root: str,
    extensions: frozenset[str],
    matches: Callable[[str], re.Match[str] | None],
) -> SourceFile | None:
    """The unindexable entry for a file or folder whose name is not UTF-8; None when it would
    not have been indexed anyway (not matched, not a regular file or folder, gone)."""
    try:
        if entry.is_symlink():
            if not _inside(os.path.realpath(entry.path), real_root):
                return None
            info = os.stat(entry.path)
        else:
            info = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode):
        return SourceFile(rel + "/", entry.path, 0, info.st_mtime_ns, FILENAME_ENCODING)
    if not stat.S_ISREG(info.st_mode):
        return None
    ext = os.path.splitext(rel)[1].lower()
    if not ((ext and ext in extensions) or matches(rel)):
        return None
    return SourceFile(rel, entry.path, info.st_size, info.st_mtime_ns, FILENAME_ENCODING)


def _not_regular(path: str) -> RuntimeFailure:
    return RuntimeFailure(
        f"Not a regular file: {path}", details={"code": "UNREADABLE", "path": path}
    )


def _unreadable(path: str, exc: OSError) -> RuntimeFailure:
    reason = os.strerror(exc.errno) if exc.errno else str(exc)
    if exc.errno == errno.ENOENT:
        reason = "file disappeared"
    return RuntimeFailure(
        f"Cannot read {path}: {reason}", details={"code": "UNREADABLE", "path": path}
    )


def _too_large(path: str, size: int, max_bytes: int) -> ValidationError:
    return ValidationError(
        f"File is {size} bytes, over the {max_bytes}-byte limit: {path}",
        details={"code": "TOO_LARGE", "path": path, "size": size, "maxBytes": max_bytes},
    )
