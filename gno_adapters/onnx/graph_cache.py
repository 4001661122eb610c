"""Builds the ONNX graph of a BERT model once and keeps it in the model's cache dir.

The built file is named after a hash of the source weights, the config and the graph version,
so a changed model or builder never reuses a stale graph. Hashing the weights costs up to
0.1 s, so the digest is remembered beside the graph, keyed by the weights' size and mtime.
Writes go through a temporary file and a rename: concurrent builders never see a torn graph.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path

from gno_adapters.fsutil import atomic_write
from gno_adapters.onnx.bert_graph import GRAPH_VERSION, BertShape, Precision, build_bert_encoder

__all__ = ["Precision", "bert_graph", "graph_key"]

_SOURCE_MEMO = "graph-source.json"


def bert_graph(
    weights: Path, config: Path, cache_dir: Path, *, precision: Precision = "fp32"
) -> Path | bytes:
    """The built graph for ``weights`` (``model.safetensors``, or an exported BERT
    ``model.onnx`` whose weights gno reads) at ``precision``: a cached file path, or the
    serialized model itself when ``cache_dir`` cannot be written (read-only home, sandbox)."""
    key = graph_key(weights, config, cache_dir)
    target = cache_dir / f"graph-{key}{'-int8' if precision == 'int8' else ''}.onnx"
    if target.is_file():
        return target
    if weights.suffix == ".onnx":
        from gno_adapters.onnx.onnx_weights import read_exported_bert

        exported = read_exported_bert(weights)
        tensors, quantized = exported.tensors, exported.quantized
    else:
        from gno_adapters.onnx.safetensors import read_safetensors

        tensors, quantized = read_safetensors(weights), {}
    model = build_bert_encoder(
        tensors, BertShape.from_file(config), precision=precision, quantized=quantized
    )
    try:
        atomic_write(target, model)
    except OSError:
        return model
    for stale in cache_dir.glob("graph-*.onnx"):
        if not stale.name.startswith(f"graph-{key}"):
            stale.unlink(missing_ok=True)
    return target


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
