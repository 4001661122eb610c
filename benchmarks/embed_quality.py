"""Vector-only retrieval quality of the default embedder on BEIR SciFact (nDCG@10, Recall@100).

Usage: ``python benchmarks/embed_quality.py [--precision fp32|int8] [--limit N]
[--model NAME_OR_DIR]``. Embeds every
abstract (title + text, through the model's document profile) and the 300 judged test queries,
ranks by dot product, and prints the figures with the embedding time. Takes minutes; never run
by the test suite.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import SCIFACT, scifact_qrels, scifact_queries
from benchmarks.metrics import ndcg_at_k, recall_at_k
from gno_adapters.model_files import ModelStore
from gno_adapters.onnx import OnnxEmbedder
from gno_core.model_registry import ModelRole


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", choices=("fp32", "int8"), default="int8")
    parser.add_argument("--limit", type=int, default=0, help="embed only the first N documents")
    parser.add_argument("--model", help="registry name or model directory (default: bundled)")
    args = parser.parse_args(argv)

    ids: list[str] = []
    texts: list[tuple[str, str]] = []
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            ids.append(doc["_id"])
            texts.append((doc["title"].strip(), doc["text"].strip()))
            if args.limit and len(ids) >= args.limit:
                break
    queries = scifact_queries()
    qrels = scifact_qrels()

    with tempfile.TemporaryDirectory(prefix="gno-embed-quality-") as tmp:
        location = ModelStore(Path(tmp) / "models").resolve(ModelRole.EMBED, args.model)
        embedder = OnnxEmbedder(location, precision=args.precision)
        embedder.load()
        profile = embedder.profile
        start = time.perf_counter()
        docs = np.array(
            embedder.embed_batch([profile.document(body, title) for title, body in texts]),
            dtype=np.float32,
        )
        doc_seconds = time.perf_counter() - start
        qids = sorted(queries)
        start = time.perf_counter()
        qvecs = np.array(
            embedder.embed_batch([profile.query(queries[q]) for q in qids]), dtype=np.float32
        )
        query_seconds = time.perf_counter() - start

    scores = qvecs @ docs.T
    ndcg: list[float] = []
    recall: list[float] = []
    for row, qid in enumerate(qids):
        ranked = [ids[i] for i in np.argsort(-scores[row], kind="stable")[:100]]
        ndcg.append(ndcg_at_k(ranked, qrels[qid], 10))
        recall.append(recall_at_k(ranked, qrels[qid], 100))
    print(f"model        {embedder.model_id}")
    print(f"documents    {len(ids)} in {doc_seconds:.0f} s ({len(ids) / doc_seconds:.1f} docs/s)")
    print(f"queries      {len(qids)} in {query_seconds * 1000 / len(qids):.1f} ms each")
    print(f"nDCG@10      {statistics.fmean(ndcg):.4f}")
    print(f"Recall@100   {statistics.fmean(recall):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
