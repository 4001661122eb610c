"""Reads the weights of a BERT encoder exported to ONNX, so gno can build its own fused graph.

Exports from PyTorch keep the named tensors (biases, layer norms, embeddings) under their
Hugging Face names but give every linear layer's weight an anonymous name (``val_49``), stored
as ``[in, out]`` for ``MatMul``. Each such ``MatMul`` feeds an ``Add`` with the layer's named
bias, which names the weight. Int8 exports store a weight as ``q`` (int8) with a ``scale`` and
dequantize it in the graph (``Cast`` then ``Mul``, optionally ``Sub`` of a zero point first);
the reader dequantizes (``scale * (q - zero_point)``) and also keeps ``q`` and ``scale`` of each
symmetric, per-output-column linear weight so an int8 graph can use them unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gno_adapters.onnx.proto import Graph, OnnxFormatError, read_graph

_STRIP = ("inner.", "bert.", "model.", "0.auto_model.")


@dataclass(frozen=True, slots=True)
class QuantizedLinear:
    """An int8 weight as published: ``weight[:, j] = scale[j] * q[:, j]`` with ``q`` as
    ``[in, out]``."""

    q: npt.NDArray[np.int8]
    scale: npt.NDArray[np.float32]


@dataclass(slots=True)
class ExportedWeights:
    """fp32 tensors under Hugging Face names and layouts, plus the int8 form of linear weights
    that came quantized per output column."""

    tensors: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    quantized: dict[str, QuantizedLinear] = field(default_factory=dict)


def _hf_name(name: str) -> str:
    for prefix in _STRIP:
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def read_exported_bert(path: Path) -> ExportedWeights:
    """The weights of the BERT encoder in the ONNX file ``path``.

    Raises ``ValueError`` (``OnnxFormatError``) when the file is not an ONNX model or its
    linear layers cannot be matched to their biases.
    """
    graph = read_graph(path.read_bytes())
    return weights_from_graph(graph)


def weights_from_graph(graph: Graph) -> ExportedWeights:
    init = graph.initializers
    producer = {out: n for n in graph.nodes for out in n.outputs}
    consumers: dict[str, list[Any]] = {}
    for n in graph.nodes:
        for i in n.inputs:
            consumers.setdefault(i, []).append(n)

    def source(name: str) -> tuple[npt.NDArray[np.float32], QuantizedLinear | None] | None:
        """The value of ``name`` if it is an initializer or a dequantized one."""
        if name in init:
            return np.asarray(init[name], dtype=np.float32), None
        mul = producer.get(name)
        if mul is None or mul.op != "Mul" or len(mul.inputs) != 2:
            return None
        scaled, scale_name = mul.inputs
        if scale_name not in init:
            scaled, scale_name = scale_name, scaled
        scale = init.get(scale_name)
        start = producer.get(scaled)
        zero: npt.NDArray[Any] | None = None
        if start is not None and start.op == "Sub" and start.inputs[1] in init:
            zero = init[start.inputs[1]]
            start = producer.get(start.inputs[0])
        if scale is None or start is None or start.op != "Cast" or start.inputs[0] not in init:
            return None
        q = init[start.inputs[0]]
        if q.dtype not in (np.int8, np.uint8):
            return None
        centred = q.astype(np.float32) - (0 if zero is None else zero.astype(np.float32))
        value = (scale.astype(np.float32) * centred).astype(np.float32)
        per_column = (
            zero is None
            and q.dtype == np.int8
            and q.ndim == 2
            and scale.size == q.shape[1]
            and scale.shape[-1] == q.shape[1]
        )
        packed = (
            QuantizedLinear(q.astype(np.int8), scale.reshape(-1).astype(np.float32))
            if per_column
            else None
        )
        return value, packed

    out = ExportedWeights()
    for name, array in init.items():
        if array.dtype == np.float32 and not name.startswith("val_"):
            out.tensors[_hf_name(name)] = array
    for n in graph.nodes:  # dequantized embeddings keep their names
        if n.op == "Mul" and n.outputs and not n.outputs[0].startswith("val_"):
            found = source(n.outputs[0])
            if found is not None:
                out.tensors[_hf_name(n.outputs[0])] = found[0]
    for n in graph.nodes:
        if n.op != "MatMul" or len(n.inputs) != 2:
            continue
        found = source(n.inputs[1])
        if found is None or found[0].ndim != 2:
            continue
        bias = next(
            (
                other
                for add in consumers.get(n.outputs[0], [])
                if add.op == "Add"
                for other in add.inputs
                if other in init and other.endswith(".bias")
            ),
            None,
        )
        if bias is None:
            raise OnnxFormatError(f"cannot tell which layer the weight {n.inputs[1]!r} belongs to")
        weight_name = _hf_name(bias)[: -len(".bias")] + ".weight"
        value, packed = found
        out.tensors[weight_name] = np.ascontiguousarray(value.T)  # Hugging Face keeps [out, in]
        if packed is not None:
            out.quantized[weight_name] = packed
    return out
