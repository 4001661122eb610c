"""Embedder contract, run against the hash fake, the ONNX adapter (bundled all-MiniLM-L6-v2,
exact fp32 graph and its int8 variant) and the int8 model served by a forked child process
(``vsearch``/``query``'s ``ChildEmbedder``)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator

import pytest

from gno_adapters.inmemory.embedder import HashEmbedder
from gno_core.ports import Embedder
from gno_core.ports.embedder import Vector, dot, embedding_fingerprint
from tests.embedding_support import new_child_embedder, new_onnx_embedder

NewEmbedder = Callable[[], Embedder]

TEXTS = [
    "The cat sat on the mat.",
    "A cat is sitting on a mat.",
    "Quarterly revenue grew five percent on strong subscription sales.",
    "SQLite keeps the whole database in a single file.",
    "",
    "   ",
    "Vaccines train the immune system to recognise a pathogen.",
    "東京は日本の首都です。",
    "Ünïcödé façade — naïve café, emoji 🚀✨",
    "short",
    " ".join(["retrieval"] * 40),
]


@pytest.fixture(scope="session")
def factories(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, NewEmbedder]]:
    children: list[Callable[[], None]] = []

    def child() -> Embedder:
        embedder, close = new_child_embedder(tmp_path_factory)
        children.append(close)
        return embedder

    yield {
        "hash": HashEmbedder,
        "onnx-fp32": lambda: new_onnx_embedder(tmp_path_factory),
        "onnx-int8": lambda: new_onnx_embedder(tmp_path_factory, precision="int8"),
        "child-int8": child,
    }
    for close in children:
        close()


@pytest.fixture(scope="session")
def shared() -> dict[str, Embedder]:
    """One embedder per kind for the whole session (loading a model once is enough)."""
    return {}


@pytest.fixture(params=["hash", "onnx-fp32", "onnx-int8", "child-int8"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_embedder(kind: str, factories: dict[str, NewEmbedder]) -> NewEmbedder:
    return factories[kind]


@pytest.fixture
def embedder(kind: str, factories: dict[str, NewEmbedder], shared: dict[str, Embedder]) -> Embedder:
    if kind not in shared:
        shared[kind] = factories[kind]()
    return shared[kind]


def _norm(vector: Vector) -> float:
    return math.sqrt(dot(vector, vector))


def test_identity_is_known_without_loading(new_embedder: NewEmbedder) -> None:
    fresh = new_embedder()
    assert fresh.model_id
    assert fresh.dimensions > 0
    assert fresh.max_tokens > 0
    assert len(fresh.fingerprint) == 64
    assert fresh.fingerprint == embedding_fingerprint(
        fresh.model_id, fresh.dimensions, fresh.max_tokens, fresh.profile.id
    )
    assert getattr(fresh, "loaded", False) is False


def test_empty_batch_is_empty(embedder: Embedder) -> None:
    assert embedder.embed_batch([]) == []


def test_one_unit_vector_per_text(embedder: Embedder) -> None:
    vectors = embedder.embed_batch(TEXTS)
    assert len(vectors) == len(TEXTS)
    for vector in vectors:
        assert vector.typecode == "f"
        assert len(vector) == embedder.dimensions
        assert all(math.isfinite(x) for x in vector)
        assert _norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_vectors_do_not_depend_on_the_batch(embedder: Embedder) -> None:
    alone = [embedder.embed_batch([text])[0].tobytes() for text in TEXTS]
    rng = random.Random(7)
    for _ in range(3):
        order = list(range(len(TEXTS)))
        rng.shuffle(order)
        batch = embedder.embed_batch([TEXTS[i] for i in order] + [TEXTS[order[0]]])
        for position, index in enumerate(order):
            assert batch[position].tobytes() == alone[index], TEXTS[index]
        assert batch[-1].tobytes() == alone[order[0]]


def test_results_follow_input_order(embedder: Embedder) -> None:
    a, b = embedder.embed_batch([TEXTS[0], TEXTS[2]])
    b2, a2 = embedder.embed_batch([TEXTS[2], TEXTS[0]])
    assert a.tobytes() == a2.tobytes()
    assert b.tobytes() == b2.tobytes()
    assert a.tobytes() != b.tobytes()


def test_similar_texts_rank_above_unrelated(embedder: Embedder) -> None:
    cat, cat2, revenue = embedder.embed_batch(TEXTS[:3])
    assert dot(cat, cat2) > dot(cat, revenue)


def test_long_text_is_truncated_not_rejected(embedder: Embedder) -> None:
    words = embedder.max_tokens * 4
    head = " ".join(f"alpha{i % 50}" for i in range(words))
    first, second = embedder.embed_batch([head + " tail one", head + " completely other ending"])
    assert first.tobytes() == second.tobytes()
    huge = embedder.embed_batch(["lorem ipsum " * 50_000])[0]
    assert _norm(huge) == pytest.approx(1.0, abs=1e-5)


def test_unicode_and_cjk(embedder: Embedder) -> None:
    texts = [
        "東京は日本の首都です。",
        "東京は日本の首都です。",
        "서울은 한국의 수도입니다",
        "👍🏽" * 10,
    ]
    vectors = embedder.embed_batch(texts)
    assert vectors[0].tobytes() == vectors[1].tobytes()
    assert vectors[0].tobytes() != vectors[2].tobytes()
    for vector in vectors:
        assert _norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_profile_phrases_queries_and_documents(embedder: Embedder) -> None:
    profile = embedder.profile
    assert profile.id
    assert "vaccines" in profile.query("vaccines")
    assert "Immunity" in profile.document("vaccines", title="Immunity")
