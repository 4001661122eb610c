"""The local adapter set: files on disk, one SQLite file per index, ONNX models from the model
cache, the pid-file resident probe; ``open_gno`` builds a facade over it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gno_adapters.bootstrap.adapters import Adapters, build
from gno_adapters.bootstrap.lazy import (
    LazyChangeFeed,
    LazyConverter,
    LazyFrontmatterParser,
    LazyGenerator,
    LazyRefactorCommit,
    LazyResidentProbe,
    LazySemanticModels,
    LazySourceTree,
    LazyTokenCounter,
)
from gno_adapters.clock import SystemClock
from gno_adapters.config import GnoPaths, YamlConfigRepository, resolve_paths
from gno_adapters.files.lease import FileWriteLease
from gno_adapters.files.notes import LocalNoteFiles
from gno_adapters.sqlite import ApswIndexProvider
from gno_core.errors import NotFoundError
from gno_core.index_handle import IndexHandle

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from gno_adapters.embed_child import EmbedChild
    from gno_core.facade import Gno
    from gno_core.ports import ClaimVerifier


def open_gno(
    index: str | None = None,
    config_path: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    embed_child: EmbedChild | None = None,
) -> Gno:
    """Build the facade for ``index`` (default ``default``). Cheap: nothing is opened until an
    operation needs it. ``embed_child``: embed through that process (``gno vsearch``/``query``)."""
    paths = resolve_paths(index, config_path, env)
    return _build(paths, env, embed_child)


def facade_factory(
    index: str | None = None,
    config_path: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> Callable[[], Gno]:
    """Facades of ``index`` that share one set of semantic models: the resident gateway builds
    one facade per worker thread (each with its own index connection), and all of them embed
    and rerank with one loaded model rather than a copy per thread."""
    paths = resolve_paths(index, config_path, env)
    models = LazySemanticModels(paths.models_dir, os.environ if env is None else env)
    return lambda: _build(paths, env, models=models)


def _build(
    paths: GnoPaths,
    env: Mapping[str, str] | None,
    child: EmbedChild | None = None,
    *,
    models: LazySemanticModels | None = None,
) -> Gno:
    clock = SystemClock()
    if models is None:
        models = LazySemanticModels(paths.models_dir, os.environ if env is None else env, child)

    def open_other(name: str) -> IndexHandle:
        other = resolve_paths(name, None, env)
        if not other.db_path.is_file():
            raise NotFoundError(f"Index not found: {name}", details={"index": name})
        return IndexHandle(
            name=other.index_name,
            config=YamlConfigRepository(other.config_file, other.cache_dir),
            provider=ApswIndexProvider(other.db_path, clock),
            clock=clock,
            lease=FileWriteLease(other.data_dir),
        )

    config = YamlConfigRepository(paths.config_file, paths.cache_dir)
    adapters = Adapters(
        index_name=paths.index_name,
        config=config,
        provider=ApswIndexProvider(paths.db_path, clock),
        tree=LazySourceTree(),
        frontmatter=LazyFrontmatterParser(),
        clock=clock,
        resident=LazyResidentProbe(paths.pid_file),
        models=models,
        lease=FileWriteLease(paths.data_dir),
        notes=LocalNoteFiles(),
        open_index=open_other,
        token_counter=LazyTokenCounter(),
        generator=LazyGenerator(config, os.environ if env is None else env),
        choose_verifier=lambda: _verifier(config, env, paths),
        converter=LazyConverter(),
        changes=LazyChangeFeed(),
        refactor_commit=LazyRefactorCommit(os.path.join(paths.data_dir, "refactor-journal")),
    )
    return build(adapters)


def _verifier(
    config: YamlConfigRepository, env: Mapping[str, str] | None, paths: GnoPaths
) -> ClaimVerifier | None:
    from gno_adapters.bootstrap.ask_models import choose_verifier

    return choose_verifier(config, os.environ if env is None else env, paths.models_dir)
