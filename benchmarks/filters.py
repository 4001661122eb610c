"""Typed metadata filter overhead on the 38k tldr pages: the same searches with and without a
``filter`` that matches 10 % of the pages, p50 of each and their ratio (target: filtered p50 at
most 1.2 x unfiltered).

Usage: python benchmarks/filters.py [--work DIR] [--rounds N] [--vector-pages N] [--filter JSON]
(prints figures; asserts nothing). Wall-clock and CPU-time medians are both printed: on a
shared machine the CPU time of the searching process is the steadier of the two. The pages are extracted to a temp dir (never the repo); every
tenth page (sorted paths) gets ``gno: {metadata: {tier: gold}}`` written into its frontmatter,
every fifth of the others ``tier: silver``, so the filter ``{"op": "eq", "key": "tier",
"value": "gold"}`` matches 10 % (``--filter`` times another predicate over ``tier`` instead, e.g. its
negation, which matches 90 %). With ``--vector-pages N`` (default 0: skipped) a second index
of the first N pages (sorted paths) is embedded and vector search is timed the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.tldr_scale import QUERIES  # noqa: E402

GOLD = {"op": "eq", "key": "tier", "value": "gold"}


def tag_pages(pages: Path) -> tuple[int, int]:
    """Write the tier frontmatter into the temp copies; (gold, total)."""
    files = sorted(pages.rglob("*.md"))
    gold = 0
    for n, path in enumerate(files):
        if n % 10 == 0:
            tier = "gold"
            gold += 1
        elif n % 5 == 1:
            tier = "silver"
        else:
            continue
        text = path.read_text(encoding="utf-8")
        path.write_text(f"---\ngno:\n  metadata:\n    tier: {tier}\n---\n{text}", encoding="utf-8")
    return gold, len(files)


def phase_sync() -> None:
    from gno_adapters.bootstrap import open_gno

    gno = open_gno()
    t0 = time.perf_counter()
    result = gno.sync()
    print(json.dumps({"seconds": time.perf_counter() - t0, "added": result.total_added}))
    gno.close()


def phase_embed() -> None:
    from gno_adapters.bootstrap import open_gno

    gno = open_gno()
    t0 = time.perf_counter()
    gno.embed()
    print(json.dumps({"seconds": time.perf_counter() - t0}))
    gno.close()


def phase_search(
    mode: str, rounds: int, collection: str | None, predicate: dict[str, object] = GOLD
) -> None:
    """Interleaved unfiltered and filtered searches (same query, same limit): p50 of each."""
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.requests import SearchRequest

    gno = open_gno()
    run = gno.search if mode == "bm25" else gno.vsearch
    plain = [SearchRequest(query=q, limit=10, collection=collection) for q in QUERIES]
    filtered = [
        SearchRequest.model_validate(
            {"query": q, "limit": 10, "collection": collection, "filter": predicate}
        )
        for q in QUERIES
    ]
    for a, b in zip(plain, filtered, strict=True):  # warm caches (and the model) once
        run(a)
        run(b)
    times: dict[str, list[float]] = {"plain": [], "filtered": []}
    cpu: dict[str, list[float]] = {"plain": [], "filtered": []}
    outside = hits = 0
    for _ in range(rounds):
        for a, b in zip(plain, filtered, strict=True):
            for name, request in (("plain", a), ("filtered", b)):
                t0, c0 = time.perf_counter(), time.process_time()
                results = run(request)
                times[name].append(time.perf_counter() - t0)
                cpu[name].append(time.process_time() - c0)
                if name == "filtered":
                    hits += len(results.results)
                    outside += sum(1 for r in results.results if not _inside(gno, r.uri, b))
    gno.close()
    print(
        json.dumps(
            {
                "plain_p50_ms": statistics.median(times["plain"]) * 1000,
                "filtered_p50_ms": statistics.median(times["filtered"]) * 1000,
                "plain_p95_ms": sorted(times["plain"])[int(len(times["plain"]) * 0.95) - 1] * 1000,
                "filtered_p95_ms": sorted(times["filtered"])[int(len(times["filtered"]) * 0.95) - 1]
                * 1000,
                "plain_cpu_p50_ms": statistics.median(cpu["plain"]) * 1000,
                "filtered_cpu_p50_ms": statistics.median(cpu["filtered"]) * 1000,
                "n": len(times["plain"]),
                "filtered_hits": hits,
                "outside": outside,
            }
        )
    )


_TIERS: dict[str, str | None] = {}


def _inside(gno: object, uri: str, request: object) -> bool:
    """Whether the page behind ``uri`` satisfies the request's predicate (its ``tier`` read from
    the mirror's frontmatter, evaluated directly)."""
    from gno_core.metadata.evaluate import matches

    if uri not in _TIERS:
        text = gno.get(uri).content  # type: ignore[attr-defined]
        head = "---\ngno:\n  metadata:\n    tier: "
        _TIERS[uri] = text[len(head) :].split("\n", 1)[0] if text.startswith(head) else None
    tier = _TIERS[uri]
    return matches("valid", {"tier": tier} if tier else {}, request.filter)  # type: ignore[attr-defined]


