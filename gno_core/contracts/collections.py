"""Collection and sync contracts: ``collection-list@1.0``, ``tags-list@1.0``, ``sync-result@1.0``."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from gno_core.contracts.base import WireModel


class CollectionInfo(WireModel):
    name: str
    path: str
    pattern: str
    include: list[str]
    exclude: list[str]
    #: True for a memory collection (remember and recall); absent otherwise.
    memory_managed: bool | None = None


class CollectionList(WireModel):
    collections: list[CollectionInfo]


class TagCount(WireModel):
    tag: str
    count: int = Field(ge=0)


class TagsMeta(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"collection", "prefix"})

    collection: str | None
    prefix: str | None
    total_tags: int = Field(ge=0)


class TagsList(WireModel):
    tags: list[TagCount]
    meta: TagsMeta


class SyncFailure(WireModel):
    rel_path: str
    code: str
    message: str


class CollectionSyncResult(WireModel):
    collection: str
    added: int = Field(ge=0)
    updated: int = Field(ge=0)
    unchanged: int = Field(ge=0)
    removed: int = Field(ge=0)
    reactivated: int = Field(ge=0)
    failed: int = Field(ge=0)
    failures: list[SyncFailure]
    duration_ms: float = Field(ge=0)
    #: The distinct mirrors of unchanged files chunked again because the chunking policy
    #: changed (those files are counted in ``updated`` too); absent when none were.
    rechunked_mirrors: int | None = Field(default=None, ge=1)


class RecoveredEdit(WireModel):
    """A file the recovery of a killed rename/move/duplicate found saved since the apply wrote
    it: kept as saved, the bytes the rollback would have restored at ``conflictCopy`` (a path
    in the same collection; absent for a file the apply had created)."""

    collection: str
    rel_path: str
    conflict_copy: str | None = None
    journal_id: str


class SyncResult(WireModel):
    collections: list[CollectionSyncResult]
    total_added: int = Field(ge=0)
    total_updated: int = Field(ge=0)
    total_unchanged: int = Field(ge=0)
    total_removed: int = Field(ge=0)
    total_failed: int = Field(ge=0)
    duration_ms: float = Field(ge=0)
    #: The collections' ``rechunkedMirrors`` added up; absent when none were.
    rechunked_mirrors: int | None = Field(default=None, ge=1)
    #: Files a refactor's crash recovery (run first, under the same lease) kept as the user
    #: saved them; absent when there were none.
    recovered_edits: list[RecoveredEdit] | None = None
