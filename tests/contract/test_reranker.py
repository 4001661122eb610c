"""Reranker contract, run against the ONNX cross-encoder (a tiny random-weight BERT built on the
fly) and the in-memory fake."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gno_adapters.inmemory.reranker import OverlapReranker
from gno_adapters.model_files import ModelStore
from gno_adapters.onnx.reranker import OnnxReranker
from gno_core.model_registry import ModelRole
from gno_core.ports.reranker import Reranker
from tests.rerank_support import write_cross_encoder

PASSAGES = ["cats purr and hunt mice", "rockets reach orbit", "", "bread " * 400, "猫は魚が好き"]


@pytest.fixture(scope="module")
def onnx_reranker(tmp_path_factory: pytest.TempPathFactory) -> OnnxReranker:
    model_dir = write_cross_encoder(tmp_path_factory.mktemp("cross-encoder"))
    store = ModelStore(tmp_path_factory.mktemp("models"))
    return OnnxReranker(store.resolve(ModelRole.RERANK, str(model_dir)))


FACTORIES: dict[str, Callable[[pytest.FixtureRequest], Reranker]] = {
    "memory": lambda _request: OverlapReranker(),
    "onnx": lambda request: request.getfixturevalue("onnx_reranker"),
}


@pytest.fixture(params=sorted(FACTORIES), ids=sorted(FACTORIES))
def reranker(request: pytest.FixtureRequest) -> Reranker:
    return FACTORIES[request.param](request)


def test_identity_without_scoring(reranker: Reranker) -> None:
    assert reranker.model_id


def test_one_score_per_passage_in_unit_interval(reranker: Reranker) -> None:
    scores = reranker.score("cats and mice", PASSAGES)
    assert len(scores) == len(PASSAGES)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert reranker.score("anything", []) == []


def test_deterministic_and_independent_of_the_batch(reranker: Reranker) -> None:
    query = "rockets and orbit"
    together = reranker.score(query, PASSAGES)
    assert reranker.score(query, PASSAGES) == together
    alone = [reranker.score(query, [p])[0] for p in PASSAGES]
    assert together == pytest.approx(alone, abs=1e-5)


def test_long_inputs_are_truncated_not_rejected(reranker: Reranker) -> None:
    (score,) = reranker.score("vitamin " * 3000, ["bone " * 3000])
    assert 0.0 <= score <= 1.0
