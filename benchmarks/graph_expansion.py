"""Graph expansion in ``gno query`` on a linked corpus: dendron-site, with and without the graph.

Usage: python benchmarks/graph_expansion.py [--embed] [--keep DIR] [--rerank-model DIR]
                                           [--weights 0.8,0.4]

dendron-site has no relevance judgments, so this builds a known-item set by a fixed rule that
never looks at links:

* a query is the one-line frontmatter ``desc`` of a note, when it has at least four words and no
  other note has the same ``desc``; the note is its only relevant document (grade 1);
* the notes are indexed from a temporary copy of the vault whose one-line ``desc`` values are
  blanked, so a query is a description of the note rather than a string the note contains.

Each query runs through ``Gno.query`` (limit 10, no rerank unless ``--rerank-model``) with graph
expansion on (the default) and off (``graph: false``). Prints MRR@10, nDCG@10, hits at 1 and at
10, how many queries improved or got worse, how many runs the graph stage added a candidate
to, and warm latency p50/p95 of both. ``--weights`` runs graph-on once per graph leg weight
(default: the shipped one) against the same graph-off run. ``--embed`` embeds the copy first (hybrid with vectors);
without it the query runs ``bm25_only`` (fusion and graph stage still run). Figures, not
assertions.
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import SHARED
from benchmarks.metrics import summary_ms
from gno_adapters.bootstrap import open_gno
from gno_core.contracts.requests import QueryRequest
from gno_core.retrieval import graph_expansion as ge

DATA = SHARED / "dendron-site" / "vault"
DESC = re.compile(r"^desc:[ \t]*(.*)$", re.MULTILINE)
MIN_WORDS = 4
LIMIT = 10


def one_line_desc(text: str) -> str | None:
    """The note's one-line ``desc`` (quotes removed), or None."""
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    match = DESC.search(text[: max(end, 0)])
    if match is None:
        return None
    value = match.group(1).strip()
    if value in ("", "''", '""', ">-", "|", ">", "|-"):
        return None
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].replace("''", "'")
    return value.strip() or None


def build_copy(source: Path, target: Path) -> dict[str, str]:
    """Copy the vault with one-line descs blanked; returns {query: rel_path} by the rule."""
    shutil.copytree(source, target)
    found: dict[str, list[str]] = {}
    for path in sorted(target.rglob("*.md")):
        text = path.read_text("utf-8")
        desc = one_line_desc(text)
        if desc is None:
            continue
        rel = path.relative_to(target).as_posix()
        found.setdefault(desc, []).append(rel)
        end = text.find("\n---", 3)
        head = DESC.sub("desc: ''", text[:end], count=1)
        path.write_text(head + text[end:], "utf-8")
    return {
        desc: rels[0]
        for desc, rels in sorted(found.items())
        if len(rels) == 1 and len(desc.split()) >= MIN_WORDS
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embed", action="store_true", help="embed the copy (hybrid + vectors)")
    parser.add_argument("--keep", help="reuse/keep the work dir here")
    parser.add_argument("--rerank-model", help="cross-encoder directory (default: no rerank)")
    parser.add_argument("--weights", default=str(ge.WEIGHT_GRAPH), help="graph leg weights")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="gno-graphx-"))
    vault = work / "vault"
    if vault.exists():
        shutil.rmtree(vault)
    queries = build_copy(DATA, vault)
    env = {
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
        "GNO_RERANK_MODEL": args.rerank_model or "none",
        "HOME": str(work),
    }
    gno = open_gno(env=env)
    if not gno.list_collections().collections:
        from gno_core.config import CollectionConfig

        gno.init()
        gno.add_collection(CollectionConfig(name="dendron", path=str(vault)))
    sync = gno.sync()
    print(f"sync: {sync.total_added} added, {sync.total_unchanged} unchanged")
    if args.embed:
        t0 = time.perf_counter()
        done = gno.embed()
        print(f"embed: {done.embedded} chunks in {time.perf_counter() - t0:.0f}s")
    print(f"queries: {len(queries)} (one-line desc of >= {MIN_WORDS} words, unique)")

    rerank = bool(args.rerank_model)
    runs = [(float(w), True) for w in args.weights.split(",")] + [(0.0, False)]
    ranks: dict[tuple[float, bool], list[int | None]] = {}
    for weight, graph in runs:
        ge.WEIGHT_GRAPH = weight  # read when the graph leg is built
        out: list[int | None] = []
        times: list[float] = []
        mode, added_runs = "", 0
        for text, rel in queries.items():
            t0 = time.perf_counter()
            res = gno.query(
                QueryRequest(query=text, limit=LIMIT, rerank=rerank, graph=graph, explain=graph)
            )
            times.append(time.perf_counter() - t0)
            mode = res.meta.mode
            uris = [r.uri.removeprefix("gno://dendron/") for r in res.results]
            out.append(uris.index(rel) + 1 if rel in uris else None)
            if graph:
                line = next(e.message for e in res.meta.explain or [] if e.stage == "graph")
                added_runs += ", 0 new," not in line and "candidates=0/" not in line
        ranks[(weight, graph)] = out
        n = len(out)
        mrr = sum(1 / r for r in out if r) / n
        ndcg = sum(1 / math.log2(r + 1) for r in out if r) / n
        at1 = sum(r == 1 for r in out if r)
        at10 = sum(1 for r in out if r)
        name = f"graph on (weight {weight:g})" if graph else "graph off"
        print(
            f"{name}: MRR@10 {mrr:.4f}  nDCG@10 {ndcg:.4f}  hit@1 {at1}/{n}  hit@10 {at10}/{n}  "
            f"[mode {mode}, reranked {rerank}]"
            + (f"; new documents added in {added_runs}/{n} runs" if graph else "")
        )
        print(f"  latency: {summary_ms(times)}")
    off = ranks[(0.0, False)]
    for (weight, graph), on in ranks.items():
        if not graph:
            continue
        better = sum((a or LIMIT + 1) < (b or LIMIT + 1) for a, b in zip(on, off, strict=True))
        worse = sum((a or LIMIT + 1) > (b or LIMIT + 1) for a, b in zip(on, off, strict=True))
        print(
            f"weight {weight:g} vs off: {better} queries ranked the note higher, {worse} lower, "
            f"{len(off) - better - worse} unchanged"
        )
    gno.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
