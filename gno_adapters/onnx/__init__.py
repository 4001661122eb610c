"""onnxruntime adapters: the sentence embedder (and the graph builder behind its default model)."""

from __future__ import annotations

from gno_adapters.onnx.embedder import OnnxEmbedder

__all__ = ["OnnxEmbedder"]
