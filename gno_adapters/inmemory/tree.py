"""``InMemorySourceTree``: the ``SourceTree`` port over files held in a dict, for tests and for
building a whole ``Gno`` without a disk. It selects files with the same pure rules as the local
walker (``gno_core.sources.patterns``); the shared contract suite runs against both."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass

from gno_core.domain import SourceFile
from gno_core.errors import InvalidPathError, PathNotFoundError, RuntimeFailure, ValidationError
from gno_core.sources.key_stores import KEY_STORE, key_store_in
from gno_core.sources.patterns import compile_glob, exclusions

__all__ = ["InMemorySourceTree"]


@dataclass(slots=True)
class _File:
    data: bytes
    mtime_ns: int


class InMemorySourceTree:
    """Absolute POSIX paths to bytes. Folders exist once created or once they hold a file."""

    def __init__(self) -> None:
        self._files: dict[str, _File] = {}
        self._dirs: set[str] = set()
        self._clock = 1_700_000_000_000_000_000

    def mkdir(self, path: str) -> None:
        path = posixpath.normpath(path)
        while path not in ("/", ""):
            self._dirs.add(path)
            path = posixpath.dirname(path)

    def write(self, path: str, data: bytes | str, mtime_ns: int | None = None) -> None:
        """Create or replace a file (its folders too); each write gets a later mtime unless
        one is given."""
        path = posixpath.normpath(path)
        self.mkdir(posixpath.dirname(path))
        self._clock += 1_000_000
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self._files[path] = _File(raw, self._clock if mtime_ns is None else mtime_ns)

    def file_at(self, path: str) -> SourceFile | None:
        """The file at the absolute ``path`` (relative path left empty), or None."""
        path = posixpath.normpath(path)
        file = self._files.get(path)
        return None if file is None else SourceFile("", path, len(file.data), file.mtime_ns)

    def is_dir(self, path: str) -> bool:
        return posixpath.normpath(path) in self._dirs

    def remove(self, path: str) -> None:
        self._files.pop(posixpath.normpath(path), None)

    def walk(
        self, root: str, pattern: str, include: tuple[str, ...], exclude: tuple[str, ...]
    ) -> Iterator[SourceFile]:
        root = posixpath.normpath(root)
        if root not in self._dirs:
            raise PathNotFoundError(
                f"Collection root not found or not a directory: {root}", details={"path": root}
            )
        store = key_store_in(root)
        if store is not None:
            raise InvalidPathError(
                f"Collection root {root} is, or is inside, the key store {store}: not read",
                details={"code": KEY_STORE, "path": root, "keyStore": store},
            )
        matches = compile_glob(pattern).fullmatch
        extensions = frozenset(ext.lower() for ext in include)
        excluded_name, excluded_path = exclusions(exclude)
        found: list[SourceFile] = []
        for path, file in self._files.items():
            if not path.startswith(root + "/"):
                continue
            rel = path[len(root) + 1 :]
            segments = rel.split("/")
            if any(excluded_name(s) for s in segments):
                continue
            prefixes = ("/".join(segments[: i + 1]) for i in range(len(segments)))
            if excluded_path is not None and any(excluded_path(p) for p in prefixes):
                continue
            ext = posixpath.splitext(segments[-1])[1].lower()
            if (ext and ext in extensions) or matches(rel):
                found.append(SourceFile(rel, path, len(file.data), file.mtime_ns))
        found.sort(key=lambda f: f.rel_path)
        yield from found

    def read(self, abs_path: str, max_bytes: int) -> bytes:
        file = self._files.get(posixpath.normpath(abs_path))
        if file is None:
            raise RuntimeFailure(
                f"Cannot read {abs_path}: No such file",
                details={"code": "UNREADABLE", "path": abs_path},
            )
        if len(file.data) > max_bytes:
            raise ValidationError(
                f"File is {len(file.data)} bytes, over the {max_bytes}-byte limit: {abs_path}",
                details={
                    "code": "TOO_LARGE",
                    "path": abs_path,
                    "size": len(file.data),
                    "maxBytes": max_bytes,
                },
            )
        return file.data
