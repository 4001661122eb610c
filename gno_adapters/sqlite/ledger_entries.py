"""The change journal entries the SQLite ledger writes with each index change, built from the
rows it reads or changes (``SNAP_COLUMNS``): an upsert's ``create``/``update``/``reactivate`` or
``rename`` (a move), an ``inactivate``, a collection rename's ``rename``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gno_core.domain import IndexedDocument
from gno_core.journal.entries import PendingEntry, Snapshot, build_entry, classify
from gno_core.journal.structure import Structure

__all__ = [
    "SNAP_COLUMNS",
    "collection_renamed",
    "inactivated",
    "snapshot",
    "upserted",
]


def snapshot(row: Sequence[object], active: bool | None = None) -> Snapshot:
    """A snapshot of a ``SNAP_COLUMNS`` row."""
    collection, rel_path, source_hash, mirror_hash, was_active, title = row[:6]
    return Snapshot(
        str(collection),
        str(rel_path),
        str(source_hash),
        str(mirror_hash),
        bool(was_active) if active is None else active,
        title if isinstance(title, str) else None,
    )


SNAP_COLUMNS = "collection, rel_path, source_hash, mirror_hash, active, title, structure, id"


def collection_renamed(row: Sequence[object], old: str) -> PendingEntry:
    """The ``rename`` entry of an active ``SNAP_COLUMNS`` row moved from collection ``old``."""
    structure = Structure.from_json(row[6] if isinstance(row[6], str) else None)
    current = snapshot(row)
    return build_entry(
        "rename",
        replace(current, collection=old),
        current,
        structure,
        structure,
        previous_known=structure is not None,
    )


def inactivated(row: Sequence[object]) -> PendingEntry:
    """The ``inactivate`` entry of a ``SNAP_COLUMNS`` row that was active."""
    before = Structure.from_json(row[6] if isinstance(row[6], str) else None)
    return build_entry(
        "inactivate",
        snapshot(row, active=True),
        snapshot(row, active=False),
        before,
        None,
        previous_known=before is not None,
    )


def upserted(
    item: IndexedDocument,
    old: Sequence[object] | None,
    structure: Structure,
    moved: dict[str, tuple[object, ...]],
) -> PendingEntry | None:
    """The entry of an upsert (``old``: the row at its path before; ``moved``: new path -> the
    row of the document that moved there), or None when nothing the journal records changed."""
    current = Snapshot(
        item.collection, item.rel_path, item.source_hash, item.mirror_hash, True, item.meta.title
    )
    source = moved.get(item.rel_path)
    if source is not None:
        before = Structure.from_json(source[6] if isinstance(source[6], str) else None)
        return build_entry(
            "rename",
            snapshot(source),
            current,
            before,
            structure,
            previous_known=before is not None,
        )
    previous = None
    before = None
    if old is not None:
        previous = Snapshot(
            str(old[4]),
            str(old[5]),
            str(old[6]),
            str(old[1]),
            bool(old[2]),
            old[3] if isinstance(old[3], str) else None,
        )
        before = Structure.from_json(old[7] if isinstance(old[7], str) else None)
    kind = classify(previous, current, before, structure)
    if kind is None:
        return None
    return build_entry(
        kind,
        previous,
        current,
        before,
        structure,
        previous_known=old is None or before is not None,
    )
