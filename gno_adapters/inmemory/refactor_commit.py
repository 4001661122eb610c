"""``InMemoryRefactorCommit``: the ``RefactorCommit`` port over an ``InMemorySourceTree``, with
the same steps, hook names, checks, rollback and recovery as ``JournaledCommit`` (a save the
test makes at a step is kept: the file is compared again at the instant it is replaced, and a
rollback keeps a file changed since it was written beside a ``<file>.conflict-<id>`` copy); the
journals live in a dict the test keeps, so a "restart" is a new instance over the same tree and
journals."""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Sequence
from typing import Any

from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_core.errors import ConflictError, GnoError, InvalidPathError, RuntimeFailure
from gno_core.ports.refactors import FileChange, KeptEdit, RecoveryReport, kept_details

__all__ = ["InMemoryRefactorCommit"]


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


class InMemoryRefactorCommit:
    def __init__(
        self,
        tree: InMemorySourceTree,
        journals: dict[str, dict[str, Any]] | None = None,
        hook: Callable[[str], None] | None = None,
    ) -> None:
        self._tree = tree
        self.journals: dict[str, dict[str, Any]] = {} if journals is None else journals
        self._hook = hook or (lambda _step: None)

    def _path(self, root: str, rel_path: str) -> str:
        parts = rel_path.split("/")
        if not rel_path or any(p in ("", ".", "..") for p in parts):
            raise InvalidPathError(f"Not a safe relative path: {rel_path!r}")
        return posixpath.join(root, rel_path)

    def _bytes(self, path: str) -> bytes | None:
        if self._tree.file_at(path) is None:
            return None
        return self._tree.read(path, 1 << 40)

    def _conflict(self, rel_path: str) -> ConflictError:
        return ConflictError(
            f"{rel_path} changed since the plan was made", details={"path": rel_path}
        )

    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        for change in changes:
            if _sha(self._bytes(self._path(change.root, change.rel_path))) != change.before_sha256:
                error = self._conflict(change.rel_path)
                error.details["rolledBack"] = False
                raise error
        self._hook("checked")
        journal: dict[str, Any] = {
            "id": journal_id,
            "state": "prepared",
            "changes": [
                {
                    "root": c.root,
                    "relPath": c.rel_path,
                    "path": self._path(c.root, c.rel_path),
                    "before": c.before_sha256,
                    "after": _sha(c.after),
                    "staged": None,
                    "backup": None,
                    "applied": False,
                }
                for c in changes
            ],
        }
        self.journals[journal_id] = journal
        self._hook("journal")
        try:
            for i, (change, entry) in enumerate(zip(changes, journal["changes"], strict=True)):
                entry["staged"] = change.after
                self._hook(f"stage:{i}")
            journal["state"] = "committing"
            self._hook("committing")
            for i, entry in enumerate(journal["changes"]):
                self._apply(entry, i)
                self._hook(f"apply:{i}")
            journal["state"] = "committed"
            self._hook("committed")
        except (OSError, GnoError) as exc:
            kept = self._rollback(journal)
            if isinstance(exc, ConflictError):
                raise ConflictError(
                    exc.message,
                    details={**exc.details, "rolledBack": True, **kept_details(kept)},
                ) from exc
            raise RuntimeFailure(
                f"The change was rolled back: {exc}",
                details={
                    "code": "failed_rolled_back",
                    "journalId": journal_id,
                    **kept_details(kept),
                },
            ) from exc
        self.journals.pop(journal_id, None)
        self._hook("cleaned")

    def _apply(self, entry: dict[str, Any], i: int) -> None:
        """The file checked, then (after the hook, where a test saves it) the bytes it holds
        at the instant of the replacement compared again: a save in between wins."""
        path = entry["path"]
        if _sha(self._bytes(path)) != entry["before"]:
            raise self._conflict(entry["relPath"])
        self._hook(f"check:{i}")
        replaced = self._bytes(path)
        if _sha(replaced) != entry["before"]:
            raise self._conflict(entry["relPath"])  # the save stays where it is
        if entry["after"] is None:
            self._tree.remove(path)
        else:
            self._tree.write(path, entry["staged"])
        entry["backup"] = replaced
        entry["applied"] = True

    def _rollback(self, journal: dict[str, Any]) -> list[KeptEdit]:
        """Every applied file back, except one changed since it was written: kept, with the
        bytes a rollback would restore beside it (``<file>.conflict-<id>``)."""
        kept: list[KeptEdit] = []
        for entry in reversed(journal["changes"]):
            if not entry["applied"]:
                continue
            current = self._bytes(entry["path"])
            if entry["before"] is None:
                if current is not None and _sha(current) == entry["after"]:
                    self._tree.remove(entry["path"])
                elif current is not None:
                    kept.append(KeptEdit(entry["root"], entry["relPath"], None))
            elif current is None or _sha(current) == entry["after"]:
                self._tree.write(entry["path"], entry["backup"])
            elif current != entry["backup"]:
                kept.append(self._keep_aside(entry, journal["id"]))
        self.journals.pop(journal["id"], None)
        return kept

    def _keep_aside(self, entry: dict[str, Any], journal_id: str) -> KeptEdit:
        n = 1
        while True:
            copy = f"{entry['relPath']}.conflict-{journal_id}" + ("" if n == 1 else f"-{n}")
            if self._tree.file_at(self._path(entry["root"], copy)) is None:
                self._tree.write(self._path(entry["root"], copy), entry["backup"])
                return KeptEdit(entry["root"], entry["relPath"], copy)
            n += 1

    def recover(self) -> list[RecoveryReport]:
        reports: list[RecoveryReport] = []
        for journal_id in sorted(self.journals):
            journal = self.journals[journal_id]
            if journal["state"] == "committed":
                self.journals.pop(journal_id)
                reports.append(RecoveryReport(journal_id, "completed"))
            else:
                kept = self._rollback(journal)
                reports.append(RecoveryReport(journal_id, "rolled_back", tuple(kept)))
        return reports
