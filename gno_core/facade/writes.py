"""Facade operations of the writes room: capture, folders and the agent's collection changes
(``gno_core.writes``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.defaults import CAPTURE_WRITE_WAIT_SECONDS
from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
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
    )
    from gno_core.ports.lease import Cancelled

__all__ = ["WriteCalls"]


class WriteCalls(FacadeBase):
    def capture(
        self,
        request: CaptureRequest,
        *,
        lease_wait: float = CAPTURE_WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> CaptureReceipt:
        """A new note in a collection, searchable when this returns (``gno_core.writes``)."""
        return self.writes.capture(request, lease_wait=lease_wait, cancelled=cancelled)

    def create_folder(self, request: CreateFolderRequest) -> FolderResult:
        return self.writes.create_folder(request)

    def add_collection_at(self, request: AddCollectionRequest) -> CollectionInfo:
        """``gno_add_collection``: a folder by path, checked against the dangerous roots."""
        return self.writes.add_collection(request)

    def remove_collection_kept(self, name: str) -> RemoveResult:
        """``gno_remove_collection``: out of the configuration, documents kept inactive."""
        return self.writes.remove_collection(name)

    def clear_embeddings(self, request: ClearEmbeddingsRequest) -> ClearEmbeddingsResult:
        return self.writes.clear_embeddings(request)
