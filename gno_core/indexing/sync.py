"""Sync: bring the index up to date with the files of collections, in atomic batches.

Per collection: walk the whole tree first (so ``total`` is known and removals are only decided
after a complete walk), then for every file

- same size and mtime as remembered, current ``INGEST_VERSION``, made by the extractor that
  would extract it now (``extractor_for``: a converter installed, removed or upgraded since
  changes it), active: unchanged, not read;
- same size and mtime as a remembered failure: still failed, not read (counted in ``failed``,
  not listed again: ``failures`` lists what this run found; the ledger keeps every record),
  unless it failed for want of a converter and one for its extension is installed now;
- otherwise read and hash: same hash, ingest version and extractor as the active document:
  ``touched`` (unchanged, new size/mtime remembered); else built and upserted: ``added`` (new,
  or failed before), ``updated`` (content, ingest version or extractor changed) or
  ``reactivated`` (came back after removal);
- with ``force`` (``gno update --force``), every file is read and extracted again (``updated``
  when it was active); chunks whose text did not change keep their vectors;
- a file that cannot be indexed is recorded as a failure and skipped; if it had an active
  document, that document is deactivated (its old content is not served as current).

Active paths the walk did not yield are deactivated (``removed``) and the failure records of
vanished paths end, in the last batches; a no-change sync writes nothing. A new file with the
same bytes as one of those documents was moved from it (``gno_core.indexing.moves``): its upsert
and the old path's deactivation go in one batch as a move, which the change journal records as
one ``rename``. Links are written
with their document; once every collection is done, the links left pending (new ones, and those
whose candidate targets appeared, changed names or went) are resolved (``gno_core.links``). Every ``apply_batch`` is atomic and deactivations come last, so a sync killed at any
moment leaves a valid index and the next run converges to the same final state.

A collection whose root is missing reports one ``PATH_NOT_FOUND`` failure (``relPath`` empty)
and keeps its documents as they are (an unmounted drive must not empty the index); the other
collections still sync. Store failures (``RUNTIME``) stop the sync: nothing could be saved.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from gno_core.config import LEGACY_CHUNKING_KEY, ChunkingConfig, CollectionConfig, IngestConfig
from gno_core.contracts.collections import CollectionSyncResult, SyncFailure, SyncResult
from gno_core.domain import (
    INGEST_VERSION,
    IngestFailure,
    SourceFile,
    SourceState,
)
from gno_core.errors import FILENAME_ENCODING, CancelledError, GnoError, IngestError
from gno_core.indexing.batch import PendingBatch
from gno_core.indexing.ingest import (
    CONVERTER_MISSING,
    TOO_LARGE,
    UNREADABLE,
    build_document,
    convert_limits,
    extractor_for,
)
from gno_core.indexing.moves import MoveCandidates
from gno_core.links.resolve import resolve_pending
from gno_core.ports.clock import Clock
from gno_core.ports.converters import DocumentConverter
from gno_core.ports.files import FrontmatterParser, SourceTree
from gno_core.ports.ledger import SyncLedger
from gno_core.ports.links import LinkStore
from gno_core.sources.key_stores import KEY_STORE, key_store_in

__all__ = ["SyncProgress", "Syncer"]

#: Progress is reported every this many files (and at the start and end of each collection).
PROGRESS_EVERY = 64


@dataclass(frozen=True, slots=True)
class SyncProgress:
    """Where a running sync is: ``done`` of ``total`` files of ``collection``, at ``path``."""

    collection: str
    done: int
    total: int
    path: str


class Syncer:
    """Syncs collections into a ``DocumentStore`` (see the module docstring for the rules)."""

    def __init__(
        self,
        ledger: SyncLedger,
        tree: SourceTree,
        parser: FrontmatterParser,
        clock: Clock,
        links: LinkStore | None = None,
        converter: DocumentConverter | None = None,
    ) -> None:
        self.ledger = ledger
        self.tree = tree
        self.parser = parser
        self.clock = clock
        self.links = links
        self.converter = converter

    def sync(
        self,
        collections: list[CollectionConfig],
        chunking: ChunkingConfig,
        ingest: IngestConfig,
        progress: Callable[[SyncProgress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        force: bool = False,
    ) -> SyncResult:
        """Sync ``collections`` in order; per-file problems are reported, never raised.
        ``CANCELLED`` at the next file once ``cancelled()`` is true: the pending batch is
        committed first (it is whole), removals are not decided (the walk was not finished).
        ``force``: extract every file again, changed or not."""
        started = self.clock.now_ns()
        results = [
            _CollectionSync(self, collection, chunking, ingest, force).run(progress, cancelled)
            for collection in collections
        ]
        if self.links is not None:
            # After every collection: a link may name a document of a collection synced later.
            resolve_pending(self.links)
        return SyncResult(
            collections=results,
            total_added=sum(r.added for r in results),
            total_updated=sum(r.updated for r in results),
            total_unchanged=sum(r.unchanged for r in results),
            total_removed=sum(r.removed for r in results),
            total_failed=sum(r.failed for r in results),
            duration_ms=_ms(self.clock.now_ns() - started),
            rechunked_mirrors=sum(r.rechunked_mirrors or 0 for r in results) or None,
        )


def _unindexable_message(source: SourceFile) -> str:
    if source.unindexable == FILENAME_ENCODING:
        what = "Folder" if source.rel_path.endswith("/") else "File"
        under = "; nothing under it is indexed" if what == "Folder" else ""
        return (
            f"{what} name is not valid UTF-8 (undecodable bytes shown as \\xNN){under}: "
            "rename it to index it"
        )
    return f"Cannot be indexed ({source.unindexable})"


def _ms(ns: int) -> float:
    return max(0, ns) / 1e6


class _CollectionSync:
    """One collection's run: counters, the pending batch and the per-file decisions."""

    def __init__(
        self,
        syncer: Syncer,
        collection: CollectionConfig,
        chunking: ChunkingConfig,
        ingest: IngestConfig,
        force: bool = False,
    ) -> None:
        # The syncer's ports, shared by every collection of the run.
        self.ledger, self.tree = syncer.ledger, syncer.tree
        self.parser, self.clock = syncer.parser, syncer.clock
        self.converter, self.limits = syncer.converter, convert_limits(ingest)
        self.collection = collection
        self.chunking = chunking
        self.ingest = ingest
        self.force = force
        #: extension -> the extractor that would extract it now (asked once per extension)
        self.extractors: dict[str, tuple[str, str]] = {}
        self.progress: Callable[[SyncProgress], None] | None = None
        self.batch = PendingBatch(self.ledger, collection.name, ingest.batch_size)
        self.added = self.updated = self.unchanged = self.removed = 0
        self.reactivated = self.failed = 0
        #: the mirrors of files chunked again only because the chunking policy changed (their
        #: text unchanged), by mirror hash: two files with the same text share one
        self.rechunked: set[str] = set()
        self.failures: list[SyncFailure] = []
        #: active documents whose paths the walk did not yield, which a new file may have
        #: moved from (``gno_core.indexing.moves``)
        self.moves = MoveCandidates({}, ())

    def run(
        self,
        progress: Callable[[SyncProgress], None] | None,
        cancelled: Callable[[], bool] | None = None,
    ) -> CollectionSyncResult:
        self.progress = progress
        started = self.clock.now_ns()
        name = self.collection.name
        try:
            root = self.collection.path.rstrip("/") + "/"
            files = [  # a key store is never read, wherever it sits (roots.KEY_STORES)
                f
                for f in self.tree.walk(
                    self.collection.path,
                    self.collection.pattern,
                    self.collection.include,
                    self.collection.exclude,
                )
                if key_store_in(root + f.rel_path) is None
            ]
        except GnoError as exc:
            self.failed = 1
            self.failures.append(SyncFailure(rel_path="", code=exc.code, message=exc.message))
            if exc.details.get("code") != KEY_STORE:
                return self._result(started)
            files = []  # the root is a key store: what was indexed from it goes inactive
        states = self.ledger.source_states(name)
        seen = {f.rel_path for f in files}
        self.moves = MoveCandidates(states, seen)
        total = len(files)
        self._report(0, total, "")
        for done, source in enumerate(files, 1):
            if cancelled is not None and cancelled():
                self.batch.commit()
                raise CancelledError(
                    f"Sync of {name} cancelled after {done - 1} of {total} files",
                    details={"collection": name, "done": done - 1, "total": total},
                )
            self._sync_file(source, states.get(source.rel_path))
            if done % PROGRESS_EVERY == 0:
                self._report(done, total, source.rel_path)
        for rel_path in sorted(states):
            if rel_path in seen:
                continue
            if states[rel_path].active:
                if rel_path not in self.moves.taken:  # a moved one went with its move
                    self.batch.add_deactivate(rel_path)
                self.removed += 1
            if states[rel_path].failed:
                # A failure is about a file: once the file is gone, so is the failure (else it
                # would stay in ``failed`` and ``gno status`` forever).
                self.batch.add_forget_failure(rel_path)
        self.batch.commit()
        self._report(total, total, "")
        return self._result(started)

    def _sync_file(self, source: SourceFile, state: SourceState | None) -> None:
        if state is not None and state.size == source.size and state.mtime_ns == source.mtime_ns:
            if state.failed and not self.force and not self._converter_arrived(source, state):
                self.failed += 1
                if state.active:  # a store that kept the old document: it is not current
                    self.batch.add_deactivate(source.rel_path)
                return
            if state.active and self._current(source, state):
                self.unchanged += 1
                return
        if source.unindexable is not None:
            self._fail(source, state, source.unindexable, _unindexable_message(source), None)
            return
        source_hash: str | None = None
        try:
            if source.size > self.ingest.max_file_bytes:
                raise IngestError(
                    TOO_LARGE,
                    f"File is {source.size} bytes, over the {self.ingest.max_file_bytes}-byte "
                    "limit (ingest.maxFileBytes)",
                    rel_path=source.rel_path,
                )
            data = self.tree.read(source.abs_path, self.ingest.max_file_bytes)
            source_hash = hashlib.sha256(data).hexdigest()
            if (
                state is not None
                and state.active
                and not state.failed
                and state.source_hash == source_hash
                and self._current(source, state)
            ):
                self.batch.add_touched(
                    SourceState(
                        source.rel_path,
                        source_hash,
                        source.size,
                        source.mtime_ns,
                        True,
                        INGEST_VERSION,
                    )
                )
                self.unchanged += 1
                return
            doc = build_document(
                self.collection,
                source,
                data,
                self.parser,
                self.chunking,
                source_hash=source_hash,
                converter=self.converter,
                limits=self.limits,
            )
        except IngestError as exc:
            self._fail(source, state, exc.reason, exc.message, source_hash)
            return
        except GnoError as exc:
            code = str(exc.details.get("code") or UNREADABLE)
            self._fail(source, state, code, exc.message, source_hash)
            return
        except Exception as exc:  # a bug on one file must not stop the sync of the others
            self._fail(source, state, "RUNTIME", f"{type(exc).__name__}: {exc}", source_hash)
            return
        if state is None or state.failed:
            self.added += 1
        elif not state.active:
            self.reactivated += 1
        else:
            self.updated += 1
            if state.source_hash == source_hash and self._policy_changed(state):
                self.rechunked.add(doc.mirror_hash)
        moved_from = None
        if self.moves and (state is None or not state.active):
            moved_from = self.moves.take(doc.source_hash)
        if moved_from is not None:
            self.batch.add_move(doc, moved_from)
        else:
            self.batch.add_upsert(doc)

    def _current(self, source: SourceFile, state: SourceState) -> bool:
        """Whether the stored document was extracted as this run would extract it: same
        ``INGEST_VERSION``, same extractor (``force`` says no)."""
        if self.force or state.ingest_version != INGEST_VERSION:
            return False
        if self._policy_changed(state):
            return False  # the chunking policy changed since: chunk it again
        if not state.converter_id:
            return True  # a store that does not say which extractor made it
        ext = posixpath.splitext(source.rel_path)[1].lower()
        extractor = self.extractors.get(ext)
        if extractor is None:
            extractor = self.extractors[ext] = extractor_for(ext, self.converter)
        return extractor == (state.converter_id, state.converter_version)

    def _policy_changed(self, state: SourceState) -> bool:
        return (state.chunking or LEGACY_CHUNKING_KEY) != self.chunking.policy_key()

    def _converter_arrived(self, source: SourceFile, state: SourceState) -> bool:
        """A file that failed for want of a converter is retried once one is installed."""
        if state.failure_code != CONVERTER_MISSING or self.converter is None:
            return False
        ext = posixpath.splitext(source.rel_path)[1].lower()
        return ext in self.converter.extensions()

    def _fail(
        self,
        source: SourceFile,
        state: SourceState | None,
        code: str,
        message: str,
        source_hash: str | None,
    ) -> None:
        self.failed += 1
        self.failures.append(SyncFailure(rel_path=source.rel_path, code=code, message=message))
        self.batch.add_failure(
            IngestFailure(
                collection=self.collection.name,
                rel_path=source.rel_path,
                code=code,
                message=message,
                source_hash=source_hash,
                size=source.size,
                mtime_ns=source.mtime_ns,
            ),
            deactivate=state is not None and state.active,
        )

    def _report(self, done: int, total: int, path: str) -> None:
        if self.progress is not None:
            self.progress(SyncProgress(self.collection.name, done, total, path))

    def _result(self, started: int) -> CollectionSyncResult:
        return CollectionSyncResult(
            collection=self.collection.name,
            added=self.added,
            updated=self.updated,
            unchanged=self.unchanged,
            removed=self.removed,
            reactivated=self.reactivated,
            failed=self.failed,
            failures=self.failures,
            duration_ms=_ms(self.clock.now_ns() - started),
            rechunked_mirrors=len(self.rechunked) or None,
        )
