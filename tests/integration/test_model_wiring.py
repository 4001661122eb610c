"""The lazy embedder bootstrap hands the facade: the same identity as the ONNX embedder it
stands for, known without loading anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_adapters.bootstrap.local import facade_factory, open_gno
from gno_adapters.bootstrap.model_wiring import LazyOnnxEmbedder, SemanticModels
from gno_adapters.model_files import ModelStore
from gno_adapters.onnx import OnnxEmbedder
from gno_core.model_registry import MINILM_L6, ModelRole
from tests.embedding_support import models_dir


@pytest.mark.parametrize("precision", ["int8", "fp32"])
def test_lazy_identity_matches_the_real_embedder(
    precision: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    location = ModelStore(models_dir(tmp_path_factory)).resolve(ModelRole.EMBED)
    lazy = LazyOnnxEmbedder(location, precision)  # type: ignore[arg-type]
    real = OnnxEmbedder(location, precision=precision)  # type: ignore[arg-type]
    assert (lazy.model_id, lazy.dimensions, lazy.max_tokens, lazy.profile) == (
        real.model_id,
        real.dimensions,
        real.max_tokens,
        real.profile,
    )
    assert lazy.fingerprint == real.fingerprint
    assert not lazy.loaded


def test_load_loads_once_ahead_of_the_first_embedding(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    location = ModelStore(models_dir(tmp_path_factory)).resolve(ModelRole.EMBED)
    lazy = LazyOnnxEmbedder(location)
    lazy.load()
    assert lazy.loaded
    real = OnnxEmbedder(location)
    assert lazy.embed_batch(["a query"]) == real.embed_batch(["a query"])


def test_environment_chooses_precision(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = models_dir(tmp_path_factory)
    default = SemanticModels(base, {}).embedder
    exact = SemanticModels(base, {"GNO_EMBED_PRECISION": "fp32"}).embedder
    assert default is not None and default.model_id.endswith("#int8")
    assert exact is not None and exact.model_id == MINILM_L6.model_id
    missing = SemanticModels(base, {"GNO_EMBED_MODEL": "/nonexistent/model"})
    assert missing.embedder is None and "embed" in missing.unavailable


def test_the_resident_factory_hands_every_facade_one_model(tmp_path: Path) -> None:
    """The gateway's worker threads each get a facade (and index connection) of their own from
    ``facade_factory``, but one embedder: the model loads once per resident process."""
    env = {"GNO_CONFIG_DIR": str(tmp_path / "c"), "GNO_DATA_DIR": str(tmp_path / "d")}
    env["GNO_CACHE_DIR"] = str(tmp_path / "k")
    make = facade_factory(env=env)
    first, second = make(), make()
    try:
        assert first is not second
        assert first.embedder is not None and first.embedder is second.embedder
        alone = open_gno(env=env)
        assert alone.embedder is not first.embedder  # a one-off facade keeps its own
        alone.close()
    finally:
        first.close()
        second.close()