def child(code: str, env: dict[str, str]) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", f"import benchmarks.filters as b; {code}"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> int:
    from benchmarks.corpora import extract_tldr

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", help="work dir (default: a new temp dir)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--vector-pages", type=int, default=0)
    parser.add_argument("--filter", default=json.dumps(GOLD), help="the predicate (JSON)")
    args = parser.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="gno-filters-"))
    pages = work / "pages"
    if not pages.is_dir():
        extract_tldr(work / "extract").rename(pages)
        gold, total = tag_pages(pages)
        print(f"tagged {gold} of {total} pages tier: gold ({100 * gold / total:.1f} %)")
    env = _env(work)
    gno = [sys.executable, "-m", "gno_cli.main"]
    if not (work / "config" / "index.yml").exists():
        subprocess.run(
            [*gno, "collection", "add", str(pages), "--name", "tldr", "-q"], env=env, check=True
        )
    synced = child("b.phase_sync()", env)
    print(f"sync: {synced['added']:.0f} docs in {synced['seconds']:.1f} s")
    predicate = json.loads(args.filter)
    print(f"filter: {json.dumps(predicate)}")
    bm25 = child(f"b.phase_search('bm25', {args.rounds}, None, {predicate!r})", env)
    _report("BM25", bm25)
    if args.vector_pages:
        # its own index of the first N pages (sorted paths: still one in ten tier: gold)
        vwork = work / f"vector-{args.vector_pages}"
        venv = _env(vwork)
        subset = vwork / "pages"
        if not subset.is_dir():
            for path in sorted(pages.rglob("*.md"))[: args.vector_pages]:
                target = subset / path.relative_to(pages)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
            subprocess.run(
                [*gno, "collection", "add", str(subset), "--name", "sub", "-q"],
                env=venv,
                check=True,
            )
        child("b.phase_sync()", venv)
        embedded = child("b.phase_embed()", venv)
        print(f"embed ({args.vector_pages} pages): {embedded['seconds']:.0f} s")
        vector = child(f"b.phase_search('vector', {args.rounds}, None, {predicate!r})", venv)
        _report(f"vector ({args.vector_pages} pages)", vector)
    return 0


def _env(work: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
        "PYTHONPATH": str(ROOT),
    }


def _report(name: str, r: dict[str, float]) -> None:
    ratio = r["filtered_p50_ms"] / r["plain_p50_ms"]
    cpu_ratio = r["filtered_cpu_p50_ms"] / r["plain_cpu_p50_ms"]
    print(
        f"{name}, CPU time of the process: unfiltered p50 {r['plain_cpu_p50_ms']:.2f} ms, "
        f"filtered p50 {r['filtered_cpu_p50_ms']:.2f} ms; ratio {cpu_ratio:.2f}"
    )
    print(
        f"{name}, limit 10, {r['n']:.0f} searches each: unfiltered p50 {r['plain_p50_ms']:.2f} ms "
        f"(p95 {r['plain_p95_ms']:.2f}), filtered p50 {r['filtered_p50_ms']:.2f} ms "
        f"(p95 {r['filtered_p95_ms']:.2f}); ratio {ratio:.2f} (target <= 1.20, "
        f"overhead {100 * (ratio - 1):+.0f} %); {r['filtered_hits']:.0f} filtered hits, "
        f"{r['outside']:.0f} outside the predicate"
    )


if __name__ == "__main__":
    sys.exit(main())
