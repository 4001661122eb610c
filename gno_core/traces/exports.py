"""The exported bytes of finished traces, deterministic (the same traces in the same state give
the same bytes and digest, whatever their order in the request): the ``agentic-receipt`` and
the ``qrels`` (``retrieval-trace-qrels@1.0``); and the pure replay arithmetic (nDCG@k,
recall@k, the outcome of one replayed trace).

A trace's terminal status is carried as it was stored and is never read as a judgment:
``partial``, ``failed`` and ``cancelled`` traces add no negative (nor positive) relevance."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gno_core.contracts.traces import TraceQrel, TraceQrels, TraceQrelsTrace

if TYPE_CHECKING:
    from gno_core.contracts.traces import TraceShow
    from gno_core.traces.values import TraceHeader, TraceJudgment

__all__ = [
    "canonical",
    "judged_relevance",
    "ndcg",
    "outcome",
    "qrels_content",
    "recall",
    "receipt_content",
]


def canonical(payload: Any) -> tuple[str, str]:
    """The canonical JSON text of ``payload`` (sorted keys, no spaces) and its SHA-256."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text, hashlib.sha256(text.encode()).hexdigest()


def judged_relevance(judgments: Sequence[TraceJudgment]) -> dict[str, tuple[int, str]]:
    """Each judged document's relevance (1: relevant or missing_expected, 0: irrelevant) and
    label; the latest judgment of a document wins (judgments are append-only)."""
    out: dict[str, tuple[int, str]] = {}
    for j in judgments:
        if j.document is not None:
            out[j.document] = (0 if j.label == "irrelevant" else 1, j.label)
    return out


def qrels_content(traces: Sequence[tuple[TraceHeader, Sequence[TraceJudgment]]]) -> TraceQrels:
    rows: list[TraceQrelsTrace] = []
    lines: list[str] = []
    for header, judgments in sorted(traces, key=lambda t: t[0].trace_id):
        judged = judged_relevance(judgments)
        qrels = [
            TraceQrel(document=doc, relevance=rel, label=label)
            for doc, (rel, label) in sorted(judged.items())
        ]
        rows.append(
            TraceQrelsTrace(
                trace_id=header.trace_id,
                status=header.status,
                query_digest=header.query_digest,
                qrels=qrels,
            )
        )
        lines.extend(f"{header.trace_id} 0 {q.document} {q.relevance}" for q in qrels)
    return TraceQrels(traces=rows, trec=lines)


def receipt_content(shows: Sequence[TraceShow]) -> dict[str, Any]:
    """The ``agentic-receipt``: each trace's header, runs, events and judgments (its export
    receipts are left out, so exporting again gives the same bytes)."""
    traces = []
    for show in sorted(shows, key=lambda s: s.trace.trace_id):
        wire = show.wire()
        wire.pop("exports", None)
        wire["totals"].pop("exports", None)
        traces.append(wire)
    return {"schemaVersion": "1.0", "format": "agentic-receipt", "traces": traces}


def _matches(item: tuple[str, str], judged: dict[str, int]) -> int:
    docid, uri = item
    return judged.get(docid, judged.get(uri, 0))


def ndcg(ranked: Sequence[tuple[str, str]], judged: dict[str, int], k: int) -> float:
    """nDCG@k of ``ranked`` (docid, uri) against graded ``judged`` (by docid or URI)."""
    gains = [_matches(item, judged) for item in ranked[:k]]
    dcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sorted(judged.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall(ranked: Sequence[tuple[str, str]], judged: dict[str, int], k: int) -> float:
    relevant = {d for d, g in judged.items() if g > 0}
    if not relevant:
        return 0.0
    found = {d for item in ranked[:k] for d in item if d in relevant}
    return len(found) / len(relevant)


def outcome(before: float, after: float, epsilon: float) -> str:
    if after > before + epsilon:
        return "improved"
    if after < before - epsilon:
        return "regressed"
    return "unchanged"
