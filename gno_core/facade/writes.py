"""Facade operations of the writes room: capture, folders and the agent's collection changes
(``gno_core.writes``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core import contracts as wire
    from gno_core.contracts import write_requests
    from gno_core.ports.lease import LeaseOptions

__all__ = ["WriteCalls"]


class WriteCalls(FacadeBase):
    def capture(
        self, request: write_requests.CaptureRequest, **options: Unpack[LeaseOptions]
    ) -> wire.CaptureReceipt:
        """A new note in a collection, searchable when this returns (``gno_core.writes``;
        options: ``Writes.capture``)."""
        return self.writes.capture(request, **options)

    def create_folder(self, request: write_requests.CreateFolderRequest) -> wire.FolderResult:
        return self.writes.create_folder(request)

    def add_collection_at(
        self, request: write_requests.AddCollectionRequest
    ) -> wire.CollectionInfo:
        """``gno_add_collection``: a folder by path, checked against the dangerous roots."""
        return self.writes.add_collection(request)

    def remove_collection_kept(self, name: str) -> wire.RemoveResult:
        """``gno_remove_collection``: out of the configuration, documents kept inactive."""
        return self.writes.remove_collection(name)

    def clear_embeddings(
        self, request: write_requests.ClearEmbeddingsRequest
    ) -> wire.ClearEmbeddingsResult:
        return self.writes.clear_embeddings(request)
