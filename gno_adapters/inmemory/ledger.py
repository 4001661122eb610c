"""``InMemoryLedger``: the ``SyncLedger`` port in memory."""

from __future__ import annotations

from dataclasses import replace

from gno_adapters.inmemory import bm25, journal
from gno_adapters.inmemory.state import InMemoryState, _Row, normalize_tag
from gno_core.domain import (
    Chunk,
    FailureRecord,
    IndexedDocument,
    IngestFailure,
    SourceState,
    StoredDocument,
    SyncBatch,
)
from gno_core.errors import DuplicateError
from gno_core.identity import make_docid
from gno_core.journal.entries import PendingEntry, Snapshot, build_entry, classify
from gno_core.journal.structure import Structure, structure_of
from gno_core.text.dates import iso_from_ns, parse_document_date
from gno_core.text.embedding_key import embedding_key


class InMemoryLedger:
    """The ``SyncLedger`` port."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state

    def source_states(self, collection: str) -> dict[str, SourceState]:
        out: dict[str, SourceState] = {}
        for (coll, rel), row in self._s.rows.items():
            if coll == collection:
                d = row.doc
                out[rel] = SourceState(
                    rel,
                    d.source_hash,
                    d.source_size,
                    d.source_mtime_ns,
                    d.active,
                    row.ingest_version,
                    converter_id=d.converter_id,
                    converter_version=d.converter_version,
                    chunking=row.chunking,
                )
        for (coll, rel), rec in self._s.failures.items():
            if coll != collection:
                continue
            f = rec.failure
            known = out.get(rel)
            out[rel] = SourceState(
                rel_path=rel,
                source_hash=f.source_hash or (known.source_hash if known else ""),
                size=f.size,
                mtime_ns=f.mtime_ns,
                active=known.active if known else False,
                ingest_version=known.ingest_version if known else 0,
                failed=True,
                failure_code=f.code,
                chunking=known.chunking if known else None,
            )
        return out

    def failures(self, collection: str) -> list[IngestFailure]:
        return [
            rec.failure
            for (coll, _), rec in sorted(self._s.failures.items(), key=lambda kv: kv[0])
            if coll == collection
        ]

    def apply_batch(self, batch: SyncBatch) -> None:
        now_ns = self._s.clock.now_ns()
        now = iso_from_ns(now_ns)
        coll = batch.collection
        entries: list[PendingEntry] = []
        upserted = {u.rel_path for u in batch.upserts}
        moved: dict[str, tuple[Snapshot, Structure | None]] = {}
        for old_path, new_path in batch.renamed:
            source = self._s.rows.get((coll, old_path))
            if source is not None and source.doc.active and new_path in upserted:
                moved[new_path] = (_snap(source), source.structure)
        went = {snap.rel_path for snap, _ in moved.values()}  # journaled by their ``rename``
        for item in batch.upserts:
            self._upsert(item, now, entries, moved)
        for state in batch.touched:
            row = self._s.rows.get((coll, state.rel_path))
            if row is not None:
                doc = row.doc._replace(source_size=state.size, source_mtime_ns=state.mtime_ns)
                if state.active and not row.doc.active:
                    entries.append(
                        build_entry(
                            "reactivate",
                            _snap(row),
                            _snap(row, active=True),
                            row.structure,
                            row.structure,
                            previous_known=row.structure is not None,
                        )
                    )
                    doc = doc._replace(active=True)
                    self._s.links.mark_names((coll, state.rel_path))
                    self._s.links.mark_links_of((coll, state.rel_path))
                row.doc = doc
                row.date_ns = parse_document_date(doc.meta.date) or doc.source_mtime_ns
        for rel in batch.deactivate:
            row = self._s.rows.get((coll, rel))
            if row is not None and row.doc.active:
                if rel not in went:
                    entries.append(_inactivated(row))
                row.doc = row.doc._replace(active=False)
                self._s.links.mark_names((coll, rel))
        for rel in batch.forget_failures:
            self._s.failures.pop((coll, rel), None)
            self._s.failure_seq.pop((coll, rel), None)
        for failure in batch.failures:
            key = (failure.collection, failure.rel_path)
            self._s.seq += 1
            self._s.failures[key] = FailureRecord(failure, now)
            self._s.failure_seq[key] = self._s.seq
        self._collect_garbage()
        journal.append(self._s, entries, now_ns)

    def _upsert(
        self,
        item: IndexedDocument,
        now: str,
        entries: list[PendingEntry],
        moved: dict[str, tuple[Snapshot, Structure | None]],
    ) -> None:
        key = (item.collection, item.rel_path)
        old = self._s.rows.get(key)
        structure = structure_of(item)
        current = Snapshot(
            item.collection,
            item.rel_path,
            item.source_hash,
            item.mirror_hash,
            True,
            item.meta.title,
        )
        if item.rel_path in moved:
            source, before = moved[item.rel_path]
            entries.append(
                build_entry(
                    "rename",
                    source,
                    current,
                    before,
                    structure,
                    previous_known=before is not None,
                )
            )
        else:
            previous = _snap(old) if old is not None else None
            before = old.structure if old is not None else None
            kind = classify(previous, current, before, structure)
            if kind is not None:
                entries.append(
                    build_entry(
                        kind,
                        previous,
                        current,
                        before,
                        structure,
                        previous_known=old is None or before is not None,
                    )
                )
        self._s.links.replace_names(key, item.names, old is not None and old.doc.active)
        self._s.links.replace_links(key, item.links)
        self._s.content[item.mirror_hash] = item.markdown
        chunks = tuple(sorted(item.chunks, key=lambda c: c.seq))
        if self._s.chunks.get(item.mirror_hash) != chunks:
            self._drop_vectors({item.mirror_hash})
            if old is not None and old.doc.mirror_hash != item.mirror_hash:
                self._carry_vectors(old.doc, item, chunks)
        self._s.chunks[item.mirror_hash] = chunks
        doc = StoredDocument(
            collection=item.collection,
            rel_path=item.rel_path,
            abs_path=item.abs_path,
            docid=make_docid(item.source_hash),
            source_hash=item.source_hash,
            source_mime=item.source_mime,
            source_ext=item.source_ext,
            source_size=item.source_size,
            source_mtime_ns=item.source_mtime_ns,
            mirror_hash=item.mirror_hash,
            meta=item.meta,
            converter_id=item.converter_id,
            converter_version=item.converter_version,
            active=True,
            indexed_at=now,
            converter_warnings=item.converter_warnings,
        )
        fields = (
            bm25.index_tokens(item.rel_path),
            bm25.index_tokens(item.meta.title or ""),
            bm25.index_tokens(item.markdown),
        )
        tags = frozenset(normalize_tag(t) for t in item.meta.tags if t.strip())
        date_ns = parse_document_date(item.meta.date) or item.source_mtime_ns
        self._s.rows[key] = _Row(
            doc,
            item.ingest_version,
            fields,
            tags,
            date_ns,
            item.fact,
            item.chunking,
            item.metadata,
            structure,
        )
        self._s.failures.pop(key, None)
        self._s.failure_seq.pop(key, None)

    def _carry_vectors(
        self, old: StoredDocument, item: IndexedDocument, chunks: tuple[Chunk, ...]
    ) -> None:
        """Chunks whose embedded text is unchanged take the vectors of the old mirror's."""
        keys = {
            embedding_key(c.text, c.start_line, old.meta.title): c.seq
            for c in self._s.chunks.get(old.mirror_hash, ())
        }
        for chunk in chunks:
            seq = keys.get(embedding_key(chunk.text, chunk.start_line, item.meta.title))
            if seq is None:
                continue
            for space in self._s.vectors.values():
                vector = space.get((old.mirror_hash, seq))
                if vector is not None:
                    space.setdefault((item.mirror_hash, chunk.seq), vector)

    def _collect_garbage(self) -> None:
        used = {row.doc.mirror_hash for row in self._s.rows.values()}
        gone = {m for m in self._s.content if m not in used}
        for mirror in gone:
            del self._s.content[mirror]
            self._s.chunks.pop(mirror, None)
        self._drop_vectors(gone)

    def _drop_vectors(self, mirrors: set[str]) -> None:
        if not mirrors:
            return
        for space in self._s.vectors.values():
            for key in [k for k in space if k[0] in mirrors]:
                del space[key]

    def deactivate_collection(self, collection: str) -> int:
        changed = 0
        entries: list[PendingEntry] = []
        for (coll, _), row in sorted(self._s.rows.items(), key=lambda kv: kv[0]):
            if coll == collection and row.doc.active:
                entries.append(_inactivated(row))
                row.doc = row.doc._replace(active=False)
                self._s.links.mark_names((coll, row.doc.rel_path))
                changed += 1
        journal.append(self._s, entries, self._s.clock.now_ns())
        return changed

    def rename_collection(self, old: str, new: str) -> None:
        if old == new:
            return
        if any(c == new and r.doc.active for (c, _), r in self._s.rows.items()):
            raise DuplicateError(
                f"Collection {new!r} already has indexed documents", details={"name": new}
            )
        # Inactive rows of the target are stale leftovers of a removed collection.
        self._s.links.move_collection(old, new)
        for key in [k for k in self._s.rows if k[0] == new]:
            del self._s.rows[key]
        for key in [k for k in self._s.failures if k[0] == new]:
            del self._s.failures[key]
            del self._s.failure_seq[key]
        entries: list[PendingEntry] = []
        for key in sorted(k for k in self._s.rows if k[0] == old):
            row = self._s.rows.pop(key)
            before = _snap(row)
            row.doc = row.doc._replace(collection=new)
            self._s.rows[(new, key[1])] = row
            if before.active:  # its URI changes: one rename (an inactive one has none)
                entries.append(
                    build_entry(
                        "rename",
                        before,
                        _snap(row),
                        row.structure,
                        row.structure,
                        previous_known=row.structure is not None,
                    )
                )
        for key in [k for k in self._s.failures if k[0] == old]:
            rec = self._s.failures.pop(key)
            self._s.failures[(new, key[1])] = FailureRecord(
                replace(rec.failure, collection=new), rec.occurred_at
            )
            self._s.failure_seq[(new, key[1])] = self._s.failure_seq.pop(key)
        self._collect_garbage()
        journal.append(self._s, entries, self._s.clock.now_ns())


def _snap(row: _Row, active: bool | None = None) -> Snapshot:
    d = row.doc
    return Snapshot(
        d.collection,
        d.rel_path,
        d.source_hash,
        d.mirror_hash,
        d.active if active is None else active,
        d.meta.title,
    )


def _inactivated(row: _Row) -> PendingEntry:
    return build_entry(
        "inactivate",
        _snap(row),
        _snap(row, active=False),
        row.structure,
        None,
        previous_known=row.structure is not None,
    )
