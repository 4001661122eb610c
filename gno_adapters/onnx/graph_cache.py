"""Builds the ONNX graph of a BERT model once and keeps it in the model's cache dir.

The built file is named after a hash of the source weights, the config and the graph version,
so a changed model or builder never reuses a stale graph. Hashing the weights costs up to
0.1 s, so the digest is remembered beside the graph, keyed by the weights' size and mtime.
The word-embedding table the graph takes as an input is saved beside it under the same key
(``graph-KEY-words.npy``, shared by the fp32 and int8 graphs) and memory-mapped on load, so a
process reads only the rows its texts use. Writes go through a temporary file and a rename,
the table before the graph: concurrent builders never see a torn file, and a graph is only
used with its table. The builder (``bert_graph``) loads only when a graph must be built.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from gno_adapters.fsutil import atomic_write
from gno_adapters.onnx.graph_names import GRAPH_VERSION, Precision

__all__ = ["BuiltGraph", "Precision", "bert_graph", "graph_key"]

_SOURCE_MEMO = "graph-source.json"


class BuiltGraph(NamedTuple):
    """A built encoder: the graph (a cached file's path, or the serialized model when the
    cache cannot be written) and the word-embedding table whose rows feed its ``emb_words``
    (memory-mapped from the cache, or in memory)."""

    model: Path | bytes
    words: npt.NDArray[np.float32]


def bert_graph(
    weights: Path, config: Path, cache_dir: Path, *, precision: Precision = "fp32"
) -> BuiltGraph:
    """The built graph for ``weights`` (``model.safetensors``, or an exported BERT
    ``model.onnx`` whose weights gno reads) at ``precision``: cached files, or the serialized
    model and an in-memory table when ``cache_dir`` cannot be written (read-only home,
    sandbox)."""
    key = graph_key(weights, config, cache_dir)
    target = cache_dir / f"graph-{key}{'-int8' if precision == 'int8' else ''}.onnx"
    table = cache_dir / f"graph-{key}-words.npy"
    words = _mapped_table(table) if target.is_file() else None
    if words is not None:
        return BuiltGraph(target, words)
    from gno_adapters.onnx.bert_graph import BertShape, build_bert_encoder, word_embeddings

    if weights.suffix == ".onnx":
        from gno_adapters.onnx.onnx_weights import read_exported_bert

        exported = read_exported_bert(weights)
        tensors, quantized = exported.tensors, exported.quantized
    else:
        from gno_adapters.onnx.safetensors import read_safetensors

        tensors, quantized = read_safetensors(weights), {}
    shape = BertShape.from_file(config)
    model = build_bert_encoder(
        tensors, shape, precision=precision, quantized=quantized, words_input=True
    )
    words = word_embeddings(tensors)
    try:
        if _mapped_table(table) is None:
            buffer = io.BytesIO()
            np.save(buffer, words, allow_pickle=False)
            atomic_write(table, buffer.getvalue())
        atomic_write(target, model)
    except OSError:
        return BuiltGraph(model, words)
    for stale in cache_dir.glob("graph-*"):
        if stale.suffix in (".onnx", ".npy") and not stale.name.startswith(f"graph-{key}"):
            stale.unlink(missing_ok=True)
    mapped = _mapped_table(table)
    return BuiltGraph(target, words if mapped is None else mapped)


def _mapped_table(path: Path) -> npt.NDArray[np.float32] | None:
    """The saved word-embedding table, memory-mapped; None when missing or not a float32
    matrix (then the caller builds it again)."""
    try:
        table: npt.NDArray[Any] = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    if table.dtype != np.float32 or table.ndim != 2:
        return None
    return table


def graph_key(weights: Path, config: Path, cache_dir: Path) -> str:
    """16 hex digits naming the graph built from these weights and config by this builder."""
    digest = hashlib.sha256()
    digest.update(_weights_digest(weights, cache_dir).encode())
    digest.update(config.read_bytes())
    digest.update(f"graph-v{GRAPH_VERSION}".encode())
    return digest.hexdigest()[:16]


def _weights_digest(weights: Path, cache_dir: Path) -> str:
    stat = weights.stat()
    identity = {"path": str(weights), "size": stat.st_size, "mtimeNs": stat.st_mtime_ns}
    memo = cache_dir / _SOURCE_MEMO
    try:
        recorded = json.loads(memo.read_text(encoding="utf-8"))
        if isinstance(recorded, dict) and recorded.get("identity") == identity:
            return str(recorded["sha256"])
    except (OSError, ValueError, KeyError):
        pass
    digest = hashlib.sha256()
    with weights.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    sha = digest.hexdigest()
    with contextlib.suppress(OSError):  # an unwritable cache only costs a re-hash next time
        atomic_write(memo, json.dumps({"identity": identity, "sha256": sha}).encode())
    return sha
