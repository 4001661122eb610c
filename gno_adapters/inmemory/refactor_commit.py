"""``InMemoryRefactorCommit``: the ``RefactorCommit`` port over an ``InMemorySourceTree``, with
the same steps, hook names, rollback and recovery as ``JournaledCommit``; the journals live in
a dict the test keeps, so a "restart" is a new instance over the same tree and journals."""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Sequence
from typing import Any

from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_core.errors import ConflictError, GnoError, InvalidPathError, RuntimeFailure
from gno_core.ports.refactors import FileChange, RecoveryReport

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

    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        for change in changes:
            if _sha(self._bytes(self._path(change.root, change.rel_path))) != change.before_sha256:
                raise ConflictError(
                    f"{change.rel_path} changed since the plan was made",
                    details={"path": change.rel_path},
                )
        self._hook("checked")
        journal: dict[str, Any] = {
            "id": journal_id,
            "state": "prepared",
            "changes": [
                {
                    "path": self._path(c.root, c.rel_path),
                    "before": c.before_sha256,
                    "after": _sha(c.after),
                    "staged": None,
                    "backup": None,
                }
                for c in changes
            ],
        }
        self.journals[journal_id] = journal
        self._hook("journal")
        try:
            for i, (change, entry) in enumerate(zip(changes, journal["changes"], strict=True)):
                entry["staged"] = change.after
                if change.before_sha256 is not None:
                    entry["backup"] = self._bytes(entry["path"])
                self._hook(f"stage:{i}")
            journal["state"] = "committing"
            self._hook("committing")
            for i, entry in enumerate(journal["changes"]):
                if entry["after"] is None:
                    self._tree.remove(entry["path"])
                else:
                    if entry["before"] is None and self._tree.file_at(entry["path"]) is not None:
                        raise RuntimeFailure(f"{entry['path']} appeared during the commit")
                    self._tree.write(entry["path"], entry["staged"])
                self._hook(f"apply:{i}")
            journal["state"] = "committed"
            self._hook("committed")
        except (OSError, GnoError) as exc:
            self._rollback(journal)
            raise RuntimeFailure(
                f"The change was rolled back: {exc}",
                details={"code": "failed_rolled_back", "journalId": journal_id},
            ) from exc
        self.journals.pop(journal_id, None)
        self._hook("cleaned")

    def _rollback(self, journal: dict[str, Any]) -> None:
        if journal["state"] != "prepared":
            for entry in reversed(journal["changes"]):
                current = self._bytes(entry["path"])
                if entry["before"] is None:
                    if entry["after"] is not None and _sha(current) == entry["after"]:
                        self._tree.remove(entry["path"])
                elif entry["backup"] is not None:
                    self._tree.write(entry["path"], entry["backup"])
        self.journals.pop(journal["id"], None)

    def recover(self) -> list[RecoveryReport]:
        reports: list[RecoveryReport] = []
        for journal_id in sorted(self.journals):
            journal = self.journals[journal_id]
            if journal["state"] == "committed":
                self.journals.pop(journal_id)
                reports.append(RecoveryReport(journal_id, "completed"))
            else:
                self._rollback(journal)
                reports.append(RecoveryReport(journal_id, "rolled_back"))
        return reports
