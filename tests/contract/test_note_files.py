"""Contract suite of the ``NoteFiles`` port, run against the disk adapter and the in-memory
fake; the disk adapter also against symlinks (never followed out of the root)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from gno_adapters.files.notes import TEMP_PREFIX, LocalNoteFiles
from gno_adapters.inmemory.notes import InMemoryNoteFiles
from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_core.errors import (
    DuplicateError,
    InvalidPathError,
    NotFoundError,
    PathNotFoundError,
    ValidationError,
)
from gno_core.ports import NoteFiles


@pytest.fixture(params=["disk", "memory"])
def files(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[NoteFiles, str]]:
    root = tmp_path / "root"
    if request.param == "disk":
        root.mkdir()
        yield LocalNoteFiles(), str(root)
    else:
        tree = InMemorySourceTree()
        tree.mkdir(str(root))
        yield InMemoryNoteFiles(tree), str(root)


def test_create_is_exclusive_and_makes_folders(files: tuple[NoteFiles, str]) -> None:
    notes, root = files
    written = notes.create(root, "a/b/note.md", b"hello", replace=False)
    assert (written.rel_path, written.size) == ("a/b/note.md", 5)
    assert notes.exists(root, "a/b/note.md") and notes.exists(root, "a/b")
    with pytest.raises(DuplicateError):
        notes.create(root, "a/b/note.md", b"other", replace=False)
    assert notes.read(root, "a/b/note.md", 100)[1] == b"hello"
    notes.create(root, "a/b/note.md", b"replaced", replace=True)
    assert notes.read(root, "a/b/note.md", 100)[1] == b"replaced"


def test_unsafe_paths_and_missing_roots(files: tuple[NoteFiles, str]) -> None:
    notes, root = files
    for bad in ("../x.md", "a/../x.md", "", "a//b.md", "a\x00.md"):
        with pytest.raises(InvalidPathError):
            notes.create(root, bad, b"x", replace=False)
    with pytest.raises(PathNotFoundError):
        notes.create(root + "-missing", "x.md", b"x", replace=False)
    with pytest.raises(NotFoundError):
        notes.read(root, "missing.md", 10)
    notes.create(root, "file.md", b"x", replace=False)
    with pytest.raises(InvalidPathError):
        notes.create(root, "file.md/inside.md", b"x", replace=False)


def test_folders(files: tuple[NoteFiles, str]) -> None:
    notes, root = files
    assert notes.make_folder(root, "p/q") is True
    assert notes.make_folder(root, "p/q") is False
    notes.create(root, "p/q/n.md", b"x", replace=False)
    with pytest.raises(InvalidPathError):
        notes.make_folder(root, "p/q/n.md")


def test_resolve_folder(files: tuple[NoteFiles, str]) -> None:
    notes, root = files
    notes.make_folder(root, "sub")
    assert notes.resolve_folder(root + "/sub/") == root + "/sub"
    with pytest.raises(PathNotFoundError):
        notes.resolve_folder(root + "/missing")
    with pytest.raises(ValidationError):
        notes.resolve_folder("relative/dir")
    assert notes.home().startswith("/")


def test_symlinked_folders_are_never_followed(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "link").symlink_to(outside)
    (root / "file-link.md").symlink_to(outside / "target.md")
    notes = LocalNoteFiles()
    for rel in ("link/x.md", "link/deeper/x.md"):
        with pytest.raises(InvalidPathError):
            notes.create(root.as_posix(), rel, b"x", replace=False)
    with pytest.raises(InvalidPathError):
        notes.make_folder(root.as_posix(), "link/sub")
    with pytest.raises(DuplicateError):
        notes.create(root.as_posix(), "file-link.md", b"x", replace=False)
    with pytest.raises(InvalidPathError):
        notes.read(root.as_posix(), "file-link.md", 10)
    assert list(outside.iterdir()) == []


def test_stale_temporary_files_are_swept(tmp_path: Path) -> None:
    stale = tmp_path / f"{TEMP_PREFIX}123-abc.tmp"
    stale.write_bytes(b"partial")
    os.utime(stale, (0, 0))
    LocalNoteFiles().create(tmp_path.as_posix(), "n.md", b"x", replace=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.md"]
