"""``Writes``: capture, folder creation and the agent-facing collection changes, each under the
write lease. A capture is done when its note is searchable: the file is written (exclusive
create unless overwriting) and its lexical sync committed before the lease is released, so the
next search in any process finds it; a note written but not synced is ``CAPTURE_SYNC_FAILED``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts import CollectionInfo
from gno_core.contracts.write_requests import (
    AddCollectionRequest,
    CaptureRequest,
    ClearEmbeddingsRequest,
    CreateFolderRequest,
)
from gno_core.contracts.writes import (
    CaptureReceipt,
    ClearEmbeddingsResult,
    FolderResult,
    RemoveResult,
    StepState,
)
from gno_core.defaults import (
    CAPTURE_WRITE_WAIT_SECONDS,
    DEFAULT_EXCLUDES,
    DEFAULT_PATTERN,
    TOOL_WRITE_WAIT_SECONDS,
)
from gno_core.domain import SourceFile, SyncBatch
from gno_core.errors import (
    CaptureSyncFailedError,
    DuplicateError,
    GnoError,
    InvalidPathError,
    ValidationError,
)
from gno_core.identity import make_docid, make_uri, normalize_collection_name
from gno_core.index_handle import IndexHandle, require_collection
from gno_core.indexing.collections import Collections
from gno_core.indexing.ingest import build_document
from gno_core.indexing.roots import check_collection_root, default_collection_name
from gno_core.links.resolve import resolve_pending
from gno_core.memory.area import refuse_facts_area
from gno_core.ports import Cancelled, FrontmatterParser, NoteFiles
from gno_core.writes.capture import (
    MAX_SUFFIX,
    check_indexable,
    check_rel_path,
    compose_note,
    plan_path,
    suffixed,
)

__all__ = ["Writes"]


def _iso(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, UTC).isoformat().replace("+00:00", "Z")


class Writes:
    def __init__(
        self,
        handle: IndexHandle,
        notes: NoteFiles,
        parser: FrontmatterParser,
        collections: Collections,
        fingerprint: Callable[[], str | None],
    ) -> None:
        self.handle = handle
        self._notes = notes
        self._parser = parser
        self._collections = collections
        self._fingerprint = fingerprint

    def _has_embedder(self) -> bool:
        return self._fingerprint() is not None

    def capture(
        self,
        request: CaptureRequest,
        *,
        lease_wait: float = CAPTURE_WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> CaptureReceipt:
        """Write the note ``request`` describes and sync it (see the module doc)."""
        config = self.handle.load_config()
        collection = require_collection(config, request.collection)
        now = self.handle.clock.now_ns()
        hint = request.path if request.path and "." in request.path.rsplit("/", 1)[-1] else None
        note = compose_note(request, hint, self._parser, _iso(now))
        data = note.text.encode("utf-8")
        limit = config.ingest.max_file_bytes
        if len(data) > limit:
            raise ValidationError(
                f"The note is {len(data)} bytes, over the {limit}-byte limit (ingest.maxFileBytes)",
                details={"code": "TOO_LARGE", "size": len(data), "maxBytes": limit},
            )
        today = datetime.fromtimestamp(now / 1e9, UTC).date().isoformat()
        rel_path = plan_path(request, note.title, note.body, today)
        refuse_facts_area(collection, rel_path)
        check_indexable(collection, rel_path)
        with self.handle.writing(lease_wait, cancelled, purpose="capture"):
            result, source, written = self._place(collection, config, rel_path, data, request)
            self._sync_one(collection, config, source, written)
        sha = hashlib.sha256(written).hexdigest()
        return CaptureReceipt(
            uri=make_uri(collection.name, source.rel_path, self.handle.name),
            docid=make_docid(sha),
            collection=collection.name,
            rel_path=source.rel_path,
            abs_path=source.abs_path,
            created=result != "opened_existing",
            opened_existing=result == "opened_existing",
            created_with_suffix=result == "created_with_suffix",
            overwritten=True if result == "overwritten" else None,
            content_hash=sha,
            source=note.source,
            tags=note.tags,
            sync=StepState(status="completed"),
            embed=(
                StepState(status="pending", reason="run gno embed (or gno_embed) to embed it")
                if self._has_embedder()
                else StepState(status="skipped", reason="no embedding model installed")
            ),
            collision_policy_result=result,
        )

    def _taken(self, collection: CollectionConfig, rel_path: str) -> bool:
        if self._notes.exists(collection.path, rel_path):
            return True
        return self.handle.index.documents.get_document(collection.name, rel_path) is not None

    def _place(
        self,
        collection: CollectionConfig,
        config: GnoConfig,
        rel_path: str,
        data: bytes,
        request: CaptureRequest,
    ) -> tuple[str, SourceFile, bytes]:
        """Write ``data`` per the collision policy: (result, the file, its bytes)."""
        policy = "overwrite" if request.overwrite else (request.collision_policy or "error")
        candidate, n = rel_path, 1
        while True:
            taken = self._taken(collection, candidate)
            if taken and policy == "open_existing":
                if self._notes.exists(collection.path, candidate):
                    limit = config.ingest.max_file_bytes
                    source, existing = self._notes.read(collection.path, candidate, limit)
                    return "opened_existing", source, existing
                taken = False  # indexed, but its file is gone: write it again
            if taken and policy == "error":
                raise DuplicateError(
                    f"A note already exists at {collection.name}/{candidate} (use "
                    "collisionPolicy create_with_suffix or open_existing)",
                    details={"collection": collection.name, "path": candidate},
                )
            if taken and policy == "create_with_suffix":
                n += 1
                if n > MAX_SUFFIX:
                    raise DuplicateError(
                        f"No free name for {rel_path} after {MAX_SUFFIX} suffixes",
                        details={"collection": collection.name, "path": rel_path},
                    )
                candidate = suffixed(rel_path, n)
                continue
            try:
                source = self._notes.create(
                    collection.path, candidate, data, replace=policy == "overwrite"
                )
            except DuplicateError:
                if policy == "error":
                    raise
                continue  # appeared after the check: decide again with it in place
            if policy == "overwrite":
                return ("overwritten" if taken else "created"), source, data
            return ("created_with_suffix" if n > 1 else "created"), source, data

    def _sync_one(
        self, collection: CollectionConfig, config: GnoConfig, source: SourceFile, data: bytes
    ) -> None:
        """Index the one written file (the same document a full sync would build)."""
        try:
            doc = build_document(collection, source, data, self._parser, config.chunking)
            index = self.handle.index
            index.ledger.apply_batch(SyncBatch(collection.name, upserts=(doc,)))
            # As at the end of a full sync: the note's links, and links that named it before
            # it existed, resolve now.
            resolve_pending(index.links)
        except GnoError as exc:
            raise CaptureSyncFailedError(
                f"Wrote {source.abs_path} but could not index it: {exc.message}. "
                "Run `gno update` to retry",
                details={"path": source.abs_path, "relPath": source.rel_path},
            ) from exc

    def create_folder(
        self, request: CreateFolderRequest, *, lease_wait: float = TOOL_WRITE_WAIT_SECONDS
    ) -> FolderResult:
        """Make ``parentPath/name`` inside the collection (missing parents too)."""
        collection = self.handle.collection(request.collection)
        name = check_rel_path(request.name, "name")
        if "/" in name:
            raise InvalidPathError(
                "name is one folder name; put parents in parentPath", details={"path": name}
            )
        parent = check_rel_path(request.parent_path, "parentPath") if request.parent_path else ""
        rel_path = f"{parent}/{name}" if parent else name
        refuse_facts_area(collection, rel_path, "folder")
        with self.handle.writing(lease_wait, purpose="create folder"):
            created = self._notes.make_folder(collection.path, rel_path)
        return FolderResult(
            collection=collection.name,
            rel_path=rel_path,
            abs_path=collection.path.rstrip("/") + "/" + rel_path,
            created=created,
        )

    def add_collection(self, request: AddCollectionRequest) -> CollectionInfo:
        """Register ``request.path`` as a collection: the folder must exist and be no
        dangerous root (``/``, home, system folders, ``~/.config`` ...; the spec's Collection
        Root Validation, with no override here)."""
        if request.git_pull:
            raise ValidationError(
                "gitPull is not supported: pull the repository yourself, then sync",
                details={"field": "gitPull"},
            )
        from gno_core.config import CollectionConfig

        path = self._notes.resolve_folder(request.path)
        check_collection_root(path, self._notes.home())
        name = normalize_collection_name(request.name or default_collection_name(path))
        config = CollectionConfig(
            name=name,
            path=path,
            pattern=request.pattern or DEFAULT_PATTERN,
            include=tuple(request.include),
            exclude=tuple(request.exclude) if request.exclude else DEFAULT_EXCLUDES,
        )
        with self.handle.writing(TOOL_WRITE_WAIT_SECONDS, purpose="collection add"):
            if not self.handle.config.exists():
                self._collections.init()
            return self._collections.add(config)

    def remove_collection(self, name: str) -> RemoveResult:
        """Forget the collection; its documents stay in the index, inactive, until it is
        added again (and the files are never touched)."""
        with self.handle.writing(TOOL_WRITE_WAIT_SECONDS, purpose="collection remove"):
            info = self._collections.remove(name)
        return RemoveResult(
            collection=info.name, path=info.path, removed=True, documents_retained=True
        )

    def clear_embeddings(self, request: ClearEmbeddingsRequest) -> ClearEmbeddingsResult:
        """Drop the collection's vectors of other models than the current one (``stale``) or
        of every model (``all``); the documents stay and can be embedded again."""
        collection = self.handle.collection(request.collection)
        current = self._fingerprint()
        with self.handle.writing(TOOL_WRITE_WAIT_SECONDS, purpose="clear embeddings"):
            vectors = self.handle.index.vectors
            doomed = [f for f in vectors.fingerprints() if request.mode == "all" or f != current]
            deleted = sum(vectors.delete_vectors(f, (collection.name,)) for f in doomed)
        return ClearEmbeddingsResult(collection=collection.name, mode=request.mode, deleted=deleted)
