"""Facade operations of the indexing room: the configuration's collections, sync, embed,
index and watch (``gno_core.indexing``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.config import CollectionConfig, GnoConfig
    from gno_core.contracts import CollectionInfo, CollectionList, SyncResult
    from gno_core.contracts.embedding import EmbedResult, IndexResult
    from gno_core.indexing.live import LiveEvent
    from gno_core.indexing.runs import EmbedOptions, IndexOptions
    from gno_core.indexing.sync import SyncProgress
    from gno_core.ports.lease import Cancelled, LeaseOptions

__all__ = ["IndexingCalls"]


class IndexingCalls(FacadeBase):
    def init(self) -> GnoConfig:
        """Create the configuration (if missing) and the index database. Idempotent."""
        return self.collections.init()

    def add_collection(self, collection: CollectionConfig) -> CollectionInfo:
        return self.collections.add(collection)

    def remove_collection(self, name: str) -> CollectionInfo:
        return self.collections.remove(name)

    def rename_collection(self, old: str, new: str) -> CollectionInfo:
        return self.collections.rename(old, new)

    def list_collections(self) -> CollectionList:
        return self.collections.listing()

    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
        *,
        force: bool = False,
        **options: Unpack[LeaseOptions],
    ) -> SyncResult:
        """Sync the files of ``collections`` (all when None) into the index; ``force`` extracts
        every file again (options: ``IndexRuns.sync``)."""
        return self.runs.sync(collections, progress, force=force, **options)

    def watch(
        self,
        collections: list[str] | None = None,
        *,
        stop: Cancelled,
        embed: bool = True,
        on_event: Callable[[LiveEvent], None] | None = None,
    ) -> None:
        """Keep ``collections`` (all when None) indexed as their files change, until
        ``stop()``: one sync per batch of changes, embeddings behind (``gno watch``)."""
        self.live.run(collections, stop, embed=embed, on_event=on_event)

    def embed(
        self, collections: list[str] | None = None, **options: Unpack[EmbedOptions]
    ) -> EmbedResult:
        """Embed what has no vector yet (options: ``IndexRuns.embed``)."""
        return self.runs.embed(collections, **options)

    def index(
        self, collections: list[str] | None = None, **options: Unpack[IndexOptions]
    ) -> IndexResult:
        """Sync, then embed (options: ``IndexRuns.index``)."""
        return self.runs.index(collections, **options)
