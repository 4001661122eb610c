"""Retrieval metrics (graded nDCG@k, Recall@k) and latency summaries."""

from __future__ import annotations

import math
import statistics


def ndcg_at_k(ranked: list[str], judged: dict[str, int], k: int = 10) -> float:
    dcg = sum((2 ** judged.get(doc, 0) - 1) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted(judged.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at_k(ranked: list[str], judged: dict[str, int], k: int = 100) -> float:
    relevant = {d for d, g in judged.items() if g > 0}
    return len(relevant.intersection(ranked[:k])) / len(relevant) if relevant else 0.0


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[index]


def summary_ms(values: list[float]) -> str:
    return (
        f"p50 {statistics.median(values) * 1000:.2f} ms, "
        f"p95 {percentile(values, 95) * 1000:.2f} ms (n={len(values)})"
    )
