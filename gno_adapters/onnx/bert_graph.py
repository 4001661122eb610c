"""Builds a fused fp32 ONNX graph of a BERT encoder from its safetensors weights (no torch).

The graph uses onnxruntime's fused CPU kernels (``com.microsoft`` Attention,
SkipLayerNormalization and BiasGelu): onnxruntime cannot fuse the attention of the int8 graphs
found on PyPI, and the fused graph is about twice as fast. Inputs are ``input_ids`` and
``attention_mask`` (int64, [batch, seq]); the output is ``last_hidden_state`` (float32,
[batch, seq, hidden]). Token type ids are always zero for single-segment text, so the type
embedding of segment 0 is folded into the position embeddings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnx
from onnx import TensorProto, helper, numpy_helper

#: Bump when the generated graph changes, so cached builds are rebuilt.
GRAPH_VERSION = 1
_OPSET = 17
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
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[TensorProto] = []

    def const(self, name: str, value: npt.NDArray[Any]) -> str:
        self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def node(self, op: str, inputs: list[str], output: str, **attrs: Any) -> str:
        domain = attrs.pop("domain", "")
        self.nodes.append(
            helper.make_node(op, inputs, [output], name=output, domain=domain, **attrs)
        )
        return output


def build_bert_encoder(tensors: Mapping[str, npt.NDArray[Any]], shape: BertShape) -> bytes:
    """The serialized ONNX model of the encoder described by ``tensors`` and ``shape``."""
    w = _Weights(tensors)
    g = _Graph()
    eps = shape.layer_norm_eps

    mask32 = g.node("Cast", ["attention_mask"], "mask_int32", to=TensorProto.INT32)
    words = g.node(
        "Gather",
        [g.const("word_embeddings", w("embeddings.word_embeddings.weight")), "input_ids"],
        "emb_words",
    )
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
        qkv_w = np.concatenate(
            [w(p + f"attention.self.{k}.weight").T for k in ("query", "key", "value")], axis=1
        )
        qkv_b = np.concatenate(
            [w(p + f"attention.self.{k}.bias") for k in ("query", "key", "value")]
        )
        attn = g.node(
            "Attention",
            [
                hidden,
                g.const(f"l{i}_qkv_w", np.ascontiguousarray(qkv_w)),
                g.const(f"l{i}_qkv_b", qkv_b),
                mask32,
            ],
            f"l{i}_attn",
            domain="com.microsoft",
            num_heads=shape.heads,
        )
        proj = g.node(
            "MatMul",
            [
                attn,
                g.const(
                    f"l{i}_ao_w", np.ascontiguousarray(w(p + "attention.output.dense.weight").T)
                ),
            ],
            f"l{i}_attn_proj",
        )
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
        up = g.node(
            "MatMul",
            [
                hidden,
                g.const(f"l{i}_up_w", np.ascontiguousarray(w(p + "intermediate.dense.weight").T)),
            ],
            f"l{i}_up",
        )
        act = g.node(
            "BiasGelu",
            [up, g.const(f"l{i}_up_b", w(p + "intermediate.dense.bias"))],
            f"l{i}_gelu",
            domain="com.microsoft",
        )
        down = g.node(
            "MatMul",
            [act, g.const(f"l{i}_down_w", np.ascontiguousarray(w(p + "output.dense.weight").T))],
            f"l{i}_down",
        )
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

    graph = helper.make_graph(
        g.nodes,
        "bert_encoder",
        inputs=[
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        outputs=[
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, ["batch", "seq", shape.hidden]
            )
        ],
        initializer=g.initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", _OPSET), helper.make_opsetid("com.microsoft", 1)],
        producer_name="gno",
        producer_version=str(GRAPH_VERSION),
    )
    model.ir_version = 8
    data: bytes = model.SerializeToString()
    return data


def quantize_int8(model: bytes) -> bytes:
    """``model`` with int8 weights (per output channel) and int8 activations quantized per
    call (onnxruntime dynamic quantization of every MatMul and Attention).

    The activation scale spans the whole input tensor, so a text's vector depends on the rest
    of its batch: callers must run one text per call to stay deterministic.
    """
    import tempfile

    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.quant_utils import add_pre_process_metadata

    proto = onnx.load_from_string(model)
    # The graph is already fused and shape-complete; the tag stops the quantizer asking for a
    # pre-processing pass it would not need.
    add_pre_process_metadata(proto)
    with tempfile.TemporaryDirectory(prefix="gno-int8-") as tmp:
        target = Path(tmp) / "int8.onnx"
        quantize_dynamic(
            proto,
            target,
            op_types_to_quantize=["MatMul", "Attention"],
            per_channel=True,
            weight_type=QuantType.QInt8,
            extra_options={"DefaultTensorType": TensorProto.FLOAT, "MatMulConstBOnly": True},
        )
        return target.read_bytes()
