"""Links the index does not hold, for a refactor: the notes sync could not index (the sync
ledger's failures), read as text, and the warning that names a note a plan could not read, or
not whole (``reading.SCAN_MAX_BYTES``, ``SCAN_MAX_LINKS``), with why: a plan never claims to
have seen a note it did not."""

from __future__ import annotations

import posixpath

from gno_core.config import GnoConfig
from gno_core.contracts.refactors import RefactorPreview
from gno_core.ports import SyncLedger
from gno_core.refactors.model import Note, Plan
from gno_core.refactors.reading import SCAN_MAX_LINKS, NoteReader
from gno_core.text.names import MARKDOWN_EXTENSIONS

__all__ = ["names_it", "truncated", "unindexed", "unseen", "unseen_message"]


def unindexed(
    config: GnoConfig, ledger: SyncLedger, reader: NoteReader, plan: Plan, names: set[str]
) -> list[Note]:
    """The notes sync could not index that have a link naming one of ``names`` (the moved
    note's), read as text and kept in ``plan.notes``; the ones that cannot be read so are
    named in the plan's warnings. Only Markdown files: no other file has links."""
    notes: list[Note] = []
    for collection in config.collections:
        for failure in ledger.failures(collection.name):
            key = (collection.name, failure.rel_path)
            ext = posixpath.splitext(failure.rel_path)[1].lower()
            if key in plan.notes or ext not in MARKDOWN_EXTENSIONS:
                continue
            found = reader.scan(collection, failure.rel_path, failure.code)
            if isinstance(found, str):
                unseen(plan, key, found)
            elif found is not None and names_it(found, names):
                truncated(plan, found)
                plan.notes[key] = found
                notes.append(found)
    return notes


def names_it(note: Note, names: set[str]) -> bool:
    """Whether a link of ``note`` could name a note carrying ``names``."""
    return any(names.intersection(link.keys) for link in note.links)


def unseen(plan: Plan, key: tuple[str, str], why: str) -> None:
    """Name the note ``key`` (collection, path) the plan could not read, with ``why``."""
    plan.warnings.append(
        f"{key[0]}/{key[1]} was not scanned for links ({why}): any link there to "
        f"{plan.collection.name}/{plan.source} is left as it is"
    )


def truncated(plan: Plan, note: Note) -> None:
    """Name ``note`` when its links past ``SCAN_MAX_LINKS`` were not read."""
    if note.truncated:
        unseen(
            plan,
            (note.collection.name, note.rel_path),
            f"links past its first {SCAN_MAX_LINKS:,} are not read",
        )


def unseen_message(preview: RefactorPreview, message: str | None = None) -> str | None:
    """An apply result's ``message`` with the plan's warnings: an applied plan that could not
    read every note does not answer as if no link were left broken."""
    warnings = preview.safety.warnings
    if not warnings:
        return message
    said = "Applied; not every link could be checked: " + "; ".join(warnings)
    return said if message is None else f"{message}\n{said}"
