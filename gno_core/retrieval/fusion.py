"""Reciprocal rank fusion of ranked legs (BM25, vector, variants) with a top-rank bonus."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

RRF_K = 60
WEIGHT_BM25 = 2.0
WEIGHT_VECTOR = 2.0
WEIGHT_BM25_VARIANT = 0.5
WEIGHT_VECTOR_VARIANT = 0.5
WEIGHT_HYDE = 0.7
TOP_RANK_BONUS = 0.10
TOP_FIVE_BONUS = 0.04


class Leg(NamedTuple):
    """One ranked list: ``keys`` best first. ``primary`` legs (the original query's BM25 and
    vector) earn the top-rank bonus. ``scales`` (graph leg) multiplies a key's share by its own
    factor in [0, 1]; a key it does not name keeps the whole share."""

    name: str
    weight: float
    keys: Sequence[str]
    primary: bool = False
    scales: Mapping[str, float] | None = None


class Fused:
    """One key's fused score, its rank in each leg that ranked it (leg name -> 1-based rank),
    each leg's share of the score and the top-rank bonus."""

    __slots__ = ("bonus", "contributions", "key", "ranks", "score")

    def __init__(self, key: str, score: float) -> None:
        self.key, self.score, self.bonus = key, score, 0.0
        self.ranks: dict[str, int] = {}
        self.contributions: dict[str, float] = {}


def fuse(legs: Sequence[Leg], k: int = RRF_K) -> list[Fused]:
    """Sum ``weight / (k + rank)`` over the legs that ranked each key, add the bonus (+0.10 for
    rank 1 in a primary leg, else +0.04 for rank <= 5 in one), and order by score descending,
    ties by key."""
    table: dict[str, Fused] = {}
    for leg in legs:
        for rank, key in enumerate(dict.fromkeys(leg.keys), start=1):
            entry = table.setdefault(key, Fused(key, 0.0))
            share = leg.weight / (k + rank)
            if leg.scales is not None:
                share *= leg.scales.get(key, 1.0)
            entry.ranks[leg.name] = rank
            entry.contributions[leg.name] = share
            entry.score += share
    primaries = {leg.name for leg in legs if leg.primary}
    for entry in table.values():
        best = min((r for name, r in entry.ranks.items() if name in primaries), default=None)
        if best == 1:
            entry.bonus = TOP_RANK_BONUS
        elif best is not None and best <= 5:
            entry.bonus = TOP_FIVE_BONUS
        entry.score += entry.bonus
    return sorted(table.values(), key=lambda e: (-e.score, e.key))


def normalize(scores: Sequence[float]) -> list[float]:
    """Min-max into [0, 1]; all-equal (or a single score) maps to 1."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if high - low <= 1e-12:
        return [1.0 for _ in scores]
    return [(s - low) / (high - low) for s in scores]
