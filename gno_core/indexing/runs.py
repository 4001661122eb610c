"""Indexing runs: sync files into the index, embed the chunks that lack vectors for the current
model, or both in one ``index`` run. A sync holds the write lease for its whole length; an
embedding run only for each batch's read and commit, so writes never wait on the model (see
``gno_core.indexing.embedding``). Both stop at the next batch boundary once ``cancelled()`` turns
true (``CANCELLED``; the batches already committed stay)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from gno_core.contracts import SyncResult
from gno_core.contracts.collections import RecoveredEdit
from gno_core.contracts.embedding import EmbedResult, IndexResult
from gno_core.defaults import WRITE_WAIT_SECONDS
from gno_core.index_handle import IndexHandle
from gno_core.indexing.collections import Collections
from gno_core.indexing.embedding import (
    DEFAULT_BATCH_SIZE,
    BacklogEmbedder,
    EmbedProgress,
    Writing,
)
from gno_core.indexing.sync import Syncer, SyncProgress
from gno_core.ports import Cancelled, FrontmatterParser, SemanticModels, SourceTree
from gno_core.ports.converters import DocumentConverter
from gno_core.ports.lease import LeaseOptions
from gno_core.ports.refactors import RefactorCommit
from gno_core.retrieval.vector import require_embedder

__all__ = ["IndexRuns"]


class EmbedOptions(LeaseOptions, total=False):
    """How ``embed`` runs: batch size, every chunk again (``force``), counting only
    (``dry_run``), a progress callback, and the write-lease wait and cancellation check."""

    batch_size: int
    force: bool
    dry_run: bool
    progress: Callable[[EmbedProgress], None] | None


class IndexOptions(LeaseOptions, total=False):
    """How ``index`` runs: whether to embed after the sync, the batch size, progress callbacks
    for each step, and the write-lease wait and cancellation check."""

    embed: bool
    batch_size: int
    sync_progress: Callable[[SyncProgress], None] | None
    embed_progress: Callable[[EmbedProgress], None] | None


class IndexRuns:
    def __init__(
        self,
        handle: IndexHandle,
        collections: Collections,
        tree: SourceTree,
        frontmatter: FrontmatterParser,
        models: SemanticModels,
        converter: DocumentConverter | None = None,
        refactor_commit: RefactorCommit | None = None,
    ) -> None:
        self.handle = handle
        self.collections = collections
        self._tree = tree
        self._frontmatter = frontmatter
        self._models = models
        self._converter = converter
        self._refactor_commit = refactor_commit

    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
        *,
        lease_wait: float = WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
        force: bool = False,
    ) -> SyncResult:
        """Bring the index up to date with the files of ``collections`` (all when None),
        after finishing, under the same lease, a rename or move a killed process left.
        ``force``: extract every file again, changed or not (``gno update --force``)."""
        with self.handle.writing(lease_wait, cancelled, purpose="sync"):
            reports = [] if self._refactor_commit is None else self._refactor_commit.recover()
            config = self.handle.load_config()
            chosen = self.collections.chosen(collections)
            index = self.handle.index
            service = Syncer(
                index.ledger,
                self._tree,
                self._frontmatter,
                self.handle.clock,
                index.links,
                self._converter,
            )
            result = service.sync(
                chosen, config.chunking, config.ingest, progress, cancelled, force=force
            )
        names = {c.path: c.name for c in config.collections}
        recovered = [
            RecoveredEdit(
                collection=names.get(kept.root, kept.root),
                rel_path=kept.rel_path,
                conflict_copy=kept.copy_rel_path,
                journal_id=report.journal_id,
            )
            for report in reports
            for kept in report.kept
        ]
        if recovered:
            result.recovered_edits = recovered
        return result

    def embed(
        self,
        collections: list[str] | None = None,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        force: bool = False,
        dry_run: bool = False,
        progress: Callable[[EmbedProgress], None] | None = None,
        lease_wait: float = WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> EmbedResult:
        """Embed the chunks that have no vector for the current model (all with ``force``),
        committing batch by batch; ``MODEL_UNAVAILABLE`` without a model."""
        embedder = require_embedder(self._models)
        names = self.collections.names(collections)
        service = BacklogEmbedder(self.handle.index, embedder, self.handle.clock)
        if dry_run:
            return service.run(names, batch_size=batch_size, dry_run=True)
        return service.run(
            names,
            batch_size=batch_size,
            force=force,
            progress=progress,
            cancelled=cancelled,
            writing=self._batch_lease(lease_wait, cancelled),
        )

    def _batch_lease(self, lease_wait: float, cancelled: Cancelled | None) -> Writing:
        """The lease of one read or commit of an embedding run: the first waits ``lease_wait``
        (a busy index answers ``LOCKED`` before any work), the later ones at least as long as a
        command does, so a run already under way is not stopped by a writer slower than a tool's
        short wait."""
        first = [True]

        def writing() -> AbstractContextManager[object]:
            wait = lease_wait if first[0] else max(lease_wait, WRITE_WAIT_SECONDS)
            first[0] = False
            return self.handle.writing(wait, cancelled, purpose="embed")

        return writing

    def index(
        self,
        collections: list[str] | None = None,
        *,
        embed: bool = True,
        batch_size: int = DEFAULT_BATCH_SIZE,
        sync_progress: Callable[[SyncProgress], None] | None = None,
        embed_progress: Callable[[EmbedProgress], None] | None = None,
        lease_wait: float = WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> IndexResult:
        """Sync (under the lease), then embed what the sync left without vectors (taking the
        lease batch by batch, as ``embed`` does)."""
        return self._index(
            collections, embed, batch_size, sync_progress, embed_progress, lease_wait, cancelled
        )

    def _index(
        self,
        collections: list[str] | None,
        embed: bool,
        batch_size: int,
        sync_progress: Callable[[SyncProgress], None] | None,
        embed_progress: Callable[[EmbedProgress], None] | None,
        lease_wait: float,
        cancelled: Cancelled | None,
    ) -> IndexResult:
        synced = self.sync(collections, sync_progress, lease_wait=lease_wait, cancelled=cancelled)
        if not embed:
            return IndexResult(
                sync_result=synced, embed_skipped=True, embed_skip_reason="--no-embed"
            )
        if self._models.embedder is None:
            return IndexResult(
                sync_result=synced,
                embed_skipped=True,
                embed_skip_reason="no embedding model available",
            )
        result = self.embed(
            collections,
            batch_size=batch_size,
            progress=embed_progress,
            lease_wait=lease_wait,
            cancelled=cancelled,
        )
        return IndexResult(sync_result=synced, embed_skipped=False, embed_result=result)
