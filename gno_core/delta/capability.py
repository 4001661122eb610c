"""``Delta``: the reads of the change journal. ``changes`` pages the journal oldest first after
a time or a cursor (``changes@1.0``); ``diff`` answers one document's structural diff for one
change, by default its latest (``document-diff@1.0``). Bodies are never kept, so neither read
holds one: the diff says so (``content: not_retained``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_core.contracts import delta as wire
from gno_core.contracts.base import Prebuilt
from gno_core.errors import NotFoundError, ValidationError
from gno_core.identity import make_docid, make_uri, parse_ref
from gno_core.index_handle import IndexHandle
from gno_core.journal.cursor import decode_cursor, encode_cursor, is_cursor
from gno_core.journal.entries import JournalEntry, Snapshot
from gno_core.retrieval.dates import parse_bound
from gno_core.text.dates import iso_from_ns

if TYPE_CHECKING:
    from gno_core.contracts.delta_requests import ChangesRequest, DiffRequest
    from gno_core.documents import Documents
    from gno_core.ports.journal import ChangeJournal, JournalBounds

__all__ = ["Delta"]


class Delta:
    """The change journal's reads for one index."""

    def __init__(self, handle: IndexHandle, documents: Callable[[], Documents]) -> None:
        self.handle = handle
        self._documents = documents

    @property
    def _journal(self) -> ChangeJournal:
        return self.handle.index.journal

    def changes(self, request: ChangesRequest) -> wire.ChangesResult:
        """The page as the validated contract model (the Python API's form)."""
        return self.changes_wire(request).model()

    def changes_wire(self, request: ChangesRequest) -> Prebuilt[wire.ChangesResult]:
        """The page built straight in its wire form: up to 1,000 entries, where a model per
        entry and its serialisation would cost more than the read (``Prebuilt``)."""
        journal = self._journal
        bounds = journal.bounds()
        after, since_ns = bounds.purged_through, None
        expired = retention_truncated = False
        warnings: list[str] = []
        if request.since is not None and is_cursor(request.since):
            cursor = decode_cursor(request.since)
            if cursor.epoch != bounds.epoch:
                expired = True
                warnings.append(
                    "The cursor is of another change journal; starting at the oldest kept"
                )
            elif cursor.seq < bounds.purged_through:
                expired = True
                warnings.append(
                    "Retention dropped changes after the cursor; starting at the oldest kept"
                )
            else:
                after = cursor.seq
        elif request.since is not None:
            since_ns = _since_ns(request.since, self.handle.clock.now_ns())
            oldest = journal.entries(after=bounds.purged_through, limit=1)
            if bounds.purged_through and (not oldest or oldest[0].observed_ns > since_ns):
                retention_truncated = True
                warnings.append("The requested time is older than the change history kept")
        rows = journal.entries(
            after=after, since_ns=since_ns, collection=request.collection, limit=request.limit + 1
        )
        truncated = len(rows) > request.limit
        rows = rows[: request.limit]
        last = rows[-1].seq if rows else after
        next_seq = last if truncated else max(last, bounds.latest)
        epoch = bounds.epoch
        return Prebuilt(
            wire.ChangesResult,
            {
                "changes": [self._entry_wire(e, epoch) for e in rows],
                "page": {
                    "nextCursor": encode_cursor(epoch, next_seq),
                    "earliestCursor": encode_cursor(epoch, bounds.purged_through),
                    "latestCursor": encode_cursor(epoch, max(bounds.latest, last)),
                    "cursorExpired": expired,
                    "truncated": truncated,
                    "retentionTruncated": retention_truncated,
                },
                "warnings": warnings,
            },
        )

    def diff(self, request: DiffRequest) -> wire.DocumentDiff:
        journal = self._journal
        bounds = journal.bounds()
        collection, rel_path, document = self._document(request.ref, journal)
        if request.change is None:
            entry = journal.latest_for(collection, rel_path)
            if entry is None:
                status = "expired" if bounds.purged_through else "unavailable"
                return self._no_change(document, status, bounds)
        else:
            cursor = decode_cursor(request.change)
            if cursor.epoch != bounds.epoch or cursor.seq <= bounds.purged_through:
                return self._no_change(document, "expired", bounds)
            found = journal.entry(cursor.seq)
            if found is None:
                raise ValidationError(
                    "No change with this id in the journal", details={"change": request.change}
                )
            if not found.concerns(collection, rel_path):
                raise ValidationError(
                    "The change is not one of this document",
                    details={"change": request.change, "ref": request.ref},
                )
            entry = found
        delta = entry.delta
        history = (
            wire.DiffHistory(status="available")
            if not delta.truncated
            else wire.DiffHistory(
                status="partial",
                reason="structure_unknown_before_journal"
                if not delta.previous_known
                else "structure_delta_capped",
            )
        )
        return wire.DocumentDiff(
            status="available",
            document=document,
            change=self._entry(entry, bounds.epoch),
            history=history,
        )

    def _no_change(
        self, document: wire.DiffDocument, status: str, bounds: JournalBounds
    ) -> wire.DocumentDiff:
        reason = "retention_purged" if status == "expired" else "no_change_recorded"
        return wire.DocumentDiff(
            status="expired" if status == "expired" else "unavailable",
            document=document,
            change=None,
            history=wire.DiffHistory(status="unavailable", reason=reason),
            warnings=[
                "Retention dropped this change history"
                if status == "expired"
                else "The change journal has no change of this document"
            ],
        )

    def _document(self, ref: str, journal: ChangeJournal) -> tuple[str, str, wire.DiffDocument]:
        """The document ``ref`` names: indexed (active or not), else the journal's last
        snapshot of that path (a document renamed or removed)."""
        try:
            with self._documents().resolved(ref) as resolved:
                doc = resolved.document
                return (
                    doc.collection,
                    doc.rel_path,
                    wire.DiffDocument(
                        id=doc.docid,
                        uri=self.handle.uri(doc),
                        title=doc.meta.title,
                        collection=doc.collection,
                        rel_path=doc.rel_path,
                        active=doc.active,
                    ),
                )
        except NotFoundError:
            parsed = parse_ref(ref)
            if parsed.collection is None or parsed.rel_path is None:
                raise
            entry = journal.latest_for(parsed.collection, parsed.rel_path)
            if entry is None:
                raise
            snap = next(
                s
                for s in (entry.current, entry.previous)
                if s is not None
                and (s.collection, s.rel_path) == (parsed.collection, parsed.rel_path)
            )
            return (
                snap.collection,
                snap.rel_path,
                wire.DiffDocument(
                    id=make_docid(snap.source_hash),
                    uri=make_uri(snap.collection, snap.rel_path, self.handle.name),
                    title=snap.title,
                    collection=snap.collection,
                    rel_path=snap.rel_path,
                    active=snap.active,
                ),
            )

    def _snapshot(self, snap: Snapshot | None) -> wire.ChangeSnapshot | None:
        """Built unvalidated (``trusted``): the values come from gno's own journal, and a page
        holds up to 1,000 entries (the contract suite validates the answers)."""
        if snap is None:
            return None
        return wire.ChangeSnapshot.trusted(
            {
                "docid": make_docid(snap.source_hash),
                "uri": make_uri(snap.collection, snap.rel_path, self.handle.name),
                "collection": snap.collection,
                "rel_path": snap.rel_path,
                "source_hash": snap.source_hash,
                "mirror_hash": snap.mirror_hash,
                "title": snap.title,
                "active": snap.active,
            }
        )

    def _entry(self, entry: JournalEntry, epoch: str) -> wire.ChangeEntry:
        d = entry.delta
        sets = {
            name: wire.SetDelta.trusted({"added": list(s.added), "removed": list(s.removed)})
            for name, s in (
                ("headings", d.headings),
                ("links", d.links),
                ("edges", d.edges),
                ("dates", d.dates),
            )
        }
        delta = wire.StructureDelta.trusted(
            {**sets, "truncated": d.truncated, "previous_known": d.previous_known}
        )
        return wire.ChangeEntry.trusted(
            {
                "id": encode_cursor(epoch, entry.seq),
                "kind": entry.kind,
                "collection": entry.collection,
                "observed_at": iso_from_ns(entry.observed_ns),
                "previous": self._snapshot(entry.previous),
                "current": self._snapshot(entry.current),
                "structure_delta": delta,
            }
        )

    def _snapshot_wire(self, snap: Snapshot | None) -> dict[str, object] | None:
        if snap is None:
            return None
        out: dict[str, object] = {
            "docid": make_docid(snap.source_hash),
            "uri": make_uri(snap.collection, snap.rel_path, self.handle.name),
            "collection": snap.collection,
            "relPath": snap.rel_path,
            "sourceHash": snap.source_hash,
            "mirrorHash": snap.mirror_hash,
        }
        if snap.title is not None:
            out["title"] = snap.title
        out["active"] = snap.active
        return out

    def _entry_wire(self, entry: JournalEntry, epoch: str) -> dict[str, object]:
        d = entry.delta
        return {
            "id": encode_cursor(epoch, entry.seq),
            "kind": entry.kind,
            "collection": entry.collection,
            "observedAt": iso_from_ns(entry.observed_ns),
            "previous": self._snapshot_wire(entry.previous),
            "current": self._snapshot_wire(entry.current),
            "structureDelta": {
                "headings": {"added": list(d.headings.added), "removed": list(d.headings.removed)},
                "links": {"added": list(d.links.added), "removed": list(d.links.removed)},
                "edges": {"added": list(d.edges.added), "removed": list(d.edges.removed)},
                "dates": {"added": list(d.dates.added), "removed": list(d.dates.removed)},
                "truncated": d.truncated,
                "previousKnown": d.previous_known,
            },
        }


def _since_ns(value: str, now_ns: int) -> int:
    try:
        return parse_bound(value, now_ns)
    except ValidationError as exc:
        raise ValidationError(
            f"since is neither an ISO-8601 time nor a change cursor: {value!r}",
            details={"field": "since"},
        ) from exc
