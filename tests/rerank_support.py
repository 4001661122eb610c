"""Builds a tiny random-weight BERT cross-encoder on the fly (ONNX graph + WordPiece
tokenizer.json), so the real ``OnnxReranker`` code path runs in tests without any download.

The graph is a genuine (if small) BERT: word + position + token-type embeddings, masked
multi-head self-attention, a GELU feed-forward block, the pooled ``[CLS]`` vector and a one-logit
classifier, all in standard ONNX operators. Inputs ``input_ids``, ``attention_mask``,
``token_type_ids`` (int64 [batch, seq]); output ``logits`` (float32 [batch, 1], or one per class
for an NLI cross-encoder: ``write_nli``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN, HEADS, FFN, MAX_POS = 32, 4, 64, 512
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = (
    "the a of and to in is are for on with by that this it as be at from or an vitamin bone "
    "density calcium cats dogs bread bake dough rockets orbit fuel plan budget quarterly "
    "kitchen purr bark fetch loyal domestic felines canines mice hunt rise knead earth burn "
    "reach around small what does how why which study trial patients risk effect"
).split()


def write_tokenizer(path: Path) -> list[str]:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    vocab = [*SPECIAL, *dict.fromkeys(WORDS)]
    tok = Tokenizer(models.WordPiece({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    tok.save(str(path))
    return vocab


def build_cross_encoder(vocab_size: int, seed: int = 7, labels: int = 1) -> bytes:
    rng = np.random.default_rng(seed)
    inits: list[TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def const(name: str, value: Any) -> str:
        inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def weight(name: str, *shape: int) -> str:
        return const(name, rng.normal(0, 0.2, shape).astype(np.float32))

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def layer_norm(x: str, name: str) -> str:
        ones, zeros = np.ones(HIDDEN, np.float32), np.zeros(HIDDEN, np.float32)
        return node(
            "LayerNormalization",
            [x, const(name + "_g", ones), const(name + "_b", zeros)],
            name,
            axis=-1,
            epsilon=1e-12,
        )

    def dense(x: str, name: str, n_in: int, n_out: int) -> str:
        mm = node("MatMul", [x, weight(name + "_w", n_in, n_out)], name + "_mm")
        return node("Add", [mm, weight(name + "_bias", n_out)], name)

    head = HIDDEN // HEADS
    words = node("Gather", [weight("word_emb", vocab_size, HIDDEN), "input_ids"], "e_words")
    types = node("Gather", [weight("type_emb", 2, HIDDEN), "token_type_ids"], "e_types")
    seq = node("Shape", ["input_ids"], "seq_len", start=1, end=2)
    zero = const("zero", np.zeros(1, np.int64))
    pos = node("Slice", [weight("pos_emb", MAX_POS, HIDDEN), zero, seq, zero], "e_pos")
    emb = node("Add", [node("Add", [words, types], "e_wt"), pos], "e_sum")
    x = layer_norm(emb, "e_ln")

    # Attention mask: 0 for real tokens, -10000 for padding, shaped [batch, 1, 1, seq].
    maskf = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    inv = node("Sub", [const("one", np.float32(1.0)), maskf], "mask_inv")
    bias = node("Mul", [inv, const("neg", np.float32(-10000.0))], "mask_bias")
    bias4 = node("Unsqueeze", [bias, const("axes12", np.array([1, 2], np.int64))], "mask_4d")

    split_shape = const("split_shape", np.array([0, 0, HEADS, head], np.int64))
    merge_shape = const("merge_shape", np.array([0, 0, HIDDEN], np.int64))

    def heads(name: str) -> str:
        r = node("Reshape", [dense(x, name, HIDDEN, HIDDEN), split_shape], name + "_r")
        return node("Transpose", [r], name + "_t", perm=[0, 2, 1, 3])

    q, k, v = heads("q"), heads("k"), heads("v")
    kt = node("Transpose", [k], "k_tt", perm=[0, 1, 3, 2])
    scores = node("MatMul", [q, kt], "att_scores")
    scaled = node("Mul", [scores, const("scale", np.float32(1 / np.sqrt(head)))], "att_scaled")
    probs = node("Softmax", [node("Add", [scaled, bias4], "att_masked")], "att_probs", axis=-1)
    ctx = node("Transpose", [node("MatMul", [probs, v], "att_ctx")], "att_ctx_t", perm=[0, 2, 1, 3])
    merged = node("Reshape", [ctx, merge_shape], "att_merged")
    x = layer_norm(node("Add", [dense(merged, "att_out", HIDDEN, HIDDEN), x], "att_res"), "att_ln")
    up = dense(x, "ffn_up", HIDDEN, FFN)
    gelu = node(
        "Mul",
        [
            up,
            node(
                "Sigmoid",
                [node("Mul", [up, const("gelu_k", np.float32(1.702))], "gelu_in")],
                "gelu_s",
            ),
        ],
        "gelu",
    )
    x = layer_norm(node("Add", [dense(gelu, "ffn_down", FFN, HIDDEN), x], "ffn_res"), "ffn_ln")
    cls = node("Gather", [x, const("cls_index", np.array(0, np.int64))], "cls", axis=1)
    pooled = node("Tanh", [dense(cls, "pool", HIDDEN, HIDDEN)], "pooled")
    dense(pooled, "logits", HIDDEN, labels)

    graph = helper.make_graph(
        nodes,
        "tiny_cross_encoder",
        inputs=[
            helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"])
            for n in ("input_ids", "attention_mask", "token_type_ids")
        ],
        outputs=[helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    data: bytes = model.SerializeToString()
    return data


def write_cross_encoder(directory: Path) -> Path:
    """A model directory (``model.onnx`` + ``tokenizer.json``) of a tiny cross-encoder."""
    directory.mkdir(parents=True, exist_ok=True)
    vocab = write_tokenizer(directory / "tokenizer.json")
    (directory / "model.onnx").write_bytes(build_cross_encoder(len(vocab)))
    return directory


def write_nli(
    directory: Path,
    labels: tuple[str, ...] = ("contradiction", "entailment", "neutral"),
    seed: int = 11,
) -> Path:
    """A model directory (``model.onnx`` + ``tokenizer.json`` + ``config.json`` naming the
    classes) of a tiny random-weight NLI cross-encoder: one logit per class."""
    import json

    directory.mkdir(parents=True, exist_ok=True)
    vocab = write_tokenizer(directory / "tokenizer.json")
    (directory / "model.onnx").write_bytes(build_cross_encoder(len(vocab), seed, len(labels)))
    config = {"id2label": {str(i): name for i, name in enumerate(labels)}}
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return directory
