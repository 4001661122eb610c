"""The rerank stage: a cross-encoder re-reads the best passage of each top fused candidate, and
its scores are blended with the fusion scores according to the candidate's fused position.

Both score lists are min-max normalised first. Blend weights (fusion / rerank): positions 1-3
0.75 / 0.25, 4-10 0.60 / 0.40, 11 and beyond 0.40 / 0.60, so the cross-encoder can reorder the
long tail freely but needs a clear margin to unseat the head. Candidates past the rerank window
keep half their normalised fusion score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from gno_core.ports.reranker import Reranker
from gno_core.read_values import Chunk
from gno_core.retrieval.fusion import Fused, normalize

DEFAULT_WINDOW = 20
THOROUGH_WINDOW = 40
PASSAGE_CHARS = 4000
INTENT_WEIGHT = 0.5
FUSED_CHUNK_BONUS = 0.2
BEYOND_WINDOW_FACTOR = 0.5
_STEM_CHARS = 5


def blend_weights(position: int) -> tuple[float, float]:
    """(fusion weight, rerank weight) for a 1-based fused position."""
    if position <= 3:
        return 0.75, 0.25
    if position <= 10:
        return 0.60, 0.40
    return 0.40, 0.60


def rerank_query(query: str, intent: str | None) -> str:
    """What the cross-encoder reads as the query: the intent, when given, goes first."""
    return f"Intent: {intent}\nQuery: {query}" if intent else query


def _keys(words: Sequence[str]) -> set[str]:
    return {w[:_STEM_CHARS] if w.isascii() else w for w in words if w}


def rerank_passage(
    chunks: Sequence[Chunk],
    words: Sequence[str],
    intent_words: Sequence[str] = (),
    fused_seq: int | None = None,
) -> str:
    """The chunk that overlaps the query most (intent words weigh half; the chunk the vector
    leg matched gets a small bonus), cut to ``PASSAGE_CHARS``."""
    if not chunks:
        return ""
    keys, intent_keys = _keys(words), _keys(intent_words)
    best: tuple[float, int] | None = None
    chosen = chunks[0]
    for chunk in chunks:
        low = chunk.text.lower()
        score = sum(1.0 for k in keys if k in low) + sum(
            INTENT_WEIGHT for k in intent_keys if k in low
        )
        if chunk.seq == fused_seq:
            score += FUSED_CHUNK_BONUS
        if best is None or (score, -chunk.seq) > best:
            best, chosen = (score, -chunk.seq), chunk
    return chosen.text[:PASSAGE_CHARS]


class RerankOutcome(NamedTuple):
    """Blended scores in fused order, with each candidate's normalised parts."""

    scores: list[float]
    fusion: list[float]
    rerank: list[float | None]  # normalised cross-encoder score, None past the window
    raw: list[float | None]  # the cross-encoder's own score
    passages: int  # distinct passages the model read


def rerank(
    reranker: Reranker,
    query: str,
    fused_scores: Sequence[float],
    passages: Sequence[str],
) -> RerankOutcome:
    """Score ``passages`` (one per candidate of the window, in fused order; identical texts are
    read once) and blend with ``fused_scores`` (every candidate, in fused order)."""
    unique = list(dict.fromkeys(passages))
    by_text = dict(zip(unique, reranker.score(query, unique), strict=True))
    raw = [by_text[p] for p in passages]
    fusion = normalize(list(fused_scores))
    model = normalize(raw)
    scores: list[float] = []
    for i, f in enumerate(fusion):
        if i < len(model):
            wf, wr = blend_weights(i + 1)
            scores.append(wf * f + wr * model[i])
        else:
            scores.append(BEYOND_WINDOW_FACTOR * f)
    pad: list[float | None] = [None] * (len(fusion) - len(model))
    return RerankOutcome(scores, fusion, [*model, *pad], [*raw, *pad], len(unique))


def keep_top_first(fused: list[Fused], scores: list[float], top_key: str) -> list[float]:
    """``scores`` (in fused order) with the document ``top_key`` (the original query's best
    keyword hit) first after blending."""
    index = next((i for i, f in enumerate(fused) if f.key == top_key), None)
    if index is None:
        return scores
    best = max(scores)
    if scores[index] < best:
        scores = list(scores)
        scores[index] = best + 1e-9
    return scores
