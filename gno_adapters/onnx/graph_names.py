"""What a process needs to know of gno's built BERT graph to find and run it: the version that
keys the cached build, the precisions it is built at and the input its word embeddings come in
by. Kept apart from the builder (``bert_graph``, with the ONNX writer it uses), which a process
loads only when it must build a graph."""

from __future__ import annotations

from typing import Literal

__all__ = ["GRAPH_VERSION", "WORDS_INPUT", "Precision"]

#: Bump when the generated graph changes, so cached builds are rebuilt.
GRAPH_VERSION = 3
#: The graph input that carries the gathered word embeddings (unless ``words_input=False``).
WORDS_INPUT = "emb_words"

#: ``fp32`` (exact) or ``int8`` (per-run activation scales: about twice as fast).
Precision = Literal["fp32", "int8"]
