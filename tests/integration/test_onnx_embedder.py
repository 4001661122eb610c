"""OnnxEmbedder beyond the port contract: the built graph matches a plain numpy forward pass,
the build is cached and keyed by the weights, local paths work, and failures are typed.

The bundled model is an int8 ONNX export; local-folder tests write its dequantized weights out
as ``model.safetensors`` with a ``tokenizer.json`` made from the same vocabulary, so both
routes must give the same vectors."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from gno_adapters.model_files import ModelStore
from gno_adapters.onnx import OnnxEmbedder
from gno_adapters.onnx.bert_graph import BertShape, build_bert_encoder
from gno_adapters.onnx.graph_cache import Precision
from gno_adapters.onnx.onnx_weights import read_exported_bert
from gno_adapters.onnx.wordpiece import WordPieceTokenizer
from gno_core.errors import ModelUnavailableError
from gno_core.model_registry import ModelFormat, ModelRole
from gno_core.ports.embedder import dot
from tests.embedding_support import models_dir, new_onnx_embedder

Array = npt.NDArray[Any]
SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The new movie is awesome.",
    "Ünïcödé and 東京",
]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> OnnxEmbedder:
    return new_onnx_embedder(tmp_path_factory)


@pytest.fixture(scope="module")
def bundled_dir(embedder: OnnxEmbedder, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled model as a local safetensors folder (weights dequantized, same vocab)."""
    from tokenizers.implementations import BertWordPieceTokenizer

    location = embedder.location
    assert location.config is not None
    folder = tmp_path_factory.mktemp("minilm-safetensors")
    tensors = read_exported_bert(Path(location.weights)).tensors
    _write_safetensors(folder / "model.safetensors", tensors)
    shutil.copyfile(location.config, folder / "config.json")
    (folder / "sentence_bert_config.json").write_text('{"max_seq_length": 256}', encoding="utf-8")
    BertWordPieceTokenizer(location.tokenizer, lowercase=True).save(str(folder / "tokenizer.json"))
    return folder


def _write_safetensors(path: Path, tensors: dict[str, Array]) -> None:
    import json
    import struct

    header: dict[str, Any] = {}
    blobs: list[bytes] = []
    offset = 0
    for name, value in sorted(tensors.items()):
        data = np.ascontiguousarray(value, dtype=np.float32).tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(value.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))


def _layer_norm(x: Array, gamma: Array, beta: Array, eps: float) -> Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: Array = (x - mean) / np.sqrt(var + eps) * gamma + beta
    return out


_erf = np.vectorize(math.erf)


