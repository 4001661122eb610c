"""The ONNX cross-encoder adapter over a tiny random-weight BERT built on the fly: pair
encoding, masking, sigmoid scores, truncation, errors, and the hybrid query reporting
``reranked: true`` through it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gno_adapters.bootstrap.model_wiring import LazyOnnxReranker, SemanticModels
from gno_adapters.model_files import ModelStore
from gno_adapters.onnx.reranker import OnnxReranker
from gno_core.contracts.requests import QueryRequest
from gno_core.errors import ModelUnavailableError
from gno_core.model_registry import ModelRole
from tests.rerank_support import write_cross_encoder
from tests.schema_check import assert_valid
from tests.semantic_support import CORPUS, HashEmbedder, make_env


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_cross_encoder(tmp_path_factory.mktemp("tiny-cross-encoder"))


@pytest.fixture(scope="session")
def reranker(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> OnnxReranker:
    store = ModelStore(tmp_path_factory.mktemp("models"))
    return OnnxReranker(store.resolve(ModelRole.RERANK, str(model_dir)))


PASSAGES = [
    "cats purr and hunt mice",
    "rockets burn fuel to reach orbit around the earth",
    "",
    "bake bread " * 300,
]


def test_scores_are_probabilities_in_input_order(reranker: OnnxReranker) -> None:
    scores = reranker.score("what does the study say about bone density", PASSAGES)
    assert len(scores) == len(PASSAGES)
    assert all(0.0 < s < 1.0 for s in scores)
    assert len({round(s, 6) for s in scores}) > 1  # random weights still tell texts apart
    assert reranker.score("q", []) == []


def test_scores_do_not_depend_on_the_batch(reranker: OnnxReranker) -> None:
    query = "rockets and orbit"
    together = reranker.score(query, PASSAGES)
    alone = [reranker.score(query, [p])[0] for p in PASSAGES]
    assert together == pytest.approx(alone, abs=1e-5)
    assert reranker.score(query, PASSAGES) == together  # deterministic


def test_long_queries_and_passages_are_truncated_not_rejected(reranker: OnnxReranker) -> None:
    long_query = "vitamin " * 2000
    (score,) = reranker.score(long_query, ["bone " * 2000])
    assert 0.0 < score < 1.0 and not math.isnan(score)


def test_the_session_loads_lazily(model_dir: Path, tmp_path: Path) -> None:
    location = ModelStore(tmp_path).resolve(ModelRole.RERANK, str(model_dir))
    lazy = LazyOnnxReranker(location)
    assert not lazy.loaded and lazy.model_id == f"file:{model_dir.resolve()}"
    assert lazy.score("cats", ["cats purr"])[0] > 0
    assert lazy.loaded


def test_missing_or_broken_models_are_model_unavailable(model_dir: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "tokenizer.json").write_bytes((model_dir / "tokenizer.json").read_bytes())
    (broken / "model.onnx").write_bytes(b"not an onnx model")
    location = ModelStore(tmp_path / "models").resolve(ModelRole.RERANK, str(broken))
    with pytest.raises(ModelUnavailableError):
        OnnxReranker(location).score("q", ["p"])


def test_wiring_picks_a_reranker_from_the_environment(model_dir: Path, tmp_path: Path) -> None:
    chosen = SemanticModels(tmp_path, {"GNO_RERANK_MODEL": str(model_dir)})
    assert chosen.reranker is not None
    assert SemanticModels(tmp_path, {"GNO_RERANK_MODEL": "none"}).reranker is None
    default = SemanticModels(tmp_path, {})  # the registry's reranker is not pulled here
    assert default.reranker is None and "rerank" in default.unavailable
    assert SemanticModels(tmp_path, {"GNO_EMBED_MODEL": "none"}).embedder is None


def test_hybrid_query_reranks_with_the_cross_encoder(
    reranker: OnnxReranker, tmp_path: Path
) -> None:
    env = make_env(
        tmp_path, CORPUS, embedder=HashEmbedder(), reranker=reranker, collections=("notes", "work")
    )
    env.gno.index()
    res = env.gno.query(QueryRequest(query="rockets orbit fuel", explain=True, limit=3))
    assert res.meta.reranked is True and res.meta.mode == "hybrid"
    assert_valid("search-results", res.wire())
    assert res.meta.explain is not None
    receipts = [line for line in res.meta.explain if line.stage == "result"]
    assert receipts and all(r.scores and 0 < r.scores["rerank"] < 1 for r in receipts)
    # The keyword leg's best hit keeps first place whatever the random model thinks.
    first = receipts[0].scores
    assert first is not None and first.get("bm25Rank") == 1.0
