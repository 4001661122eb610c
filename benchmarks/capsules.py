"""Capsule compile and verify latency on the English FastAPI docs (``../shared/data``).

    python benchmarks/capsules.py [--rounds 5] [--budget 12000] [--no-embed]

The docs are synced (and embedded) into a temporary index; one facade compiles a capsule for
each question of ``benchmarks/agentic.py`` once to warm up, then ``--rounds`` times each, timed;
each capsule is then verified ``--rounds`` times. Prints p50/p95 (targets: compile p50 <= 150
ms at 12,000 tokens, verify <= 50 ms) and the share of compile time spent in retrieval.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.agentic import TASKS, fastapi_index
from benchmarks.metrics import percentile


def main() -> None:
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.evidence_requests import ContextRequest
    from gno_core.contracts.requests import QueryRequest

    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=int, default=12_000)
    parser.add_argument("--no-embed", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    with fastapi_index(embed=not args.no_embed) as env:
        print(f"index built in {time.perf_counter() - started:.1f} s")
        with open_gno(env=env) as gno:
            requests = [ContextRequest(goal=q, budget_tokens=args.budget) for q, _ in TASKS]
            capsules = [gno.context(r).wire() for r in requests]
            for capsule in capsules:
                gno.context_verify(capsule)
            compile_ms, verify_ms, query_ms, sizes = [], [], [], []
            for _ in range(args.rounds):
                for request, capsule in zip(requests, capsules, strict=True):
                    t0 = time.perf_counter()
                    again = gno.context(request).wire()
                    compile_ms.append((time.perf_counter() - t0) * 1000)
                    assert again == capsule, "a rerun gave a different capsule"
                    t0 = time.perf_counter()
                    gno.query(QueryRequest(query=request.goal, limit=20, candidate_limit=40))
                    query_ms.append((time.perf_counter() - t0) * 1000)
                    t0 = time.perf_counter()
                    gno.context_verify(capsule)
                    verify_ms.append((time.perf_counter() - t0) * 1000)
                    sizes.append(capsule["budget"]["usedTokens"])
            mode = capsules[0]["retrieval"]["mode"]
    print(f"{len(TASKS)} goals x {args.rounds} rounds, budget {args.budget} tokens, mode {mode}")
    print(
        f"compile: p50 {percentile(compile_ms, 50):.1f} ms, p95 {percentile(compile_ms, 95):.1f} ms"
        f" (hybrid query alone p50 {percentile(query_ms, 50):.1f} ms)"
    )
    print(
        f"verify:  p50 {percentile(verify_ms, 50):.1f} ms, p95 {percentile(verify_ms, 95):.1f} ms"
    )
    print(f"used tokens: p50 {percentile([float(s) for s in sizes], 50):.0f}")


if __name__ == "__main__":
    main()
