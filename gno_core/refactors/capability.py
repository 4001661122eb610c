"""``Refactors``: rename, move and duplicate a note without breaking a link to it.

Preview plans (``planner``) and answers with the content-free ``file-refactor-preview@1.0``.
Apply takes the plan of now under the write lease (the plan its preview made when every input
that plan read answers the same, ``inputs``; else a new plan), refuses anything but the exact
digest of that plan (``stale_plan``: a file changed since the preview, or the digest is not
this plan's), then
commits the moved note and every rewrite as one all-or-nothing step (``RefactorCommit``, with
its recovery journal) and converges the index afterwards: the index is not part of that step,
so an index failure leaves the files committed and answers ``applied_with_sync_pending``.
A journal a killed process left is finished (``RefactorCommit.recover``) before any refactor
and, under the same lease, before any sync (``IndexRuns.sync``: ``gno update``, ``index``, ``watch``)."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts.refactors import (
    DuplicateNoteRequest,
    FilesystemOutcome,
    IndexConvergence,
    MoveNoteRequest,
    RefactorApplyResult,
    RefactorPreview,
    RenameNoteRequest,
)
from gno_core.defaults import TOOL_WRITE_WAIT_SECONDS
from gno_core.documents import Documents
from gno_core.errors import ConflictError, GnoError, InvalidPathError, ValidationError
from gno_core.gc_pause import collector_paused
from gno_core.index_handle import IndexHandle
from gno_core.memory.area import in_facts_area
from gno_core.ports import FrontmatterParser, NoteFiles
from gno_core.ports.refactors import RefactorCommit
from gno_core.refactors.convergence import converge
from gno_core.refactors.inputs import Inputs, record
from gno_core.refactors.kept import joined, kept_text, rollback_text
from gno_core.refactors.model import Plan
from gno_core.refactors.planner import Planner
from gno_core.refactors.preview import to_preview
from gno_core.refactors.text import Edit, RawText, apply_edits
from gno_core.refactors.unseen import unseen_message
from gno_core.text.names import MARKDOWN_EXTENSIONS
from gno_core.writes.capture import check_indexable, check_rel_path

__all__ = ["Refactors"]

Request = RenameNoteRequest | MoveNoteRequest | DuplicateNoteRequest
#: Plans kept after a preview for its apply (by digest; the oldest goes first).
KEPT_PLANS = 4
#: Names tried for a duplicate without one: ``note-copy.md``, ``note-copy-2.md`` ...
MAX_COPIES = 100


@dataclass(frozen=True, slots=True)
class _Kept:
    """A plan made at preview, with what it was made from."""

    key: tuple[str, str, str, str]
    config: GnoConfig
    inputs: Inputs
    plan: Plan
    preview: RefactorPreview


class Refactors:
    def __init__(
        self,
        handle: IndexHandle,
        notes: NoteFiles,
        parser: FrontmatterParser,
        commit: RefactorCommit,
        documents: Callable[[], Documents],
    ) -> None:
        self.handle = handle
        self._notes = notes
        self._parser = parser
        self._commit = commit
        self._documents = documents
        self._kept: dict[str, _Kept] = {}

    # -- planning ---------------------------------------------------------------------------

    def _source(self, ref: str) -> tuple[CollectionConfig, str]:
        with self._documents().resolved(ref) as found:
            doc = found.document
        return self.handle.collection(doc.collection), doc.rel_path

    def _target(self, collection: CollectionConfig, source: str, request: Request) -> str:
        folder = posixpath.dirname(source)
        if not isinstance(request, RenameNoteRequest) and request.folder_path is not None:
            # Relative to the collection, as capture takes it: "/x" is refused (absolute),
            # never re-rooted inside the collection.
            raw = request.folder_path
            root = raw.strip(" ") in ("", ".", "./")
            folder = "" if root else check_rel_path(raw, "folderPath")
        stem, ext = posixpath.splitext(posixpath.basename(source))
        name = request.name
        if name is None and isinstance(request, DuplicateNoteRequest):
            for n in range(1, MAX_COPIES + 1):
                candidate = f"{stem}-copy{'' if n == 1 else f'-{n}'}{ext}"
                path = posixpath.join(folder, candidate) if folder else candidate
                if not self._notes.exists(collection.path, path):
                    return path
            raise ValidationError(f"No free copy name for {source} after {MAX_COPIES} tries")
        name = posixpath.basename(source) if name is None else check_rel_path(name, "name")
        if "/" in name:
            raise InvalidPathError(
                "name is one file name; put folders in folderPath", details={"path": name}
            )
        if posixpath.splitext(name)[1].lower() not in MARKDOWN_EXTENSIONS:
            name += ext
        return posixpath.join(folder, name) if folder else name

    def _plan(
        self, operation: str, request: Request, digest: str | None = None
    ) -> tuple[Plan, RefactorPreview]:
        """The plan of ``request`` and its preview. With the ``digest`` of a plan this object
        made (at preview), that plan when every input it read answers the same now (``inputs``);
        otherwise a new plan."""
        collection, source = self._source(request.ref)
        folder = getattr(request, "folder_path", None)
        if folder is not None and folder.strip().startswith("gno://"):
            other, _, path = folder.strip()[len("gno://") :].partition("/")
            if other.casefold() != collection.name.casefold():
                # Another collection: out of scope, refused before anything is read.
                target = posixpath.join(path.strip("/"), posixpath.basename(source))
                plan = Plan(operation, collection, source, target.lstrip("/"))
                plan.block("cross_collection_unsupported")
                plan.warnings.append(
                    f"{other} is another collection: moves stay in {collection.name}"
                )
                return plan, to_preview(plan, self.handle.name)
            request = request.model_copy(update={"folder_path": path})
        target = self._target(collection, source, request)
        config = self.handle.load_config()
        index = self.handle.index
        key = (operation, collection.name, source, target)
        kept = self._kept.get(digest) if digest is not None else None
        with collector_paused():
            if (
                kept is not None
                and kept.key == key
                and kept.config == config
                and kept.inputs.current(index.documents, index.links, self._notes, index.ledger)
            ):
                return kept.plan, kept.preview
            documents, links, notes, ledger, inputs = record(
                index.documents, index.links, self._notes, index.ledger
            )
            planner = Planner(config, documents, links, notes, self._parser, ledger)
            plan = planner.plan(operation, collection, source, target)
            try:
                check_indexable(collection, target)
            except InvalidPathError:
                plan.block("unsafe_target")
            _check_facts_area(plan)
            preview = to_preview(plan, self.handle.name)
        self._kept.pop(preview.plan_digest, None)
        self._kept[preview.plan_digest] = _Kept(key, config, inputs, plan, preview)
        while len(self._kept) > KEPT_PLANS:
            del self._kept[next(iter(self._kept))]
        return plan, preview

    def preview(self, operation: str, request: Request) -> RefactorPreview:
        return self._plan(operation, request)[1]

    def preview_with_diff(
        self, operation: str, request: Request
    ) -> tuple[RefactorPreview, list[str]]:
        """The preview and a readable diff of every edited line (for a person, never on the
        wire: it quotes the notes)."""
        plan, preview = self._plan(operation, request)
        return preview, _diff(plan)

    # -- applying ---------------------------------------------------------------------------

    def apply(
        self, operation: str, request: Request, *, lease_wait: float = TOOL_WRITE_WAIT_SECONDS
    ) -> RefactorApplyResult:
        digest = getattr(request, "plan_digest", None)
        with self.handle.writing(lease_wait, purpose=operation):
            recovered = kept_text(kept for r in self._commit.recover() for kept in r.kept)
            plan, preview = self._plan(operation, request, digest)
            self._kept.clear()  # an apply changes what every kept plan read
            if digest is not None and preview.plan_digest != digest:
                return _result(
                    preview,
                    "stale_plan",
                    "stale_plan",
                    "unchanged",
                    "not_attempted",
                    digest,
                    "The plan changed since the preview (or the digest is not this plan's): "
                    "preview again and apply the new digest",
                )
            if not preview.can_apply:
                return _result(
                    preview,
                    "unsupported",
                    preview.safety.blockers[0],
                    "unchanged",
                    "not_attempted",
                    digest,
                    "The plan is blocked: see the preview's safety",
                )
            journal_id = f"{preview.plan_digest[:16]}-{self.handle.clock.now_ns()}"
            try:
                self._commit.commit(plan.changes, journal_id)
            except ConflictError as exc:
                # A file saved since the plan read it (before the apply or during it): the
                # user's bytes are kept and every other file is as it was.
                rolled = exc.details.get("rolledBack") is True
                return _result(
                    preview,
                    "conflict",
                    "stale_plan",
                    "rolled_back" if rolled else "unchanged",
                    "not_attempted",
                    digest,
                    joined(exc.message, rollback_text(exc.details), recovered),
                )
            except GnoError as exc:
                stuck = exc.details.get("code") == "rollback_recovery_required"
                return _result(
                    preview,
                    "failed_rolled_back",
                    "rollback_recovery_required" if stuck else "filesystem_commit_failed",
                    "recovery_required" if stuck else "rolled_back",
                    "not_attempted",
                    digest,
                    joined(exc.message, rollback_text(exc.details), recovered),
                    journal_id if stuck else None,
                )
            try:
                self._converge(plan)
            except GnoError as exc:
                return _result(
                    preview,
                    "applied_with_sync_pending",
                    "sync_pending",
                    "committed",
                    "pending",
                    digest,
                    unseen_message(preview, joined(exc.message, recovered)),
                    instruction="Run `gno update` to index the change",
                )
        return _result(
            preview,
            "applied",
            None,
            "committed",
            "converged",
            digest,
            unseen_message(preview, recovered or None),
        )

    def run(
        self, operation: str, request: RenameNoteRequest | MoveNoteRequest
    ) -> RefactorPreview | RefactorApplyResult:
        """``action: preview`` or ``apply`` of ``request``."""
        if request.action == "apply":
            return self.apply(operation, request)
        return self.preview(operation, request)

    def duplicate(self, request: DuplicateNoteRequest) -> RefactorApplyResult:
        """A copy, planned and applied in one call (it adds a file and rewrites none)."""
        return self.apply("duplicate", request)

    def _converge(self, plan: Plan) -> None:
        converge(plan, self.handle.load_config(), self._notes, self._parser, self.handle.index)


def _check_facts_area(plan: Plan) -> None:
    """The facts area of a memory collection is remember's alone: a fact file is not moved,
    renamed, copied or edited (a fact linking to the note: ``read_only_document``), and nothing
    is moved or copied in (``unsafe_target``)."""
    collection = plan.collection
    if collection.memory_managed and in_facts_area(plan.source):
        plan.block("read_only_document")
        plan.warnings.append(
            f"{plan.source} is a fact of memory collection {collection.name}: facts are written "
            "by gno remember only (to replace one, remember the new text with --supersede)"
        )
    if collection.memory_managed and in_facts_area(plan.target):
        plan.block("unsafe_target")
        plan.warnings.append(
            f"{plan.target} is in the facts folder of memory collection {collection.name}, "
            "which only gno remember writes"
        )
    for (name, rel_path), data in sorted(plan.after.items()):
        note = plan.notes.get((name, rel_path))
        if (
            note is not None
            and note.collection.memory_managed
            and in_facts_area(rel_path)
            and (name, rel_path) != (collection.name, plan.source)
            and data != note.data
        ):
            plan.block("read_only_document")
            plan.warnings.append(
                f"{name}/{rel_path} is a fact that links to {plan.source}: the edit would make it "
                "no longer the fact remember wrote"
            )


def _result(
    preview: RefactorPreview,
    status: str,
    reason: str | None,
    filesystem: str,
    convergence: str,
    digest: str | None,
    message: str | None = None,
    journal_id: str | None = None,
    instruction: str | None = None,
) -> RefactorApplyResult:
    return RefactorApplyResult(
        status=status,
        plan_digest=digest or preview.plan_digest,
        operation=preview.operation,
        source=preview.source,
        target=preview.target,
        reason_code=reason,
        message=message,
        filesystem=FilesystemOutcome(state=filesystem, recovery_journal_id=journal_id),
        index_convergence=IndexConvergence(state=convergence, recovery_instruction=instruction),
    )


def _diff(plan: Plan) -> list[str]:
    """``--- file`` / ``+++ file`` and, per edited line, the line before and after."""
    by_line: dict[tuple[str, str], dict[int, list[Edit]]] = defaultdict(lambda: defaultdict(list))
    before: dict[tuple[str, str, int], str] = {}
    for ref in plan.references:
        edit = ref.edit
        if edit is None:
            continue
        raw = plan.notes[(ref.collection, ref.source_path)].raw
        assert raw is not None
        on_line = by_line[(ref.collection, edit.rel_path)][edit.line]
        if all(e.start_col != edit.start_col for e in on_line):
            on_line.append(edit)
        before[(ref.collection, edit.rel_path, edit.line)] = raw.lines[edit.line - 1]
    out: list[str] = []
    for (collection, rel_path), lines in sorted(by_line.items()):
        out += [f"--- {collection}/{rel_path}", f"+++ {collection}/{rel_path}"]
        for number, edits in sorted(lines.items()):
            old = before[(collection, rel_path, number)]
            one = RawText(False, (old,), ("",))
            moved = [Edit(e.rel_path, 1, e.start_col, e.end_col, e.replacement) for e in edits]
            new = apply_edits(one, moved).decode("utf-8")
            out += [f"@@ line {number}", f"-{old}", f"+{new}"]
    return out
