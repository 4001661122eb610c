"""Change journal entries: the snapshots of a document before and after a change, the kind of
the change, and the bounds the journal keeps (caps per entry, retention).

Both index adapters build their entries here, in the transaction of the index change, so a
change and its entry are committed together or not at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from gno_core.journal.structure import Structure, StructureDelta, delta

__all__ = [
    "MAX_ENTRY_BYTES",
    "RETENTION",
    "ChangeKind",
    "JournalEntry",
    "Retention",
    "Snapshot",
    "build_entry",
]

ChangeKind = Literal["create", "update", "rename", "inactivate", "reactivate"]
#: An entry's stored payload is at most this many bytes (its delta is emptied and marked
#: truncated past it).
MAX_ENTRY_BYTES = 16 * 1024


@dataclass(frozen=True, slots=True)
class Retention:
    """What the journal keeps: entries younger than ``max_age_days``, at most ``max_entries``
    of them and ``max_bytes`` of payload; the oldest go first."""

    max_age_days: int = 30
    max_entries: int = 10_000
    max_bytes: int = 16 * 1024 * 1024

    @property
    def max_age_ns(self) -> int:
        return self.max_age_days * 86_400 * 1_000_000_000


RETENTION = Retention()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A document as the index held it at one side of a change (no body)."""

    collection: str
    rel_path: str
    source_hash: str
    mirror_hash: str
    active: bool
    title: str | None = None

    def to_store(self) -> list[object]:
        return [
            self.collection,
            self.rel_path,
            self.source_hash,
            self.mirror_hash,
            1 if self.active else 0,
            self.title,
        ]

    @staticmethod
    def from_store(data: list[Any] | None) -> Snapshot | None:
        if data is None:
            return None
        collection, rel_path, source_hash, mirror_hash, active, title = data
        return Snapshot(
            str(collection),
            str(rel_path),
            str(source_hash),
            str(mirror_hash),
            bool(active),
            title if isinstance(title, str) else None,
        )


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One committed change. ``seq`` orders the journal (strictly increasing, never reused);
    ``observed_ns`` is when the index change was committed."""

    seq: int
    kind: ChangeKind
    collection: str
    observed_ns: int
    previous: Snapshot | None
    current: Snapshot | None
    delta: StructureDelta

    @property
    def rel_path(self) -> str:
        side = self.current or self.previous
        assert side is not None
        return side.rel_path

    def concerns(self, collection: str, rel_path: str) -> bool:
        """Whether either side of the change is the document at ``rel_path``."""
        return any(
            s is not None and (s.collection, s.rel_path) == (collection, rel_path)
            for s in (self.previous, self.current)
        )

    def payload(self) -> str:
        """The stored form (without ``seq``, collection and time, which are columns)."""
        return _payload(self.kind, self.previous, self.current, self.delta)

    @staticmethod
    def from_row(
        seq: int, kind: str, collection: str, observed_ns: int, payload: str
    ) -> JournalEntry:
        previous, current, delta_ = json.loads(payload)
        return JournalEntry(
            seq,
            _kind(kind),
            collection,
            observed_ns,
            Snapshot.from_store(previous),
            Snapshot.from_store(current),
            StructureDelta.from_store(delta_),
        )


def _kind(kind: str) -> ChangeKind:
    if kind not in ("create", "update", "rename", "inactivate", "reactivate"):
        raise ValueError(f"unknown change kind {kind!r}")
    return kind  # type: ignore[return-value]


def _payload(
    kind: str, previous: Snapshot | None, current: Snapshot | None, d: StructureDelta
) -> str:
    # [previous, current, delta]: the kind, collection and time are columns of their own
    return json.dumps(
        [
            previous.to_store() if previous else None,
            current.to_store() if current else None,
            d.to_store(),
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


@dataclass(frozen=True, slots=True)
class PendingEntry:
    """An entry built in a write, before the store gives it a ``seq``."""

    kind: ChangeKind
    collection: str
    rel_path: str
    payload: str
    #: the path before a rename (None otherwise)
    previous_path: str | None = None
    #: UTF-8 bytes of ``payload``
    size: int = 0
    #: the collection before a collection rename (None otherwise)
    previous_collection: str | None = None


def build_entry(
    kind: ChangeKind,
    previous: Snapshot | None,
    current: Snapshot | None,
    old: Structure | None,
    new: Structure | None,
    *,
    previous_known: bool = True,
) -> PendingEntry:
    """The entry of one change, its delta capped (``MAX_ENTRY_BYTES`` at most)."""
    d = delta(old, new, previous_known=previous_known)
    payload = _payload(kind, previous, current, d)
    size = len(payload) if payload.isascii() else len(payload.encode("utf-8"))
    if size > MAX_ENTRY_BYTES:
        payload = _payload(
            kind, previous, current, StructureDelta(truncated=True, previous_known=previous_known)
        )
        size = len(payload.encode("utf-8"))
    side = current or previous
    assert side is not None
    before = previous.rel_path if previous is not None else None
    was_in = previous.collection if previous is not None else None
    return PendingEntry(
        kind,
        side.collection,
        side.rel_path,
        payload,
        before if before != side.rel_path else None,
        size,
        was_in if was_in != side.collection else None,
    )


def classify(
    previous: Snapshot | None, current: Snapshot, old: Structure | None, new: Structure
) -> ChangeKind | None:
    """The kind of an upsert of ``current`` over ``previous`` at the same path, or None when
    nothing the journal records changed (same hashes, same structure, still active)."""
    if previous is None:
        return "create"
    if not previous.active:
        return "reactivate"
    if old is None and new is not None:
        # indexed before the journal kept structures (re-extraction after an upgrade): only a
        # change of the document itself is one
        old = new
    if (
        previous.source_hash != current.source_hash
        or previous.mirror_hash != current.mirror_hash
        or previous.title != current.title
        or old != new
    ):
        return "update"
    return None
