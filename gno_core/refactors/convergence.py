"""The index after a committed refactor: every written note indexed again, the old path
deactivated and pending links resolved (``Refactors`` runs it after the filesystem commit, not
in it). A note sync could not index that the plan edited as text is indexed when it now can
be, else its failure is recorded for its new bytes, as sync would record it."""

from __future__ import annotations

import hashlib
from collections import defaultdict

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.domain import IndexedDocument, IngestFailure, SyncBatch
from gno_core.errors import IngestError
from gno_core.indexing.ingest import TOO_LARGE, build_document
from gno_core.links.resolve import resolve_pending
from gno_core.ports import FrontmatterParser, NoteFiles
from gno_core.ports.index import Index
from gno_core.refactors.model import Plan
from gno_core.refactors.reading import SCAN_MAX_BYTES

__all__ = ["converge"]


def converge(
    plan: Plan, config: GnoConfig, notes: NoteFiles, parser: FrontmatterParser, index: Index
) -> None:
    collections = {c.name: c for c in config.collections}
    upserts: dict[str, list[IndexedDocument]] = defaultdict(list)
    failures: dict[str, list[IngestFailure]] = defaultdict(list)
    for change in plan.changes:
        if change.after is None:
            continue
        collection = next(
            (c for c in collections.values() if c.path == change.root), plan.collection
        )
        note = plan.notes.get((collection.name, change.rel_path))
        if note is not None and note.failed is not None:
            found = _ingest_failed(collection, change.rel_path, config, notes, parser)
            if isinstance(found, IngestFailure):
                failures[collection.name].append(found)
            else:
                upserts[collection.name].append(found)
            continue
        source, data = notes.read(change.root, change.rel_path, config.ingest.max_file_bytes)
        upserts[collection.name].append(
            build_document(collection, source, data, parser, config.chunking)
        )
    for name in sorted(set(upserts) | set(failures) | {plan.collection.name}):
        gone = (
            (plan.source,) if name == plan.collection.name and plan.operation != "duplicate" else ()
        )
        index.ledger.apply_batch(
            SyncBatch(
                name,
                upserts=tuple(upserts[name]),
                deactivate=gone,
                failures=tuple(failures[name]),
                renamed=tuple((source, plan.target) for source in gone),
            )
        )
    resolve_pending(index.links)


def _ingest_failed(
    collection: CollectionConfig,
    rel_path: str,
    config: GnoConfig,
    notes: NoteFiles,
    parser: FrontmatterParser,
) -> IndexedDocument | IngestFailure:
    limit = config.ingest.max_file_bytes
    source, data = notes.read(collection.path, rel_path, max(limit, SCAN_MAX_BYTES))
    sha = hashlib.sha256(data).hexdigest()
    try:
        if source.size > limit:
            raise IngestError(
                TOO_LARGE,
                f"File is {source.size} bytes, over the {limit}-byte limit (ingest.maxFileBytes)",
                rel_path=rel_path,
            )
        return build_document(collection, source, data, parser, config.chunking)
    except IngestError as exc:
        return IngestFailure(
            collection.name, rel_path, exc.reason, exc.message, sha, source.size, source.mtime_ns
        )
