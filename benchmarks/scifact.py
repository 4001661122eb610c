"""SciFact retrieval quality and latency through the Python API and the CLI.

Usage: python benchmarks/scifact.py [--modes bm25,vector,hybrid,graph,expand,rerank] [--keep DIR]
                                    [--rerank-model DIR] [--precision int8|fp32] [--cli N]

Indexes the 5,183 abstracts with ``gno index`` semantics (sync, then embed; timed), then per
mode prints nDCG@10 and Recall@100 over the 300 judged test queries (limit 100), warm
in-process latency p50/p95 at limit 10, and, with ``--cli N``, the wall time of N ``gno``
processes per mode (cold: each loads the model). Ends with the peak RSS of this process and of
the CLI children. Figures, not assertions. Modes: ``bm25`` (search), ``vector`` (vsearch),
``hybrid`` (query without rerank; graph expansion off, the default), ``graph`` (the same with
``graph: true``), ``expand`` (query with pseudo-relevance feedback), ``rerank`` (query with the
cross-encoder of ``--rerank-model``). With both ``hybrid`` and ``graph`` it also counts the
queries whose 100 results (URIs and scores) are identical: SciFact has no links, so graph
expansion must change nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import scifact_qrels, scifact_queries, write_scifact
from benchmarks.metrics import ndcg_at_k, percentile, recall_at_k, summary_ms
from gno_adapters.bootstrap import open_gno
from gno_core.contracts import SearchResults
from gno_core.contracts.requests import QueryRequest, SearchRequest
from gno_core.facade import Gno
from gno_core.indexing.embedding import EmbedProgress

MODES = ("bm25", "vector", "hybrid", "graph", "expand", "rerank")
#: Runs argv from a small parent, so the child's peak RSS is its own (a child forked from this
#: large process would count the parent's pages until exec); prints "seconds kilobytes".
MEASURE = (
    "import resource, subprocess, sys, time; t = time.perf_counter(); "
    "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
    "file=sys.stderr); sys.exit(p.returncode)"
)
CLI_COMMAND = {"bm25": ["search"], "vector": ["vsearch"], "hybrid": ["query", "--no-rerank"]}


def runner(gno: Gno, mode: str) -> Callable[[str, int], SearchResults]:
    def run(text: str, limit: int) -> SearchResults:
        if mode == "bm25":
            return gno.search(SearchRequest(query=text, limit=limit))
        if mode == "vector":
            return gno.vsearch(SearchRequest(query=text, limit=limit))
        if mode == "hybrid":
            return gno.query(QueryRequest(query=text, limit=limit, rerank=False))
        if mode == "graph":
            return gno.query(QueryRequest(query=text, limit=limit, rerank=False, graph=True))
        if mode == "expand":
            return gno.query(QueryRequest(query=text, limit=limit, rerank=False, expand=True))
        if mode == "rerank":
            return gno.query(QueryRequest(query=text, limit=limit, rerank=True))
        raise SystemExit(f"unknown mode {mode}")

    return run


def doc_ids(res: SearchResults) -> list[str]:
    return [r.uri.rsplit("/", 1)[-1].removesuffix(".md") for r in res.results]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modes", default="bm25,vector,hybrid", help=f"comma list of {MODES}")
    parser.add_argument("--keep", help="reuse/keep the work dir here")
    parser.add_argument("--rerank-model", help="cross-encoder directory for the rerank mode")
    parser.add_argument("--precision", choices=("int8", "fp32"), default="int8")
    parser.add_argument("--cli", type=int, default=0, help="time N CLI runs per mode")
    parser.add_argument("--latency-limit", type=int, default=10)
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="gno-scifact-"))
    env = {
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": os.environ.get("GNO_CACHE_DIR", str(work / "cache")),
        "GNO_EMBED_PRECISION": args.precision,
        "GNO_RERANK_MODEL": args.rerank_model or "none",
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
    sync = gno.sync()
    synced = time.perf_counter()
    print(
        f"sync: {sync.total_added} added, {sync.total_unchanged} unchanged in "
        f"{synced - started:.2f}s"
    )
    if any(m != "bm25" for m in modes):
        last = [0.0]

        def progress(p: EmbedProgress) -> None:
            if time.perf_counter() - last[0] > 30:
                last[0] = time.perf_counter()
                print(f"  embedding {p.done}/{p.total}", flush=True)

        embed = gno.embed(progress=progress)
        done = time.perf_counter()
        print(
            f"embed: {embed.embedded} chunks in {done - synced:.1f}s "
            f"({embed.chunks_per_second or 0:.1f} chunks/s, {embed.model}); "
            f"gno index total {done - started:.1f}s; vector backend "
            f"{gno.handle.index.vectors.vector_backend}"
        )

    queries, qrels = scifact_queries(), scifact_qrels()
    answers: dict[str, list[list[tuple[str, float]]]] = {}
    for mode in modes:
        run = runner(gno, mode)
        run("warm up", 10)
        ndcg, recall, slow, empty = [], [], [], 0
        for qid, text in queries.items():
            t0 = time.perf_counter()
            res = run(text, 100)
            slow.append(time.perf_counter() - t0)
            ranked = doc_ids(res)
            answers.setdefault(mode, []).append([(r.uri, r.score) for r in res.results])
            empty += not ranked
            ndcg.append(ndcg_at_k(ranked, qrels[qid], 10))
            recall.append(recall_at_k(ranked, qrels[qid], 100))
        fast = []
        for text in queries.values():
            t0 = time.perf_counter()
            run(text, args.latency_limit)
            fast.append(time.perf_counter() - t0)
        meta = res.meta
        n = len(queries)
        print(
            f"{mode}: nDCG@10 {sum(ndcg) / n:.4f}  Recall@100 {sum(recall) / n:.4f}  "
            f"empty {empty}/{n}  [mode {meta.mode}, vectors {meta.vectors_used}, "
            f"reranked {meta.reranked}, expanded {meta.expanded}]"
        )
        print(f"  latency limit {args.latency_limit}: {summary_ms(fast)}")
        print(f"  latency limit 100: {summary_ms(slow)}")
    gno.close()
    if "hybrid" in answers and "graph" in answers:
        same = sum(a == b for a, b in zip(answers["hybrid"], answers["graph"], strict=True))
        print(
            f"graph expansion on vs off: {same}/{len(queries)} queries with identical results "
            "(URIs and scores, limit 100)"
        )

    if args.cli:
        texts = list(queries.values())[: args.cli]
        for mode in modes:
            if mode not in CLI_COMMAND:
                continue
            walls, peaks = [], []
            for text in texts:
                argv = [sys.executable, "-m", "gno_cli.main", *CLI_COMMAND[mode], text, "--json"]
                proc = subprocess.run(
                    [sys.executable, "-c", MEASURE, *argv],
                    env={**os.environ, **env},
                    capture_output=True,
                    check=False,
                    text=True,
                )
                if proc.returncode != 0:
                    raise SystemExit(proc.stderr)
                wall, peak = proc.stderr.strip().splitlines()[-1].split()
                walls.append(float(wall))
                peaks.append(int(peak) / 1024)
            print(
                f"cli {' '.join(CLI_COMMAND[mode])}: p50 "
                f"{statistics.median(walls) * 1000:.0f} ms, p95 "
                f"{percentile(walls, 95) * 1000:.0f} ms, peak RSS {max(peaks):.0f} MB "
                f"(n={len(walls)}, new process each)"
            )
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process (index, then every query): {own:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
