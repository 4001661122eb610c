"""Retrieval traces: what recording costs, whether replay tells a better configuration from a
worse one, and whether retention holds.

Usage: python benchmarks/traces.py --work DIR [--rounds 6] [--calls 5000] [--skip replay,...]

``DIR`` holds a SciFact index (``python benchmarks/scifact.py --keep DIR --modes vector`` makes
one, embedded). Three parts, figures not assertions:

- ``overhead``: warm MCP ``gno_query`` over the in-process engine on that index, ABAB rounds in
  one run: tracing off, tracing on (``metadata`` mode), and a facade whose recording hook is a
  no-op (the build without tracing); p50 of each and the ratios.
- ``replay``: the 300 test queries recorded with tracing on (``replay`` mode) through hybrid
  ``query`` (no rerank), each trace labelled from the qrels (a judged document among the
  recorded results: ``relevant`` on its event; otherwise ``missing_expected`` by URI), then
  ``trace replay`` with vectors off (``bm25``) and with a better configuration (hybrid with
  feedback expansion); beside each, the same two configurations run directly and scored with
  the same nDCG@10: per-query improved/unchanged/regressed counts and mean nDCG must agree.
- ``retention``: ``--calls`` traced keyword searches under the default bounds; traces kept,
  bytes, the largest trace and the database size on disk before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import scifact_qrels, scifact_queries
from benchmarks.metrics import ndcg_at_k
from gno_adapters.bootstrap import open_gno
from gno_core.config import RetrievalTracesConfig
from gno_core.contracts.requests import QueryRequest, SearchRequest
from gno_core.contracts.trace_requests import TraceReplayRequest
from gno_core.facade import Gno

EPSILON = 0.01


def env_of(work: Path) -> dict[str, str]:
    return {
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": os.environ.get("GNO_CACHE_DIR", str(work / "cache")),
        "GNO_RERANK_MODEL": "none",
        "HOME": str(work),
    }


def set_tracing(gno: Gno, **settings: Any) -> None:
    config = gno.config()
    gno.handle.config.save(
        config.model_copy(update={"retrieval_traces": RetrievalTracesConfig(**settings)})
    )


def db_bytes(work: Path) -> int:
    return sum(p.stat().st_size for p in (work / "data").rglob("*.sqlite*"))


# -- overhead -------------------------------------------------------------------------------


def overhead(work: Path, rounds: int) -> None:
    from gno_adapters.mcp.context import Connection
    from gno_adapters.mcp.server import GnoHandlers, build_engine

    env = env_of(work)
    queries = list(scifact_queries().values())[:40]

    class Untraced:
        """The facade with its recording hook a no-op: a build without tracing."""

        def __init__(self, inner: Gno) -> None:
            self._inner = inner

        def trace_results(self, *args: Any, **kwargs: Any) -> None:
            return None

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

    gno = open_gno(env=env)
    set_tracing(gno, enabled=False)
    variants = {"off": lambda: gno, "on": lambda: gno, "none": lambda: Untraced(gno)}
    engines = {}
    for name, factory in variants.items():
        handlers = GnoHandlers(factory, profile="full", enable_write=False)  # type: ignore[arg-type]
        engine = build_engine(handlers)
        conn = Connection.pinned_by_first_request("stdio")
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "b", "version": "1"},
            },
        }
        reply = engine.handle(conn, init)
        if reply.work is not None:
            reply.work()
        engines[name] = (engine, conn)

    def call(name: str, text: str, rid: int) -> float:
        engine, conn = engines[name]
        message = {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {"name": "gno_query", "arguments": {"query": text, "limit": 10}},
        }
        t0 = time.perf_counter()
        reply = engine.handle(conn, message)
        out = reply.work() if reply.work is not None else reply.response
        took = time.perf_counter() - t0
        assert out is not None and not out["result"].get("isError"), out
        has_meta = "_meta" in out["result"]
        assert has_meta == (name == "on"), (name, has_meta)
        return took

    for text in queries[:5]:  # warm every engine
        for name in engines:
            set_tracing(gno, enabled=name == "on")
            call(name, text, 1)
    times: dict[str, list[float]] = {n: [] for n in engines}
    rid = 10
    for r in range(rounds):
        order = ["off", "on", "none"] if r % 2 == 0 else ["none", "on", "off"]
        for name in order:
            set_tracing(gno, enabled=name == "on")
            for text in queries:
                rid += 1
                times[name].append(call(name, text, rid))
    set_tracing(gno, enabled=False)
    p50 = {n: statistics.median(v) * 1000 for n, v in times.items()}
    print(
        f"overhead: warm MCP gno_query p50 (n={len(times['on'])} each, {rounds} ABAB rounds): "
        f"no tracing code {p50['none']:.2f} ms, tracing off {p50['off']:.2f} ms "
        f"({p50['off'] / p50['none']:.3f}x), tracing on {p50['on']:.2f} ms "
        f"({p50['on'] / p50['off']:.3f}x of off)"
    )
    gno.close()


# -- replay -------------------------------------------------------------------------------


def replay(work: Path) -> None:
    env = env_of(work)
    gno = open_gno(env=env)
    set_tracing(gno, enabled=True, redaction_mode="replay")
    store = gno.handle.index.traces
    store.purge()
    queries, qrels = scifact_queries(), scifact_qrels()
    recorded: dict[str, str] = {}
    base: dict[str, float] = {}
    t0 = time.perf_counter()
    for qid, text in queries.items():
        request = QueryRequest(query=text, limit=10, rerank=False)
        results = gno.query(request)
        trace_id = gno.trace_results("gno_query", request, results)
        assert trace_id is not None
        recorded[qid] = trace_id
        base[qid] = ndcg_at_k([r.uri.rsplit("/", 1)[-1][:-3] for r in results.results], qrels[qid])
        events = {e.uri: e.event_id for e in gno.tracing.show(trace_id).events}
        for did in qrels[qid]:
            uri = f"gno://scifact/{did}.md"
            if uri in events:
                gno.tracing.label(trace_id, "relevant", None, event_id=events[uri])
            else:
                gno.tracing.label(trace_id, "missing_expected", None, document=uri)
    print(
        f"replay: recorded and labelled {len(recorded)} traces in {time.perf_counter() - t0:.1f}s"
    )
    gno.handle.clock  # noqa: B018
    for trace_id in recorded.values():
        store.finish(trace_id, "completed")

    def direct(mode: str) -> dict[str, float]:
        out = {}
        for qid, text in queries.items():
            if mode == "bm25":
                res = gno.search(SearchRequest(query=text, limit=10))
            else:
                res = gno.query(QueryRequest(query=text, limit=10, rerank=False, expand=True))
            out[qid] = ndcg_at_k([r.uri.rsplit("/", 1)[-1][:-3] for r in res.results], qrels[qid])
        return out

    for label, request in (
        ("vectors off (bm25)", TraceReplayRequest(mode="bm25", epsilon=EPSILON)),
        (
            "hybrid + expansion",
            TraceReplayRequest(mode="hybrid", expand=True, epsilon=EPSILON),
        ),
    ):
        t1 = time.perf_counter()
        res = gno.trace_replay(request)
        took = time.perf_counter() - t1
        mode = "bm25" if request.mode == "bm25" else "expand"
        after = direct(mode)
        counts = {"improved": 0, "unchanged": 0, "regressed": 0}
        for qid in queries:
            d = after[qid] - base[qid]
            counts["improved" if d > EPSILON else "regressed" if d < -EPSILON else "unchanged"] += 1
        c = res.counts
        mean_before, mean_after = statistics.fmean(base.values()), statistics.fmean(after.values())
        print(
            f"replay against {label} ({took:.1f}s): {c.improved} improved, {c.unchanged} "
            f"unchanged, {c.regressed} regressed, {c.unreplayable} unreplayable; mean nDCG@10 "
            f"{res.mean_ndcg_before:.4f} -> {res.mean_ndcg_after:.4f}"
        )
        print(
            f"  direct: {counts['improved']} improved, {counts['unchanged']} unchanged, "
            f"{counts['regressed']} regressed; nDCG@10 {mean_before:.4f} -> {mean_after:.4f} "
            f"(difference {mean_after - mean_before:+.4f}); agree: "
            f"{(c.improved, c.unchanged, c.regressed) == tuple(counts.values())}"
        )
    set_tracing(gno, enabled=False)
    gno.close()


# -- retention ------------------------------------------------------------------------------


def retention(work: Path, calls: int) -> None:
    env = env_of(work)
    gno = open_gno(env=env)
    set_tracing(gno, enabled=True)
    store = gno.handle.index.traces
    store.purge()
    before = db_bytes(work)
    texts = list(scifact_queries().values())
    t0 = time.perf_counter()
    worst = 0
    for i in range(calls):
        request = SearchRequest(query=texts[i % len(texts)], limit=20)
        assert gno.trace_results("gno_search", request, gno.search(request)) is not None
        if i % 500 == 499:
            u = store.usage()
            worst = max(worst, u.traces)
    took = time.perf_counter() - t0
    usage = store.usage()
    biggest = max(h.size_bytes for h in store.headers(limit=1000))
    print(
        f"retention: {calls} traced searches in {took:.1f}s: {usage.traces} traces kept (bound "
        f"1,000; at most {max(worst, usage.traces)} seen), {usage.records} records, "
        f"{usage.bytes / 1024:.0f} KiB of trace records (bound 16 MiB), largest trace "
        f"{biggest} bytes; database on disk {before / 1e6:.1f} MB before, "
        f"{db_bytes(work) / 1e6:.1f} MB after"
    )
    store.purge()
    set_tracing(gno, enabled=False)
    gno.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", required=True)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--skip", default="")
    args = parser.parse_args()
    work = Path(args.work)
    skip = set(args.skip.split(","))
    if "overhead" not in skip:
        overhead(work, args.rounds)
    if "replay" not in skip:
        replay(work)
    if "retention" not in skip:
        retention(work, args.calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
