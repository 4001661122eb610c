"""Shared helpers for embedding tests: one ONNX embedder per test process, built into a temp cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gno_adapters.bootstrap.model_wiring import LazyOnnxEmbedder
from gno_adapters.embed_child import ChildEmbedder, EmbedChild
from gno_adapters.model_files import ModelStore
from gno_adapters.onnx import OnnxEmbedder
from gno_adapters.onnx.graph_cache import Precision
from gno_core.model_registry import ModelRole


def models_dir(factory: pytest.TempPathFactory) -> Path:
    """A models cache shared by every test of this process (the built graph is reused)."""
    return factory.getbasetemp() / "gno-models"


def new_onnx_embedder(
    factory: pytest.TempPathFactory, *, precision: Precision = "fp32"
) -> OnnxEmbedder:
    """A fresh, unloaded embedder of the bundled default model."""
    location = ModelStore(models_dir(factory)).resolve(ModelRole.EMBED)
    return OnnxEmbedder(location, precision=precision)


def new_child_embedder(
    factory: pytest.TempPathFactory, *, precision: Precision = "int8"
) -> tuple[ChildEmbedder, Callable[[], None]]:
    """The bundled model served by a forked child (``gno vsearch``/``query``), and the call
    that ends and reaps the child."""
    location = ModelStore(models_dir(factory)).resolve(ModelRole.EMBED)
    child = EmbedChild.start()
    return ChildEmbedder(LazyOnnxEmbedder(location, precision), child), child.close
