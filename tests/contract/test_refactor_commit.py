"""Contract suite of the ``RefactorCommit`` port, run against the journaled disk adapter and the
in-memory fake: all or nothing, conflicts before any write, a rollback on failure, a crash
injected after every step (the adapters' test hook) recovered by a new instance to exactly the
before or the after state; and no byte the plan did not read ever replaced: a save landing at
any step of the apply (even between a file's last check and its replacement) is kept and the
apply rolls back with ``CONFLICT``, and a save made after a crash survives the recovery."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.files.refactor_commit import JournaledCommit
from gno_adapters.inmemory.refactor_commit import InMemoryRefactorCommit
from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_core.errors import ConflictError, RuntimeFailure
from gno_core.ports.refactors import FileChange, KeptEdit, RefactorCommit

Hook = Callable[[str], None]


class Crash(BaseException):
    """A process killed at a step: nothing after it runs, not even a rollback."""


class Disk:
    def __init__(self, tmp: Path) -> None:
        self.root = str(tmp / "vault")
        os.makedirs(self.root)
        self.journals = str(tmp / "data" / "refactor-journal")

    def write(self, rel: str, data: bytes) -> None:
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)

    def append(self, rel: str, data: bytes) -> None:
        with open(os.path.join(self.root, rel), "ab") as handle:
            handle.write(data)

    def files(self) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for folder, dirs, names in os.walk(self.root):
            for name in names:
                path = os.path.join(folder, name)
                with open(path, "rb") as handle:
                    out[os.path.relpath(path, self.root)] = handle.read()
            for name in dirs:
                out.setdefault(os.path.relpath(os.path.join(folder, name), self.root) + "/", b"")
        return out

    def port(self, hook: Hook | None = None) -> RefactorCommit:
        return JournaledCommit(self.journals, hook)


class Memory:
    def __init__(self, tmp: Path) -> None:
        del tmp
        self.root = "/vault"
        self.tree = InMemorySourceTree()
        self.tree.mkdir(self.root)
        self.journals: dict[str, dict[str, Any]] = {}

    def write(self, rel: str, data: bytes) -> None:
        self.tree.write(f"{self.root}/{rel}", data)

    def append(self, rel: str, data: bytes) -> None:
        path = f"{self.root}/{rel}"
        self.tree.write(path, self.tree.read(path, 1 << 40) + data)

    def files(self) -> dict[str, bytes]:
        files: Any = self.tree._files
        return {p[len(self.root) + 1 :]: f.data for p, f in files.items()}

    def port(self, hook: Hook | None = None) -> RefactorCommit:
        return InMemoryRefactorCommit(self.tree, self.journals, hook)


@pytest.fixture(params=["disk", "memory"])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> Disk | Memory:
    return Disk(tmp_path) if request.param == "disk" else Memory(tmp_path)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


OLD, REF = b"# Old\r\nbody\n", b"see [[old]]\n"


def _vault(env: Disk | Memory) -> list[FileChange]:
    env.write("old.md", OLD)
    env.write("ref.md", REF)
    return [
        FileChange(env.root, "sub/new.md", None, OLD),
        FileChange(env.root, "old.md", _sha(OLD), None),
        FileChange(env.root, "ref.md", _sha(REF), b"see [[new]]\n"),
    ]


AFTER = {"sub/new.md": OLD, "ref.md": b"see [[new]]\n"}
STEPS = [
    "checked",
    "journal",
    "stage:0",
    "stage:1",
    "stage:2",
    "committing",
    "check:0",
    "apply:0",
    "check:1",
    "apply:1",
    "check:2",
    "apply:2",
    "committed",
    "cleaned",
]


def _notes(files: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in files.items() if not k.endswith("/")}


def test_a_commit_applies_every_change_and_leaves_nothing_behind(env: Disk | Memory) -> None:
    changes = _vault(env)
    seen: list[str] = []
    env.port(seen.append).commit(changes, "j1")
    assert seen == STEPS
    assert _notes(env.files()) == AFTER
    assert env.port().recover() == []


def test_a_changed_file_is_a_conflict_and_nothing_is_touched(env: Disk | Memory) -> None:
    changes = _vault(env)
    env.write("ref.md", b"edited meanwhile\n")
    before = env.files()
    with pytest.raises(ConflictError) as caught:
        env.port().commit(changes, "j1")
    assert caught.value.details["path"] == "ref.md"
    assert env.files() == before
    assert env.port().recover() == []


@pytest.mark.parametrize("step", ["stage:1", "committing", "apply:0", "apply:2"])
def test_a_failure_rolls_every_file_back(env: Disk | Memory, step: str) -> None:
    changes = _vault(env)
    before = env.files()

    def fail(at: str) -> None:
        if at == step:
            raise OSError(5, "injected I/O error")

    with pytest.raises((RuntimeFailure, OSError)) as caught:
        env.port(fail).commit(changes, "j1")
    if isinstance(caught.value, RuntimeFailure):
        assert caught.value.details["code"] == "failed_rolled_back"
    assert env.files() == before
    assert env.port().recover() == []


@pytest.mark.parametrize("step", STEPS)
def test_a_crash_at_any_step_recovers_to_before_or_after(env: Disk | Memory, step: str) -> None:
    changes = _vault(env)
    before = env.files()

    def crash(at: str) -> None:
        if at == step:
            raise Crash(at)

    with pytest.raises(Crash):
        env.port(crash).commit(changes, "j1")
    reports = env.port().recover()  # the next start
    assert len(reports) <= 1
    files = env.files()
    if STEPS.index(step) >= STEPS.index("committed"):
        assert _notes(files) == AFTER
    else:
        assert files == before, step
    assert env.port().recover() == []


# -- saves during the apply and after a crash: the user's bytes win ---------------------------

SAVED = b"a line saved by an editor\n"


def _saving(env: Disk | Memory, step: str, *rels: str) -> Hook:
    def save(at: str) -> None:
        if at == step:
            for rel in rels:
                env.append(rel, SAVED)

    return save


@pytest.mark.parametrize(
    ("step", "rel"),
    [
        ("stage:2", "ref.md"),
        ("committing", "ref.md"),
        ("apply:0", "ref.md"),
        ("check:2", "ref.md"),  # between the file's last check and its replacement
        ("check:1", "old.md"),  # between the source's last check and its removal
    ],
)
def test_a_save_during_the_apply_is_kept_and_nothing_else_changes(
    env: Disk | Memory, step: str, rel: str
) -> None:
    changes = _vault(env)
    before = env.files()
    with pytest.raises(ConflictError) as caught:
        env.port(_saving(env, step, rel)).commit(changes, "j1")
    assert caught.value.details["path"] == rel
    assert caught.value.details["rolledBack"] is True
    assert "kept" not in caught.value.details
    assert env.files() == {**before, rel: before[rel] + SAVED}
    assert env.port().recover() == []


def test_a_save_to_a_file_already_written_is_kept_when_a_later_one_conflicts(
    env: Disk | Memory,
) -> None:
    changes = _vault(env)
    before = env.files()
    with pytest.raises(ConflictError) as caught:
        env.port(_saving(env, "check:2", "sub/new.md", "ref.md")).commit(changes, "j1")
    assert caught.value.details["kept"] == [{"path": "sub/new.md", "copy": None}]
    assert _notes(env.files()) == {
        **_notes(before),
        "sub/new.md": OLD + SAVED,
        "ref.md": REF + SAVED,
    }


def test_a_save_after_the_file_was_written_stays_in_the_commit(env: Disk | Memory) -> None:
    changes = _vault(env)
    env.port(_saving(env, "apply:2", "ref.md")).commit(changes, "j1")
    assert _notes(env.files()) == {**AFTER, "ref.md": AFTER["ref.md"] + SAVED}


def _crash_at(step: str) -> Hook:
    def crash(at: str) -> None:
        if at == step:
            raise Crash(at)

    return crash


def test_recovery_keeps_a_save_made_after_the_crash_beside_a_conflict_copy(
    env: Disk | Memory,
) -> None:
    changes = _vault(env)
    with pytest.raises(Crash):
        env.port(_crash_at("apply:2")).commit(changes, "j1")
    env.append("ref.md", SAVED)  # the note the killed apply had rewritten
    [report] = env.port().recover()
    assert env.files() == {
        "old.md": OLD,
        "ref.md": b"see [[new]]\n" + SAVED,
        "ref.md.conflict-j1": REF,
    }
    assert report.outcome == "rolled_back"
    assert report.kept == (KeptEdit(env.root, "ref.md", "ref.md.conflict-j1"),)
    assert env.port().recover() == []


@pytest.mark.parametrize(("step", "rel"), [("committing", "ref.md"), ("apply:0", "old.md")])
def test_recovery_keeps_a_save_to_a_file_not_yet_written(
    env: Disk | Memory, step: str, rel: str
) -> None:
    changes = _vault(env)
    before = env.files()
    with pytest.raises(Crash):
        env.port(_crash_at(step)).commit(changes, "j1")
    env.append(rel, SAVED)
    [report] = env.port().recover()
    assert (report.outcome, report.kept) == ("rolled_back", ())
    assert env.files() == {**before, rel: before[rel] + SAVED}


def test_recovery_keeps_a_new_file_the_user_wrote_in(env: Disk | Memory) -> None:
    changes = _vault(env)
    with pytest.raises(Crash):
        env.port(_crash_at("apply:1")).commit(changes, "j1")
    env.append("sub/new.md", SAVED)
    [report] = env.port().recover()
    assert _notes(env.files()) == {"old.md": OLD, "ref.md": REF, "sub/new.md": OLD + SAVED}
    assert report.kept == (KeptEdit(env.root, "sub/new.md", None),)
