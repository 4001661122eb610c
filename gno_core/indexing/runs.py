"""Indexing runs: sync files into the index, embed the chunks that lack vectors for the current
model, or both in one ``index`` run."""

from __future__ import annotations

from collections.abc import Callable

from gno_core.contracts import SyncResult
from gno_core.contracts.embedding import EmbedResult, IndexResult
from gno_core.index_handle import IndexHandle
from gno_core.indexing.collections import Collections
from gno_core.indexing.embedding import DEFAULT_BATCH_SIZE, BacklogEmbedder, EmbedProgress
from gno_core.indexing.sync import Syncer, SyncProgress
from gno_core.ports import FrontmatterParser, SemanticModels, SourceTree
from gno_core.retrieval.vector import require_embedder

__all__ = ["IndexRuns"]


class IndexRuns:
    def __init__(
        self,
        handle: IndexHandle,
        collections: Collections,
        tree: SourceTree,
        frontmatter: FrontmatterParser,
        models: SemanticModels,
    ) -> None:
        self.handle = handle
        self.collections = collections
        self._tree = tree
        self._frontmatter = frontmatter
        self._models = models

    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
    ) -> SyncResult:
        """Bring the index up to date with the files of ``collections`` (all when None)."""
        config = self.handle.load_config()
        chosen = self.collections.chosen(collections)
        index = self.handle.index
        service = Syncer(
            index.ledger, self._tree, self._frontmatter, self.handle.clock, index.links
        )
        return service.sync(chosen, config.chunking, config.ingest, progress)

    def embed(
        self,
        collections: list[str] | None = None,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        force: bool = False,
        dry_run: bool = False,
        progress: Callable[[EmbedProgress], None] | None = None,
    ) -> EmbedResult:
        """Embed the chunks that have no vector for the current model (all with ``force``),
        committing batch by batch; ``MODEL_UNAVAILABLE`` without a model."""
        embedder = require_embedder(self._models.embedder)
        names = self.collections.names(collections)
        service = BacklogEmbedder(self.handle.index, embedder, self.handle.clock)
        return service.run(
            names, batch_size=batch_size, force=force, dry_run=dry_run, progress=progress
        )

    def index(
        self,
        collections: list[str] | None = None,
        *,
        embed: bool = True,
        batch_size: int = DEFAULT_BATCH_SIZE,
        sync_progress: Callable[[SyncProgress], None] | None = None,
        embed_progress: Callable[[EmbedProgress], None] | None = None,
    ) -> IndexResult:
        """Sync, then embed what the sync left without vectors."""
        synced = self.sync(collections, sync_progress)
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
        result = self.embed(collections, batch_size=batch_size, progress=embed_progress)
        return IndexResult(sync_result=synced, embed_skipped=False, embed_result=result)
