"""gno's own ONNX writer and reader: graphs it writes pass the ``onnx`` checker and run; the
reader gives back what the writer stored; int8 weights round-trip through an export-style graph."""

from __future__ import annotations

import numpy as np
import pytest

from gno_adapters.onnx import proto
from gno_adapters.onnx.bert_graph import WORDS_INPUT, BertShape, build_bert_encoder, word_embeddings
from gno_adapters.onnx.onnx_weights import weights_from_graph

SHAPE = BertShape(
    hidden=8, heads=2, layers=2, intermediate=16, max_positions=16, layer_norm_eps=1e-12
)


def _tiny_bert(seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    h, i = SHAPE.hidden, SHAPE.intermediate

    def r(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.2, shape).astype(np.float32)

    w = {
        "embeddings.word_embeddings.weight": r(30, h),
        "embeddings.position_embeddings.weight": r(SHAPE.max_positions, h),
        "embeddings.token_type_embeddings.weight": r(2, h),
        "embeddings.LayerNorm.weight": 1 + r(h),
        "embeddings.LayerNorm.bias": r(h),
    }
    for n in range(SHAPE.layers):
        p = f"encoder.layer.{n}."
        for name, out, inp in [
            ("attention.self.query", h, h),
            ("attention.self.key", h, h),
            ("attention.self.value", h, h),
            ("attention.output.dense", h, h),
            ("intermediate.dense", i, h),
            ("output.dense", h, i),
        ]:
            w[p + name + ".weight"] = r(out, inp)
            w[p + name + ".bias"] = r(out)
        for ln in ("attention.output.LayerNorm", "output.LayerNorm"):
            w[p + ln + ".weight"] = 1 + r(h)
            w[p + ln + ".bias"] = r(h)
    return w


def _run(model: bytes, ids: list[list[int]]) -> np.ndarray:
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    feed = np.array(ids, dtype=np.int64)
    out: np.ndarray = session.run(None, {"input_ids": feed, "attention_mask": np.ones_like(feed)})[
        0
    ]
    return out


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_written_graph_passes_the_checker_and_runs(precision: str) -> None:
    onnx = pytest.importorskip("onnx")
    model = build_bert_encoder(_tiny_bert(), SHAPE, precision=precision)  # type: ignore[arg-type]
    parsed = onnx.load_from_string(model)
    onnx.checker.check_model(parsed)
    assert parsed.producer_name == "gno"
    assert {(o.domain, o.version) for o in parsed.opset_import} == {("", 17), ("com.microsoft", 1)}
    ops = {n.op_type for n in parsed.graph.node}
    assert ("QAttention" in ops) == (precision == "int8")
    out = _run(model, [[1, 2, 3, 4]])
    assert out.shape == (1, 4, SHAPE.hidden) and np.isfinite(out).all()


def test_int8_graph_tracks_fp32() -> None:
    w = _tiny_bert()
    exact = _run(build_bert_encoder(w, SHAPE), [[5, 6, 7, 8, 9]])[0].mean(0)
    approx = _run(build_bert_encoder(w, SHAPE, precision="int8"), [[5, 6, 7, 8, 9]])[0].mean(0)
    cosine = float(exact @ approx / np.linalg.norm(exact) / np.linalg.norm(approx))
    assert cosine > 0.99


def test_reader_returns_what_the_writer_stored() -> None:
    w = _tiny_bert()
    graph = proto.read_graph(build_bert_encoder(w, SHAPE))
    np.testing.assert_array_equal(
        graph.initializers["word_embeddings"], w["embeddings.word_embeddings.weight"]
    )
    np.testing.assert_array_equal(graph.initializers["zero_1d"], np.zeros(1, np.int64))
    attention = [n for n in graph.nodes if n.op == "Attention"]
    assert len(attention) == SHAPE.layers and attention[0].outputs == ("l0_attn",)


def test_export_style_int8_weights_are_dequantized_and_kept() -> None:
    """An exporter's ``Cast(q) * scale`` feeding ``MatMul`` then ``Add(bias)``."""
    rng = np.random.default_rng(1)
    q = rng.integers(-127, 128, (4, 3)).astype(np.int8)
    scale = np.array([[0.5, 0.25, 0.125]], np.float32)
    bias = np.zeros(3, np.float32)
    nodes = [
        proto.node("Cast", ["val_1_q"], ["val_1_f"], name="c", attributes={"to": proto.FLOAT}),
        proto.node("Mul", ["val_1_f", "val_1_scale"], ["val_1"], name="m"),
        proto.node("MatMul", ["x", "val_1"], ["val_2"], name="mm"),
        proto.node("Add", ["val_2", "inner.encoder.layer.0.output.dense.bias"], ["y"], name="a"),
    ]
    model = proto.model(
        graph_name="g",
        nodes=nodes,
        initializers=[
            proto.tensor("val_1_q", q),
            proto.tensor("val_1_scale", scale),
            proto.tensor("inner.encoder.layer.0.output.dense.bias", bias),
        ],
        inputs=[proto.value_info("x", proto.FLOAT, ["n", 4])],
        outputs=[proto.value_info("y", proto.FLOAT, ["n", 3])],
        opsets={"": 17},
        ir_version=8,
        producer=("test", "1"),
    )
    weights = weights_from_graph(proto.read_graph(model))
    name = "encoder.layer.0.output.dense.weight"
    np.testing.assert_array_equal(weights.tensors[name], (q.astype(np.float32) * scale).T)
    np.testing.assert_array_equal(weights.quantized[name].q, q)
    np.testing.assert_array_equal(weights.quantized[name].scale, scale.reshape(-1))
    assert "encoder.layer.0.output.dense.bias" in weights.tensors


def test_garbage_is_a_format_error() -> None:
    with pytest.raises(proto.OnnxFormatError):
        proto.read_graph(b"\x0a\xff\xff")
    with pytest.raises(proto.OnnxFormatError, match="no graph"):
        proto.read_graph(b"\x08\x08")


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_word_table_as_an_input_gives_the_same_bytes(precision: str) -> None:
    """``words_input=True`` leaves the table out (``emb_words`` is fed its gathered rows):
    the hidden states are bit-identical to the self-contained graph's, padding included."""
    ort = pytest.importorskip("onnxruntime")
    w = _tiny_bert()
    inside = build_bert_encoder(w, SHAPE, precision=precision)  # type: ignore[arg-type]
    outside = build_bert_encoder(w, SHAPE, precision=precision, words_input=True)  # type: ignore[arg-type]
    assert "word_embeddings" not in proto.read_graph(outside).initializers
    table = word_embeddings(w)
    sessions = [
        ort.InferenceSession(m, providers=["CPUExecutionProvider"]) for m in (inside, outside)
    ]
    ids = np.array([[1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 0, 0, 0, 0]], dtype=np.int64)
    mask = (ids > 0).astype(np.int64)
    mask[0] = 1
    feeds = {"input_ids": ids, "attention_mask": mask}
    expected = sessions[0].run(None, feeds)[0]
    got = sessions[1].run(None, {**feeds, WORDS_INPUT: np.ascontiguousarray(table[ids])})[0]
    assert np.array_equal(expected, got)
    with pytest.raises(Exception, match=WORDS_INPUT):
        sessions[1].run(None, feeds)
