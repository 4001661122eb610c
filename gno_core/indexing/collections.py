"""Collections: the folders an index covers, kept in the configuration (add, remove, rename,
list); removing or renaming one carries over to the documents already indexed. Every change
holds the write lease: the configuration and the index change together or not at all as seen
by other writers."""

from __future__ import annotations

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts import CollectionInfo, CollectionList
from gno_core.errors import ConflictError, DuplicateError
from gno_core.identity import normalize_collection_name
from gno_core.index_handle import IndexHandle, require_collection
from gno_core.indexing.roots import overlapping_root

__all__ = ["Collections"]


class Collections:
    def __init__(self, handle: IndexHandle) -> None:
        self.handle = handle

    def add(self, collection: CollectionConfig) -> CollectionInfo:
        """Register a folder (its path already absolute and checked by the caller);
        ``DUPLICATE`` for a name or folder already registered, ``CONFLICT`` (``details.code``
        ``OVERLAPPING_ROOT``) for a folder inside another collection's root or containing one:
        a note under both would be two documents, and a refactor through one collection would
        miss the links the other holds."""
        with self.handle.writing(purpose="collection add"):
            return self._add(collection)

    def _add(self, collection: CollectionConfig) -> CollectionInfo:
        config = self.handle.load_config_or_default()
        if config.collection(collection.name):
            raise DuplicateError(f"Collection already exists: {collection.name}")
        clash = overlapping_root(collection.path, ((c.name, c.path) for c in config.collections))
        if clash is not None:
            other, root, relation = clash
            if relation == "same":
                raise DuplicateError(f"Folder {collection.path} is already collection {other}")
            where = "is inside" if relation == "inside" else "contains"
            raise ConflictError(
                f"Folder {collection.path} {where} the root of collection {other} ({root}): "
                "collection roots may not overlap",
                details={
                    "code": "OVERLAPPING_ROOT",
                    "collection": other,
                    "path": root,
                    "relation": relation,
                },
            )
        config.collections.append(collection)
        self.handle.config.save(config)
        return collection_info(collection)

    def remove(self, name: str) -> CollectionInfo:
        """Forget the collection; its documents become inactive (kept until re-added)."""
        with self.handle.writing(purpose="collection remove"):
            return self._remove(name)

    def _remove(self, name: str) -> CollectionInfo:
        config = self.handle.load_config()
        found = require_collection(config, name)
        config.collections = [c for c in config.collections if c.name != found.name]
        self.handle.config.save(config)
        if self.handle.provider.exists():
            self.handle.index.ledger.deactivate_collection(found.name)
        return collection_info(found)

    def rename(self, old: str, new: str) -> CollectionInfo:
        with self.handle.writing(purpose="collection rename"):
            return self._rename(old, new)

    def _rename(self, old: str, new: str) -> CollectionInfo:
        config = self.handle.load_config()
        found = require_collection(config, old)
        renamed = found.model_copy(update={"name": normalize_collection_name(new)})
        if config.collection(renamed.name):
            raise DuplicateError(f"Collection already exists: {renamed.name}")
        config.collections = [renamed if c is found else c for c in config.collections]
        if self.handle.provider.exists():
            self.handle.index.ledger.rename_collection(found.name, renamed.name)
        self.handle.config.save(config)
        return collection_info(renamed)

    def listing(self) -> CollectionList:
        config = self.handle.load_config_or_default()
        return CollectionList(collections=[collection_info(c) for c in config.collections])

    def chosen(self, names: list[str] | None) -> list[CollectionConfig]:
        """The named collections (``NOT_FOUND`` for an unknown one), or all when None."""
        config = self.handle.load_config()
        return [require_collection(config, n) for n in names] if names else config.collections

    def names(self, names: list[str] | None) -> tuple[str, ...] | None:
        return tuple(c.name for c in self.chosen(names)) if names else None

    def init(self) -> GnoConfig:
        """Create the configuration (if missing) and the index database. Idempotent."""
        with self.handle.writing(purpose="init"):
            if not self.handle.config.exists():
                self.handle.config.save(GnoConfig())
            _ = self.handle.index
            return self.handle.load_config()


def collection_info(c: CollectionConfig) -> CollectionInfo:
    return CollectionInfo(
        name=c.name,
        path=c.path,
        pattern=c.pattern,
        include=list(c.include),
        exclude=list(c.exclude),
        memory_managed=c.memory_managed or None,
    )
