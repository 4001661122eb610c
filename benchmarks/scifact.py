"""SciFact retrieval quality and latency through the Python API.

Usage: python benchmarks/scifact.py [--modes bm25] [--keep DIR]
Prints nDCG@10, Recall@100 and in-process latency p50/p95 per mode (figures, not assertions).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import scifact_qrels, scifact_queries, write_scifact
from benchmarks.metrics import ndcg_at_k, recall_at_k, summary_ms
from gno_adapters.bootstrap import open_gno
from gno_core.model.requests import SearchRequest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modes", default="bm25", help="comma list of bm25")
    parser.add_argument("--keep", help="reuse/keep the work dir here")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="gno-scifact-"))
    env = {
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": os.environ.get("GNO_CACHE_DIR", str(work / "cache")),
        "HOME": str(work),
    }
    corpus = work / "corpus"
    if not corpus.is_dir():
        print(f"writing {write_scifact(corpus)} SciFact documents to {corpus}")
    gno = open_gno(env=env)
    if not gno.list_collections().collections:
        from gno_core.config import CollectionConfig

        gno.init()
        gno.add_collection(CollectionConfig(name="scifact", path=str(corpus)))
    started = time.perf_counter()
    result = gno.sync()
    print(
        f"sync: {result.total_added} added, {result.total_unchanged} unchanged "
        f"in {time.perf_counter() - started:.2f}s"
    )
    queries, qrels = scifact_queries(), scifact_qrels()
    for mode in args.modes.split(","):
        ndcg, recall, latencies, empty = [], [], [], 0
        for qid, text in queries.items():
            t0 = time.perf_counter()
            if mode == "bm25":
                res = gno.search(SearchRequest(query=text, limit=100))
            else:
                raise SystemExit(f"unknown mode {mode}")
            latencies.append(time.perf_counter() - t0)
            ranked = [r.uri.rsplit("/", 1)[-1].removesuffix(".md") for r in res.results]
            empty += not ranked
            ndcg.append(ndcg_at_k(ranked, qrels[qid], 10))
            recall.append(recall_at_k(ranked, qrels[qid], 100))
        n = len(queries)
        print(
            f"{mode}: nDCG@10 {sum(ndcg) / n:.4f}  Recall@100 {sum(recall) / n:.4f}  "
            f"empty {empty}/{n}  latency(limit 100) {summary_ms(latencies)}"
        )
    gno.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
