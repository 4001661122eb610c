"""``JournaledCommit`` against the saves an editor makes on disk during an apply, beyond what
the in-memory fake can model: a save that replaces the file (write a temporary file, rename
it over: a new inode, so the backup link no longer names the file checked), the same with no
atomic exchange (the plain-rename fallback), and a write through a descriptor opened before
the file was replaced (it lands in the replaced file: the last verification catches it)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gno_adapters.files import refactor_commit, refactor_rollback
from gno_adapters.files.refactor_commit import JournaledCommit
from gno_core.errors import ConflictError, GnoError
from gno_core.ports.refactors import FileChange

OLD, REF, NEW_REF = b"# Old\n", b"see [[old]]\n", b"see [[new]]\n"
SAVED = b"see [[old]]\nsaved by an editor\n"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(params=["exchange", "rename"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "rename":  # a system or file system without an atomic exchange
        for module in (refactor_commit, refactor_rollback):
            monkeypatch.setattr(module, "exchange", lambda *_args: False)
    yield request.param


def _setup(tmp_path: Path) -> tuple[Path, list[FileChange]]:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "old.md").write_bytes(OLD)
    (root / "ref.md").write_bytes(REF)
    return root, [
        FileChange(str(root), "new.md", None, OLD),
        FileChange(str(root), "old.md", _sha(OLD), None),
        FileChange(str(root), "ref.md", _sha(REF), NEW_REF),
    ]


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.iterdir()}


def _replace_save(root: Path) -> None:
    temp = root / ".ref.md.swp"
    temp.write_bytes(SAVED)
    os.replace(temp, root / "ref.md")


def _commit(
    tmp_path: Path, root: Path, changes: list[FileChange], hook: Callable[[str], None]
) -> None:
    with pytest.raises(ConflictError) as caught:
        JournaledCommit(str(tmp_path / "journal"), hook).commit(changes, "j1")
    assert caught.value.details["path"] == "ref.md"
    assert _files(root) == {"old.md": OLD, "ref.md": SAVED}
    assert JournaledCommit(str(tmp_path / "journal")).recover() == []


@pytest.mark.parametrize("step", ["committing", "check:2"])
def test_a_save_that_replaces_the_file_is_kept(tmp_path: Path, mode: str, step: str) -> None:
    root, changes = _setup(tmp_path)
    _commit(tmp_path, root, changes, lambda at: _replace_save(root) if at == step else None)


def test_a_save_in_place_between_check_and_replacement_is_kept(tmp_path: Path, mode: str) -> None:
    root, changes = _setup(tmp_path)

    def save(at: str) -> None:
        if at == "check:2":
            with open(root / "ref.md", "ab") as handle:
                handle.write(SAVED[len(REF) :])

    _commit(tmp_path, root, changes, save)


def test_a_write_through_a_descriptor_opened_before_the_replacement_is_kept(
    tmp_path: Path, mode: str
) -> None:
    root, changes = _setup(tmp_path)
    opened: list[int] = []

    def editor(at: str) -> None:
        if at == "check:2":  # the editor opens the file ...
            opened.append(os.open(root / "ref.md", os.O_WRONLY | os.O_APPEND))
        if at == "apply:2":  # ... and writes once it was replaced
            os.write(opened[0], SAVED[len(REF) :])
            os.close(opened[0])

    _commit(tmp_path, root, changes, editor)


def test_a_symlink_put_in_place_of_the_checked_file_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in (refactor_commit, refactor_rollback):  # the plain-rename fallback
        monkeypatch.setattr(module, "exchange", lambda *_args: False)
    root, changes = _setup(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_bytes(REF)  # the bytes checked, so only the link itself tells them apart

    def swap_in_link(at: str) -> None:
        if at == "check:2":
            (root / "ref.md").unlink()
            (root / "ref.md").symlink_to(outside)

    with pytest.raises(GnoError):
        JournaledCommit(str(tmp_path / "journal"), swap_in_link).commit(changes, "j1")
    assert (root / "ref.md").is_symlink() and os.readlink(root / "ref.md") == str(outside)
    assert outside.read_bytes() == REF and os.stat(outside).st_nlink == 1
