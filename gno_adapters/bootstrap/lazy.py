"""The lazy wrappers the adapter sets share: each stands for one port and imports (or starts) its
real adapter on first use, so a command pays only for the adapters it touches. The local set
(``local.py``) wires most of them; the set of fakes (``memory.py``) the token counter."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from pathlib import Path

    from gno_adapters.bootstrap.model_wiring import SemanticModels
    from gno_adapters.converters.sandbox import SandboxedConverters
    from gno_adapters.embed_child import EmbedChild
    from gno_adapters.files.refactor_commit import JournaledCommit
    from gno_adapters.watch.feed import WatchfilesFeed
    from gno_core.domain import SourceFile
    from gno_core.errors import GnoError
    from gno_core.ports import (
        ConfigRepository,
        Embedder,
        FrontmatterParser,
        GenerationRequest,
        Generator,
        Reranker,
        SourceTree,
        TokenCounter,
    )
    from gno_core.ports.converters import Converted, ConvertLimits
    from gno_core.ports.lease import Cancelled
    from gno_core.ports.refactors import FileChange, RecoveryReport

__all__ = [
    "LazyChangeFeed",
    "LazyConverter",
    "LazyFrontmatterParser",
    "LazyGenerator",
    "LazyRefactorCommit",
    "LazyResidentProbe",
    "LazySemanticModels",
    "LazySourceTree",
    "LazyTokenCounter",
]


class LazySourceTree:
    """``SourceTree`` that imports the walker (and the ingest rules it uses) on first use: only
    a sync walks a tree, and the read commands should not pay for it at start-up."""

    def __init__(self) -> None:
        self._tree: SourceTree | None = None

    def _real(self) -> SourceTree:
        if self._tree is None:
            from gno_adapters.files.walker import LocalSourceTree

            self._tree = LocalSourceTree()
        return self._tree

    def walk(
        self, root: str, pattern: str, include: tuple[str, ...], exclude: tuple[str, ...]
    ) -> Iterator[SourceFile]:
        return self._real().walk(root, pattern, include, exclude)

    def read(self, abs_path: str, max_bytes: int) -> bytes:
        return self._real().read(abs_path, max_bytes)


class LazyConverter:
    """``DocumentConverter`` that finds the installed converter libraries, and starts the
    sandboxed worker, only when a sync meets a file to convert."""

    def __init__(self) -> None:
        self._real: SandboxedConverters | None = None
        self._extensions: frozenset[str] | None = None

    def extensions(self) -> frozenset[str]:
        if self._extensions is None:
            from gno_adapters.converters.registry import MODULES, available

            self._extensions = frozenset(ext for ext in MODULES if available(ext))
        return self._extensions

    def identity(self, ext: str) -> tuple[str, str]:
        from gno_adapters.converters.registry import identity

        return identity(ext)

    def convert(self, data: bytes, ext: str, rel_path: str, limits: ConvertLimits) -> Converted:
        if self._real is None:
            from gno_adapters.converters.sandbox import SandboxedConverters

            self._real = SandboxedConverters(self.extensions())
        return self._real.convert(data, ext, rel_path, limits)

    def close(self) -> None:
        if self._real is not None:
            self._real.close()
            self._real = None


class LazyChangeFeed:
    """``ChangeFeed`` that imports watchfiles only when something watches (``gno watch``,
    ``serve --watch``)."""

    def __init__(self) -> None:
        self._real: WatchfilesFeed | None = None

    def _feed(self) -> WatchfilesFeed:
        if self._real is None:
            from gno_adapters.watch.feed import WatchfilesFeed

            self._real = WatchfilesFeed()
        return self._real

    def batches(self, roots: Sequence[str], stop: Cancelled) -> Iterator[frozenset[str]]:
        return self._feed().batches(roots, stop)

    def pending(self) -> bool:
        return self._real is not None and self._real.pending()


class LazyResidentProbe:
    """``ResidentProbe`` that imports the resident lifecycle module only when asked (``peek``)."""

    def __init__(self, pid_file: Path) -> None:
        self._pid_file = pid_file

    def serve_url(self) -> str | None:
        from gno_adapters.resident.pidfile import PidFileResidentProbe

        return PidFileResidentProbe(self._pid_file).serve_url()


class LazySemanticModels:
    """``SemanticModels`` resolved on first access: ``gno search`` and ``gno get`` never look
    for a model, nor import the model registry and cache."""

    def __init__(
        self, models_dir: Path, env: Mapping[str, str], child: EmbedChild | None = None
    ) -> None:
        self._models_dir = models_dir
        self._env = env
        self._chosen: SemanticModels | None = None
        self._child = child  # ``gno vsearch``/``query``: the model's process
        self._embedder: Embedder | None = None
        # ``gno vsearch``/``query`` load the embedder on a thread while the command goes on:
        # both threads must get the same models.
        self._lock = threading.Lock()

    def _resolved(self) -> SemanticModels:
        with self._lock:
            if self._chosen is None:
                from gno_adapters.bootstrap.model_wiring import SemanticModels

                self._chosen = SemanticModels(self._models_dir, self._env)
            return self._chosen

    @property
    def embedder(self) -> Embedder | None:
        embedder = self._resolved().embedder
        if self._child is None or embedder is None:
            return embedder
        if self._embedder is None:
            from gno_adapters.embed_child import ChildEmbedder

            self._embedder = ChildEmbedder(embedder, self._child)
        return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        return self._resolved().reranker

    @property
    def errors(self) -> Mapping[str, GnoError]:
        """Why a model is missing (``gno_core.ports.semantic.unavailable_reason``)."""
        return self._resolved().errors


class LazyTokenCounter:
    """``TokenCounter`` that loads the bundled WordPiece vocabulary on first use: only a
    capsule compile counts tokens."""

    def __init__(self) -> None:
        self._counter: TokenCounter | None = None

    def _real(self) -> TokenCounter:
        if self._counter is None:
            from gno_adapters.onnx.token_counter import WordPieceTokenCounter

            self._counter = WordPieceTokenCounter()
        return self._counter

    @property
    def fingerprint(self) -> str:
        return self._real().fingerprint

    def count(self, text: str) -> int:
        return self._real().count(text)


class LazyGenerator:
    """``Generator`` chosen on first use from the config (``generation``) and the environment
    (``GNO_ASK_ENDPOINT``, ``GNO_ASK_MODEL``): a configured OpenAI-compatible endpoint, else
    the built-in extractive generator."""

    def __init__(self, config: ConfigRepository, env: Mapping[str, str]) -> None:
        self._config = config
        self._env = env
        self._generator: Generator | None = None

    def _real(self) -> Generator:
        if self._generator is None:
            from gno_adapters.bootstrap.ask_models import choose_generator

            self._generator = choose_generator(self._config, self._env)
        return self._generator

    @property
    def model_id(self) -> str:
        return self._real().model_id

    def generate(self, request: GenerationRequest) -> str:
        return self._real().generate(request)


class LazyRefactorCommit:
    """``RefactorCommit`` that imports the journaled commit on first use (rename, move,
    duplicate, and the recovery a sync runs)."""

    def __init__(self, journal_dir: str) -> None:
        self._journal_dir = journal_dir
        self._real: JournaledCommit | None = None

    def _commit(self) -> JournaledCommit:
        if self._real is None:
            from gno_adapters.files.refactor_commit import JournaledCommit

            self._real = JournaledCommit(self._journal_dir, background_cleanup=True)
        return self._real

    def commit(self, changes: Sequence[FileChange], journal_id: str) -> None:
        self._commit().commit(changes, journal_id)

    def recover(self) -> list[RecoveryReport]:
        return self._commit().recover()


class LazyFrontmatterParser:
    """``FrontmatterParser`` that builds the ruamel.yaml parser on first use (sync only)."""

    def __init__(self) -> None:
        self._parser: FrontmatterParser | None = None

    def parse(self, text: str) -> Mapping[str, Any]:
        if self._parser is None:
            from gno_adapters.files.frontmatter import YamlFrontmatterParser

            self._parser = YamlFrontmatterParser()
        return self._parser.parse(text)
