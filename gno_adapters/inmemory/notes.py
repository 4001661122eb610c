"""``InMemoryNoteFiles``: the ``NoteFiles`` port over an ``InMemorySourceTree`` (no symlinks
exist there, so only the exclusive-create and folder rules apply)."""

from __future__ import annotations

import dataclasses
import posixpath

from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_core.domain import SourceFile
from gno_core.errors import (
    DuplicateError,
    InvalidPathError,
    NotFoundError,
    PathNotFoundError,
    ValidationError,
)

__all__ = ["HOME", "InMemoryNoteFiles"]

HOME = "/home/user"


class InMemoryNoteFiles:
    def __init__(self, tree: InMemorySourceTree) -> None:
        self._tree = tree

    def _path(self, root: str, rel_path: str) -> str:
        parts = rel_path.split("/")
        if not rel_path or any(p in ("", ".", "..") for p in parts) or "\x00" in rel_path:
            raise InvalidPathError(
                f"Not a safe relative path: {rel_path!r}", details={"path": rel_path}
            )
        if not self._tree.is_dir(root):
            raise PathNotFoundError(
                f"Collection root not found or not a folder: {root}", details={"path": root}
            )
        path = posixpath.join(root, rel_path)
        parent = posixpath.dirname(path)
        while parent != root:
            if self._tree.file_at(parent) is not None:
                raise InvalidPathError(
                    f"Refusing to write over a non-folder: {rel_path}", details={"path": rel_path}
                )
            parent = posixpath.dirname(parent)
        return path

    def exists(self, root: str, rel_path: str) -> bool:
        path = self._path(root, rel_path)
        return self._tree.file_at(path) is not None or self._tree.is_dir(path)

    def read(self, root: str, rel_path: str, max_bytes: int) -> tuple[SourceFile, bytes]:
        path = self._path(root, rel_path)
        found = self._tree.file_at(path)
        if found is None:
            raise NotFoundError(f"Not found: {rel_path}", details={"path": rel_path})
        if found.size > max_bytes:
            raise ValidationError(
                f"{rel_path} is {found.size} bytes, over the {max_bytes}-byte limit",
                details={"code": "TOO_LARGE", "path": rel_path},
            )
        return dataclasses.replace(found, rel_path=rel_path), self._tree.read(path, max_bytes)

    def create(self, root: str, rel_path: str, data: bytes, *, replace: bool) -> SourceFile:
        path = self._path(root, rel_path)
        if self._tree.is_dir(path):
            raise InvalidPathError(
                f"Refusing to write over a folder: {rel_path}", details={"path": rel_path}
            )
        if not replace and self._tree.file_at(path) is not None:
            raise DuplicateError(
                f"A file already exists at {rel_path}",
                details={"path": rel_path, "reason": "exists"},
            )
        self._tree.write(path, data)
        written = self._tree.file_at(path)
        assert written is not None
        return dataclasses.replace(written, rel_path=rel_path)

    def resolve_folder(self, path: str) -> str:
        expanded = HOME + path[1:] if path.startswith("~") else path
        if not expanded.startswith("/"):
            raise ValidationError(
                f"The folder must be an absolute or ~ path: {path}", details={"path": path}
            )
        folder = posixpath.normpath(expanded)
        if folder != "/" and not self._tree.is_dir(folder):
            raise PathNotFoundError(f"Folder not found: {path}", details={"path": path})
        return folder

    def home(self) -> str:
        return HOME

    def make_folder(self, root: str, rel_path: str) -> bool:
        path = self._path(root, rel_path)
        if self._tree.file_at(path) is not None:
            raise InvalidPathError(
                f"Refusing to make a folder over a file: {rel_path}", details={"path": rel_path}
            )
        if self._tree.is_dir(path):
            return False
        self._tree.mkdir(path)
        return True