def _reference(weights: Path, config: Path, ids: list[int]) -> Array:
    """all-MiniLM-L6-v2 written out in numpy (float64): embeddings, 6 encoder layers, mean pool."""
    w = {k: v.astype(np.float64) for k, v in read_exported_bert(weights).tensors.items()}
    shape = BertShape.from_file(config)
    n, heads = len(ids), shape.heads
    head = shape.hidden // heads
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    eps = shape.layer_norm_eps
    x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    for i in range(shape.layers):
        p = f"encoder.layer.{i}."

        def dense(v: Array, name: str, prefix: str = p) -> Array:
            out: Array = v @ w[prefix + name + ".weight"].T + w[prefix + name + ".bias"]
            return out

        q, k, v = (
            dense(x, f"attention.self.{m}").reshape(n, heads, head).transpose(1, 0, 2)
            for m in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(head)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = (scores / scores.sum(-1, keepdims=True)) @ v
        attn = dense(context.transpose(1, 0, 2).reshape(n, shape.hidden), "attention.output.dense")
        x = _layer_norm(
            attn + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        up = dense(x, "intermediate.dense")
        act = 0.5 * up * (1.0 + _erf(up / math.sqrt(2.0)))
        x = _layer_norm(
            dense(act, "output.dense") + x,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
            eps,
        )
    pooled: Array = x.mean(0)
    unit: Array = pooled / np.linalg.norm(pooled)
    return unit


def test_built_graph_matches_numpy_reference(embedder: OnnxEmbedder) -> None:
    vectors = embedder.embed_batch(SENTENCES)
    location = embedder.location
    assert location.config is not None
    tokenizer = WordPieceTokenizer.from_file(Path(location.tokenizer))
    for text, vector in zip(SENTENCES, vectors, strict=True):
        ids = tokenizer.encode(text)
        expected = _reference(Path(location.weights), Path(location.config), ids)
        cosine = float(np.dot(np.asarray(vector, dtype=np.float64), expected))
        assert cosine > 0.9999, text


def test_paraphrases_are_close(embedder: OnnxEmbedder) -> None:
    food, bread, movie, _ = embedder.embed_batch(SENTENCES)
    assert dot(food, bread) > 0.6
    assert dot(food, movie) < 0.2


def _fp32_graphs(cache: Path) -> list[Path]:
    return [p for p in cache.glob("graph-*.onnx") if not p.name.endswith("-int8.onnx")]


def test_graph_is_built_once_and_cached(
    embedder: OnnxEmbedder, tmp_path_factory: pytest.TempPathFactory
) -> None:
    embedder.load()
    cache = Path(embedder.location.cache_dir)
    graphs = _fp32_graphs(cache)
    assert len(graphs) == 1
    stamp = graphs[0].stat().st_mtime_ns
    again = new_onnx_embedder(tmp_path_factory)
    assert again.embed_batch(["x"])[0].tobytes() == embedder.embed_batch(["x"])[0].tobytes()
    assert [p.stat().st_mtime_ns for p in _fp32_graphs(cache)] == [stamp]


def _local_copy(src: Path, dest: Path, files: tuple[str, ...]) -> Path:
    dest.mkdir(parents=True)
    for name in files:
        target = dest / name
        if name == "model.safetensors":  # 90 MB: link, do not copy
            target.symlink_to(src / name)
        else:
            shutil.copyfile(src / name, target)
    return dest


def test_local_path_model(embedder: OnnxEmbedder, bundled_dir: Path, tmp_path: Path) -> None:
    local = _local_copy(
        bundled_dir,
        tmp_path / "minilm",
        ("model.safetensors", "config.json", "tokenizer.json", "sentence_bert_config.json"),
    )
    store = ModelStore(tmp_path / "models")
    location = store.resolve(ModelRole.EMBED, f"file:{local}")
    assert location.origin == "local"
    assert location.format is ModelFormat.BERT_SAFETENSORS
    assert location.dimensions == 384
    assert location.max_tokens == 256
    other = OnnxEmbedder(location, precision="fp32")
    assert other.fingerprint != embedder.fingerprint  # another model id: another vector space
    # Same weights and token ids by the other route (safetensors + tokenizer.json): same bytes.
    for mine, theirs in zip(
        other.embed_batch(SENTENCES), embedder.embed_batch(SENTENCES), strict=True
    ):
        assert mine.tobytes() == theirs.tobytes()
    assert list((tmp_path / "models" / "embed" / "local").glob("*/graph-*.onnx"))


def _self_contained(embedder: OnnxEmbedder, precision: Precision, path: Path) -> Path:
    """The encoder gno builds for ``embedder``, with its word table inside (any ONNX caller
    can run it), written to ``path``."""
    location = embedder.location
    assert location.config is not None
    exported = read_exported_bert(Path(location.weights))
    shape = BertShape.from_file(Path(location.config))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        build_bert_encoder(
            exported.tensors, shape, precision=precision, quantized=exported.quantized
        )
    )
    return path


def test_local_onnx_encoder(embedder: OnnxEmbedder, bundled_dir: Path, tmp_path: Path) -> None:
    embedder.load()
    local = _local_copy(bundled_dir, tmp_path / "onnx-model", ("tokenizer.json",))
    _self_contained(embedder, "fp32", local / "onnx" / "model.onnx")
    location = ModelStore(tmp_path / "models").resolve(ModelRole.EMBED, str(local))
    assert location.format is ModelFormat.ONNX_ENCODER
    assert location.dimensions is None
    other = OnnxEmbedder(location, precision="int8")  # ignored: the file runs as it is
    assert other.model_id == f"file:{local}"
    assert other.dimensions == 384
    assert other.embed_batch(SENTENCES[:2]) == embedder.embed_batch(SENTENCES[:2])


def test_missing_weights_fail_on_first_use_not_construction(
    bundled_dir: Path, tmp_path: Path
) -> None:
    local = _local_copy(
        bundled_dir, tmp_path / "m", ("model.safetensors", "config.json", "tokenizer.json")
    )
    location = ModelStore(tmp_path / "models").resolve(ModelRole.EMBED, str(local))
    (local / "model.safetensors").unlink()
    broken = OnnxEmbedder(location)
    assert broken.dimensions == 384
    with pytest.raises(ModelUnavailableError) as info:
        broken.embed_batch(["hello"])
    assert info.value.code == "MODEL_UNAVAILABLE"
    assert "model.safetensors" in info.value.message


def test_corrupt_files_are_model_unavailable(bundled_dir: Path, tmp_path: Path) -> None:
    local = _local_copy(bundled_dir, tmp_path / "bad", ("config.json", "tokenizer.json"))
    (local / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00not json")
    location = ModelStore(tmp_path / "models").resolve(ModelRole.EMBED, str(local))
    with pytest.raises(ModelUnavailableError, match="cannot load"):
        OnnxEmbedder(location).embed_batch(["hello"])
    (local / "tokenizer.json").write_text("{", encoding="utf-8")
    with pytest.raises(ModelUnavailableError, match="tokenizer"):
        OnnxEmbedder(location).embed_batch(["hello"])


def test_unwritable_cache_still_loads(
    embedder: OnnxEmbedder, bundled_dir: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "models"
    blocker.write_text("a file where the cache directory should be", encoding="utf-8")
    location = ModelStore(blocker).resolve(ModelRole.EMBED)
    vector = OnnxEmbedder(location, precision="fp32").embed_batch(["hello"])[0]
    assert len(vector) == 384
    # The serialized graph and its word table held in memory: the cached files' vectors.
    assert vector.tobytes() == embedder.embed_batch(["hello"])[0].tobytes()


TEXTS = [
    *SENTENCES,
    "",
    "a",
    "How do I declare dependencies in a path operation?",
    " ".join(["background tasks run after the response is sent"] * 12),
    "Path parameters with types: /items/{item_id} and int conversion.",
    "Ünïcödé, emoji 🚀 and CJK 東京タワー side by side",
    " ".join(f"token{i}" for i in range(300)),  # cut at the model's window
]


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_word_table_outside_the_graph_gives_the_same_bytes(
    precision: Precision, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The cached graph takes its word embeddings gathered from the ``.npy`` beside it; a graph
    with the table and its ``Gather`` inside (the layout before graph v3) gives the very same
    vectors, whatever the batch sizes on either side."""
    from dataclasses import replace

    built = new_onnx_embedder(tmp_path_factory, precision=precision)
    cache = Path(built.location.cache_dir)
    graph = _self_contained(built, precision, tmp_path / "model.onnx")
    location = replace(built.location, format=ModelFormat.ONNX_ENCODER, weights=str(graph))
    reference = OnnxEmbedder(location)  # a ready-made file: one text per run
    expected = [v.tobytes() for v in reference.embed_batch(TEXTS)]
    for size in (1, 3, 8, 16):
        batched = new_onnx_embedder(tmp_path_factory, precision=precision)
        batched._batch_size = max(1, size) if precision == "fp32" else 1
        assert [v.tobytes() for v in batched.embed_batch(TEXTS)] == expected, size
    tables = list(cache.glob("graph-*-words.npy"))
    assert len(tables) == 1
    assert isinstance(np.load(tables[0], mmap_mode="r"), np.memmap)


def test_idle_threads_do_not_spin(embedder: OnnxEmbedder) -> None:
    from gno_adapters.onnx.session import SPIN_OPTION

    embedder.load()
    session = embedder._session
    assert session is not None
    assert session.get_session_options().get_session_config_entry(SPIN_OPTION) == "0"


def test_a_graph_without_its_table_is_built_again(
    embedder: OnnxEmbedder, tmp_path_factory: pytest.TempPathFactory
) -> None:
    expected = embedder.embed_batch(SENTENCES)
    cache = Path(embedder.location.cache_dir)
    (table,) = cache.glob("graph-*-words.npy")
    torn = table.with_name("torn.npy")  # replaced, not rewritten: the embedder maps the file
    torn.write_bytes(table.read_bytes()[:1000])
    torn.replace(table)
    again = new_onnx_embedder(tmp_path_factory)
    assert again.embed_batch(SENTENCES) == expected
    assert np.load(table, mmap_mode="r").shape == (30522, 384)


def test_cross_encoder_cannot_embed(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    location = ModelStore(models_dir(tmp_path_factory)).resolve(ModelRole.EMBED)
    from dataclasses import replace

    with pytest.raises(ValueError, match="cross-encoder"):
        OnnxEmbedder(replace(location, format=ModelFormat.ONNX_CROSS_ENCODER))


def test_int8_variant_is_close_and_keyed_apart(
    embedder: OnnxEmbedder, tmp_path_factory: pytest.TempPathFactory
) -> None:
    int8 = new_onnx_embedder(tmp_path_factory, precision="int8")
    assert int8.model_id == embedder.model_id + "#int8"
    assert int8.fingerprint != embedder.fingerprint
    for exact, approx in zip(
        embedder.embed_batch(SENTENCES), int8.embed_batch(SENTENCES), strict=True
    ):
        assert dot(exact, approx) > 0.98
    names = sorted(p.name for p in Path(embedder.location.cache_dir).glob("graph-*.onnx"))
    assert len(names) == 2 and names[0].endswith("-int8.onnx")  # "-" sorts before "."
