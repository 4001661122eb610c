"""The composition root: the only module that wires concrete adapters into a ``Gno`` facade."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from gno_adapters.clock import SystemClock
from gno_adapters.config import GnoPaths, YamlConfigRepository, resolve_paths
from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_adapters.files.walker import LocalSourceTree
from gno_adapters.fsutil import ensure_private_dir
from gno_adapters.model_wiring import SemanticModels
from gno_adapters.resident import PidFileResidentProbe
from gno_adapters.sqlite import ApswStore
from gno_core.errors import NotFoundError, RuntimeFailure
from gno_core.facade import Gno
from gno_core.index_handle import IndexHandle

if TYPE_CHECKING:
    from gno_core.model import ResidentStatus

ResidentStatusSource = Callable[[], "ResidentStatus"]


class ApswStoreProvider:
    """``StoreProvider`` for one index database file."""

    def __init__(self, path: Path) -> None:
        self._path = path

    @property
    def location(self) -> str:
        return str(self._path)

    def exists(self) -> bool:
        return self._path.is_file()

    def open(self) -> ApswStore:
        try:
            ensure_private_dir(self._path.parent)
        except OSError as exc:
            raise RuntimeFailure(
                f"Cannot create the data folder {self._path.parent}: {exc.strerror or exc}",
                details={"path": str(self._path.parent)},
            ) from exc
        return ApswStore.open(str(self._path))


def open_gno(
    index: str | None = None,
    config_path: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    mode: str = "direct-cli",
    resident_status: ResidentStatusSource | None = None,
) -> Gno:
    """Build the facade for ``index`` (default ``default``). Cheap: nothing is opened until an
    operation needs it. A resident gateway passes ``resident_status`` so that ``status``
    reports it."""
    paths = resolve_paths(index, config_path, env)
    return _build(paths, env, mode, resident_status)


def _build(
    paths: GnoPaths,
    env: Mapping[str, str] | None,
    mode: str,
    resident_status: ResidentStatusSource | None = None,
) -> Gno:
    def open_other(name: str) -> IndexHandle:
        other = resolve_paths(name, None, env)
        if not other.db_path.is_file():
            raise NotFoundError(f"Index not found: {name}", details={"index": name})
        return IndexHandle(
            name=other.index_name,
            config=YamlConfigRepository(other.config_file),
            stores=ApswStoreProvider(other.db_path),
            clock=SystemClock(),
        )

    models = SemanticModels(paths.models_dir, os.environ if env is None else env)
    return Gno(
        index_name=paths.index_name,
        config=YamlConfigRepository(paths.config_file),
        stores=ApswStoreProvider(paths.db_path),
        tree=LocalSourceTree(),
        frontmatter=YamlFrontmatterParser(),
        clock=SystemClock(),
        resident=PidFileResidentProbe(paths.pid_file),
        open_index=open_other,
        mode=mode,
        resident_status=resident_status,
        embedder=models.embedder,
        reranker=models.reranker,
    )
