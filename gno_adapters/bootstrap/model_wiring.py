"""Which embedder and reranker a facade gets: resolved cheaply at bootstrap, loaded on first use.

Resolving a model only looks at files (no import of onnxruntime or numpy, no loading), so every
command can know the embedder's identity and fingerprint for free; the ONNX session is built
the first time a text is embedded or a passage reranked. Choices (environment):

- ``GNO_EMBED_MODEL``: a registry name or a model directory (default: the bundled
  all-MiniLM-L6-v2); ``none`` turns vectors off. ``GNO_EMBED_PRECISION``: ``int8`` (default)
  or ``fp32``.
- ``GNO_RERANK_MODEL``: a registry name or a cross-encoder directory (default: the registry's
  reranker once ``gno models pull rerank`` fetched it); ``none`` turns reranking off.

A model that is not there gives ``None`` (retrieval degrades as the spec says); the reason is
kept in ``unavailable`` for diagnostics.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gno_adapters.fsutil import ensure_private_dir
from gno_core.errors import GnoError
from gno_core.model_registry import ModelLocation, ModelRole
from gno_core.ports.embedder import TextProfile, Vector, embedding_fingerprint

if TYPE_CHECKING:
    from gno_adapters.model_files.cache import ModelStore
    from gno_adapters.onnx.embedder import OnnxEmbedder
    from gno_adapters.onnx.graph_cache import Precision
    from gno_adapters.onnx.reranker import OnnxReranker

#: ``ModelStore`` is named here for the CLI's type hints; ``model_store`` builds one.
__all__ = ["LazyOnnxEmbedder", "LazyOnnxReranker", "ModelStore", "SemanticModels", "model_store"]

EMBED_ENV = "GNO_EMBED_MODEL"
PRECISION_ENV = "GNO_EMBED_PRECISION"
RERANK_ENV = "GNO_RERANK_MODEL"
OFF = frozenset({"none", "off", "0", "false"})


class LazyOnnxEmbedder:
    """An ``Embedder`` that knows its identity from the model files and builds the
    ``OnnxEmbedder`` on the first ``embed_batch``."""

    def __init__(
        self,
        location: ModelLocation,
        precision: Precision = "int8",
        *,
        private_root: Path | None = None,
    ) -> None:
        self._location = location
        # gno's cache folder: made owner-only before the first graph is built into it.
        self._private_root = private_root
        built = location.format.builds_graph
        self._precision: Precision = precision if built else "fp32"
        self._real: OnnxEmbedder | None = None
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled for the embedding child process (``embed_child``): the model chosen."""
        state = {"_private_root": self._private_root}
        return (LazyOnnxEmbedder, (self._location, self._precision), state)

    def _embedder(self) -> OnnxEmbedder:
        with self._lock:
            if self._real is None:
                from gno_adapters.onnx.embedder import OnnxEmbedder

                if self._private_root is not None:
                    with contextlib.suppress(OSError):  # a read-only cache still serves
                        ensure_private_dir(self._private_root)
                self._real = OnnxEmbedder(self._location, precision=self._precision)
            return self._real

    @property
    def model_id(self) -> str:
        base = self._location.model_id
        return base if self._precision == "fp32" else f"{base}#{self._precision}"

    @property
    def dimensions(self) -> int:
        known = self._location.dimensions
        return known if known is not None else self._embedder().dimensions

    @property
    def max_tokens(self) -> int:
        return self._location.max_tokens

    @property
    def profile(self) -> TextProfile:
        return self._location.profile

    @property
    def fingerprint(self) -> str:
        return embedding_fingerprint(
            self.model_id, self.dimensions, self.max_tokens, self.profile.id
        )

    @property
    def loaded(self) -> bool:
        return self._real is not None and self._real.loaded

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        return self._embedder().embed_batch(texts)

    def load(self) -> None:
        """Load the tokenizer and the session now (``MODEL_UNAVAILABLE`` when they cannot)."""
        self._embedder().load()


class LazyOnnxReranker:
    """A ``Reranker`` that builds the ``OnnxReranker`` on the first ``score``."""

    def __init__(self, location: ModelLocation) -> None:
        self._location = location
        self._real: OnnxReranker | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self._location.model_id

    @property
    def loaded(self) -> bool:
        return self._real is not None and self._real.loaded

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        with self._lock:
            if self._real is None:
                from gno_adapters.onnx.reranker import OnnxReranker

                self._real = OnnxReranker(self._location)
        return self._real.score(query, passages)


class SemanticModels:
    """The embedder and reranker chosen for one facade (either may be ``None``)."""

    def __init__(self, models_dir: Path, env: Mapping[str, str]) -> None:
        from gno_adapters.model_files.cache import ModelStore

        self.unavailable: dict[str, str] = {}
        # The error behind each missing model: what a command that needs it reports.
        self.errors: dict[str, GnoError] = {}
        store = ModelStore(models_dir)
        self.embedder: LazyOnnxEmbedder | None = None
        self.reranker: LazyOnnxReranker | None = None
        embed_ref = env.get(EMBED_ENV, "").strip() or None
        if embed_ref is not None and embed_ref.lower() in OFF:
            from gno_core.errors import ModelUnavailableError

            self.errors["embed"] = ModelUnavailableError(
                f"{EMBED_ENV}={embed_ref} turns vectors off",
                details={"role": "embed", "reason": "turned_off"},
            )
        else:
            precision: Precision = (
                "fp32" if env.get(PRECISION_ENV, "").strip() == "fp32" else "int8"
            )
            try:
                location = store.resolve(ModelRole.EMBED, embed_ref)
                self.embedder = LazyOnnxEmbedder(
                    location, precision, private_root=models_dir.parent
                )
            except GnoError as exc:
                self.unavailable["embed"] = exc.message
                self.errors["embed"] = exc
        rerank_ref = env.get(RERANK_ENV, "").strip() or None
        if rerank_ref is None or rerank_ref.lower() not in OFF:
            try:
                self.reranker = LazyOnnxReranker(store.resolve(ModelRole.RERANK, rerank_ref))
            except (GnoError, ValueError) as exc:
                self.unavailable["rerank"] = getattr(exc, "message", str(exc))
                if isinstance(exc, GnoError):
                    self.errors["rerank"] = exc


def model_store(index: str | None, config_path: str | None, *, offline: bool = False) -> ModelStore:
    """The model store of ``index``'s data folders (``gno models``)."""
    from gno_adapters.config import resolve_paths
    from gno_adapters.model_files.cache import ModelStore

    return ModelStore(resolve_paths(index, config_path).models_dir, offline=offline)
