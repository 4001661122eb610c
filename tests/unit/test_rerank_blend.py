"""The rerank stage's pure parts: position-aware blending, passage choice, query phrasing, and
the feedback expansion."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gno_core.domain import Chunk
from gno_core.retrieval import rerank as rr
from gno_core.retrieval.expansion import feedback_query


class Fixed:
    model_id = "fixed"

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores
        self.seen: list[list[str]] = []

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        self.seen.append(list(passages))
        return [self.scores[p] for p in passages]


def test_blend_weights_by_position() -> None:
    assert [rr.blend_weights(p) for p in (1, 3, 4, 10, 11, 40)] == [
        (0.75, 0.25),
        (0.75, 0.25),
        (0.60, 0.40),
        (0.60, 0.40),
        (0.40, 0.60),
        (0.40, 0.60),
    ]


def test_blend_normalises_both_sides_and_halves_past_the_window() -> None:
    model = Fixed({"a": 0.1, "b": 0.9, "c": 0.5})
    fused = [0.30, 0.20, 0.10, 0.05, 0.00]
    out = rr.rerank(model, "q", fused, ["a", "b", "c", "a"])
    assert model.seen == [["a", "b", "c"]]  # identical passages are read once
    fusion = [1.0, 2 / 3, 1 / 3, 1 / 6, 0.0]
    assert out.fusion == pytest.approx(fusion)
    assert out.rerank == pytest.approx([0.0, 1.0, 0.5, 0.0, None])  # type: ignore[list-item]
    assert out.scores == pytest.approx([0.75, 0.75 * 2 / 3 + 0.25, 0.75 / 3 + 0.125, 0.6 / 6, 0.0])
    assert out.passages == 3


def test_rerank_passage_prefers_overlap_then_the_matched_chunk() -> None:
    chunks = [
        Chunk(0, 0, "introduction and history", 1, 1),
        Chunk(1, 30, "vitamin d and bone density", 2, 2),
        Chunk(2, 60, "unrelated appendix", 3, 3),
    ]
    assert rr.rerank_passage(chunks, ["vitamin", "bone"]) == chunks[1].text
    assert rr.rerank_passage(chunks, ["nothing"], fused_seq=2) == chunks[2].text
    assert rr.rerank_passage(chunks, ["nothing"]) == chunks[0].text
    assert rr.rerank_passage([Chunk(0, 0, "x" * 5000, 1, 1)], ["x"]) == "x" * 4000
    assert rr.rerank_query("q", None) == "q"
    assert rr.rerank_query("q", "why") == "Intent: why\nQuery: q"


def test_feedback_query_adds_shared_words_of_the_top_hits() -> None:
    texts = [
        "Vitamin D supplements improve bone mineral density in older adults.",
        "Bone mineral density rose with calcium and vitamin D.",
        "Mineral intake and bone health.",
    ]
    expanded = feedback_query("does vitamin d help bones", texts)
    assert expanded is not None
    assert expanded.startswith("vitamin d help bones ")
    assert "mineral" in expanded.split() and "density" in expanded.split()
    assert feedback_query("q", ["only one document here"]) is None


def test_feedback_query_of_a_long_question_stays_within_the_grammar() -> None:
    """A 1,980-character question (valid for the grammar) expanded with feedback words must
    still parse: the feedback words are kept, the question's words cut to make room."""
    from gno_core.retrieval.query import MAX_CLAUSES, MAX_QUERY_CHARS, parse_query

    question = " ".join(f"w{i:04d}" for i in range(330))
    assert len(question) <= MAX_QUERY_CHARS
    expanded = feedback_query(question, ["alpha beta gamma delta"] * 3)
    assert expanded is not None and len(expanded) <= MAX_QUERY_CHARS
    assert expanded.endswith(" alpha beta delta gamma")
    assert len(parse_query(expanded).optional) == MAX_CLAUSES
    long_word = "x" * 1990
    assert feedback_query(long_word, ["alpha beta"] * 3) == "alpha beta"
