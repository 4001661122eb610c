"""``IndexHandle``: one named index as every capability sees it — its configuration, its ports
(opened on first use), its clock and how its documents are named."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_core.defaults import WRITE_WAIT_SECONDS
from gno_core.errors import NotFoundError, NotInitializedError
from gno_core.identity import make_uri

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from gno_core.config import CollectionConfig, GnoConfig
    from gno_core.domain import StoredDocument
    from gno_core.ports import Cancelled, Clock, ConfigRepository, Index, IndexProvider, WriteLease
    from gno_core.ports.lease import OnWait

__all__ = ["IndexHandle", "IndexOpener", "require_collection"]


class IndexHandle:
    """Cheap to build: nothing is opened until ``index`` is first read, so ``peek`` and the
    collection listing never create or migrate a database."""

    def __init__(
        self,
        *,
        name: str,
        config: ConfigRepository,
        provider: IndexProvider,
        clock: Clock,
        lease: WriteLease,
    ) -> None:
        self.name = name
        self.config = config
        self.provider = provider
        self.clock = clock
        self.lease = lease
        #: Told at once when a write has to wait for another holder (the CLI prints it).
        self.on_wait: OnWait | None = None
        self._index: Index | None = None

    def writing(
        self,
        wait_seconds: float = WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
        *,
        purpose: str = "write",
    ) -> AbstractContextManager[None]:
        """Hold the write lease for a block that changes the index, its configuration or the
        files of its collections (``LOCKED`` naming the holder after ``wait_seconds``); nests
        within a thread. ``purpose`` is what a waiting writer is told this holder does."""
        return self.lease.hold(wait_seconds, cancelled, purpose=purpose, on_wait=self.on_wait)

    @property
    def index(self) -> Index:
        if self._index is None:
            if not self.config.exists():
                raise NotInitializedError(
                    f"gno is not initialized (no config at {self.config.location}); "
                    "run `gno init` or `gno collection add <path>`"
                )
            self._index = self.provider.open()
        return self._index

    def load_config(self) -> GnoConfig:
        return self.config.load()

    def load_config_or_default(self) -> GnoConfig:
        from gno_core.config import GnoConfig  # pydantic: not on a plain search's path

        return self.config.load() if self.config.exists() else GnoConfig()

    def collection(self, name: str) -> CollectionConfig:
        """The configured collection ``name`` (case-insensitive); ``NOT_FOUND`` otherwise."""
        return require_collection(self.config.load(), name)

    def uri(self, doc: StoredDocument) -> str:
        return make_uri(doc.collection, doc.rel_path, self.name)

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None


#: Opens another index by name for cross-index references (``NOT_FOUND`` when it does not
#: exist); the caller closes the handle when done.
IndexOpener = Callable[[str], IndexHandle]


def require_collection(config: GnoConfig, name: str) -> CollectionConfig:
    found = config.collection(name)
    if found is None:
        known = [c.name for c in config.collections]
        raise NotFoundError(
            f"Collection not found: {name} {config.known_collections()}",
            details={"collection": name, "available": known},
        )
    return found
