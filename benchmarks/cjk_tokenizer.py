"""Measure CJK substring search strategies on the tldr pages (zh, zh_TW, ja, ko).

Usage: python benchmarks/cjk_tokenizer.py [--per-bucket 40] [--seed 7] [--tldr DIR]

Queries are substrings of 1, 2, 3, 4 and 6 CJK characters cut from random pages; the truth
for each is every page whose (NFKC) text contains it. Strategies, each an FTS5 table over the
same page bodies:

- ``unicode61``: ``porter unicode61`` on the raw text, the query as a phrase (what peers do);
- ``bigram``: ``gno_core.text.cjk`` segmentation (overlapping bigrams + the run's last
  character) under ``porter unicode61``, queries compiled exactly as ``ApswLexical`` does;
- ``trigram``: a second ``trigram`` table; substrings shorter than 3 characters cannot use
  its index, so they fall back to ``LIKE '%x%'``, which scans every row;
- ``store``: the real SQLite index (bigram strategy) end to end through ``parse_query``
  (recall over all hits; latency of a 10-result search, documents fetched).

Prints recall, precision, zero-result rate, index size, build time and query latency. Figures,
not assertions; the decision they support is in ``docs/explanation/cjk-search.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import apsw

from benchmarks.corpora import extract_tldr
from gno_adapters.clock import SystemClock
from gno_adapters.sqlite import lexical, open_apsw_index
from gno_core.domain import Chunk, DocumentMeta, IndexedDocument, SearchFilters, SyncBatch
from gno_core.retrieval.query import Term, parse_query
from gno_core.text.cjk import CJK_CLASS, segment_for_index

LANGS = ("zh", "zh_TW", "ja", "ko")
LENGTHS = (1, 2, 3, 4, 6)
RUN = re.compile(f"[{CJK_CLASS}]+")


def load_pages(root: Path) -> list[tuple[str, str, str]]:
    """(language, relative path, NFKC text) of every CJK page."""
    pages = []
    for lang in LANGS:
        for path in sorted((root / f"pages.{lang}").rglob("*.md")):
            text = unicodedata.normalize("NFKC", path.read_text(encoding="utf-8"))
            pages.append((lang, str(path.relative_to(root)), text))
    return pages


def sample_queries(
    pages: list[tuple[str, str, str]], per_bucket: int, seed: int
) -> list[tuple[str, str]]:
    """(language, substring) pairs: ``per_bucket`` per language and length."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for lang in LANGS:
        runs = [r for _, _, text in (p for p in pages if p[0] == lang) for r in RUN.findall(text)]
        for length in LENGTHS:
            long_runs = [r for r in runs if len(r) >= length]
            seen: set[str] = set()
            while len(seen) < per_bucket and long_runs:
                run = rng.choice(long_runs)
                start = rng.randrange(len(run) - length + 1)
                seen.add(run[start : start + length])
            out.extend((lang, q) for q in sorted(seen))
    return out


def fts_size(conn: apsw.Connection, table: str) -> int:
    rows = conn.execute(
        "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE ? || '%'", (table + "_",)
    ).fetchone()
    return int(rows[0] or 0)


class Strategy:
    def __init__(self, name: str, conn: apsw.Connection, build_s: float, size: int,
                 run: Callable[[str], set[int]]) -> None:  # fmt: skip
        self.name, self.conn, self.build_s, self.size, self.run = name, conn, build_s, size, run


def build_fts(name: str, bodies: list[str], tokenize: str, transform: Callable[[str], str],
              match: Callable[[apsw.Connection, str], set[int]]) -> Strategy:  # fmt: skip
    conn = apsw.Connection(":memory:")
    conn.execute("CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)")
    conn.executemany("INSERT INTO docs VALUES (?, ?)", list(enumerate(bodies)))
    started = time.perf_counter()
    conn.execute(
        f"CREATE VIRTUAL TABLE {name} USING fts5(body, tokenize='{tokenize}', content='', "
        "contentless_delete=1)"
    )
    with conn:
        conn.executemany(
            f"INSERT INTO {name}(rowid, body) VALUES (?, ?)",
            [(i, transform(b)) for i, b in enumerate(bodies)],
        )
    build = time.perf_counter() - started
    return Strategy(name, conn, build, fts_size(conn, name), lambda q: match(conn, q))


def match_rows(conn: apsw.Connection, table: str, expr: str) -> set[int]:
    return {r[0] for r in conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ?", (expr,))}


def bigram_match(conn: apsw.Connection, q: str) -> set[int]:
    expr = lexical.phrase_sql(Term(q))
    return match_rows(conn, "bigram", expr) if expr else set()


def trigram_strategy(bodies: list[str]) -> Strategy:
    conn = apsw.Connection(":memory:")
    conn.execute("CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)")
    conn.executemany("INSERT INTO docs VALUES (?, ?)", list(enumerate(bodies)))
    started = time.perf_counter()
    # External content: LIKE on short patterns needs the text, which already lives in docs.
    conn.execute(
        "CREATE VIRTUAL TABLE trigram USING fts5(body, tokenize='trigram', content='docs', "
        "content_rowid='id')"
    )
    with conn:
        conn.execute("INSERT INTO trigram(trigram) VALUES ('rebuild')")
    build = time.perf_counter() - started

    def run(q: str) -> set[int]:
        if len(q) >= 3:
            return match_rows(conn, "trigram", '"' + q.replace('"', '""') + '"')
        return {
            r[0] for r in conn.execute("SELECT rowid FROM trigram WHERE body LIKE ?", (f"%{q}%",))
        }

    return Strategy("trigram", conn, build, fts_size(conn, "trigram"), run)


def store_strategy(pages: list[tuple[str, str, str]], work: Path) -> Strategy:
    store = open_apsw_index(str(work / "cjk.sqlite"), SystemClock())
    docs = []
    for _, rel, text in pages:
        digest = hashlib.sha256(text.encode()).hexdigest()
        docs.append(IndexedDocument("tldr", rel, rel, digest, "text/markdown", ".md", len(text), 1,
                                    digest, text, (Chunk(0, 0, text, 1, 1),), DocumentMeta(),
                                    "native/markdown", "1"))  # fmt: skip
    index_of = {rel: i for i, (_, rel, _) in enumerate(pages)}
    started = time.perf_counter()
    for i in range(0, len(docs), 500):
        store.ledger.apply_batch(SyncBatch("tldr", upserts=tuple(docs[i : i + 500])))
    build = time.perf_counter() - started

    def run(q: str) -> set[int]:
        hits = store.lexical.search(parse_query(q), SearchFilters(), 100_000)
        return {index_of[h.document.rel_path] for h in hits}

    conn = apsw.Connection(str(work / "cjk.sqlite"))
    size = fts_size(conn, "documents_fts")
    conn.close()
    strategy = Strategy("store", apsw.Connection(":memory:"), build, size, run)
    strategy.close_store = store.close  # type: ignore[attr-defined]
    strategy.top10 = lambda q: store.lexical.search(parse_query(q), SearchFilters(), 10)  # type: ignore[attr-defined]
    return strategy


def evaluate(strategy: Strategy, queries: list[tuple[str, str]], truth: list[set[int]]) -> None:
    recalls: dict[int, list[float]] = {n: [] for n in LENGTHS}
    precision, latencies, zero = [], [], 0
    for (_, q), expected in zip(queries, truth, strict=True):
        started = time.perf_counter()
        got = strategy.run(q)
        latencies.append(time.perf_counter() - started)
        recalls[len(q)].append(len(got & expected) / len(expected))
        if got:
            precision.append(len(got & expected) / len(got))
        zero += not got
    top10 = getattr(strategy, "top10", None)
    if top10 is not None:  # what a caller sees: the first page of results
        latencies = []
        for _, q in queries:
            started = time.perf_counter()
            top10(q)
            latencies.append(time.perf_counter() - started)
    all_recall = [r for rs in recalls.values() for r in rs]
    by_len = " ".join(f"{n}:{statistics.mean(rs):.3f}" for n, rs in recalls.items())
    lat = sorted(latencies)
    print(
        f"{strategy.name:9} recall {statistics.mean(all_recall):.4f} ({by_len})  "
        f"precision {statistics.mean(precision) if precision else 0:.4f}  "
        f"zero-result {zero / len(queries):.1%}  index {strategy.size / 1e6:.1f} MB  "
        f"build {strategy.build_s:.2f}s  latency p50 {statistics.median(lat) * 1000:.2f} ms "
        f"p95 {lat[int(len(lat) * 0.95)] * 1000:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-bucket", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tldr", help="an already extracted tldr folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gno-cjk-") as tmp:
        work = Path(tmp)
        root = Path(args.tldr) if args.tldr else extract_tldr(work / "tldr")
        pages = load_pages(root)
        bodies = [text for _, _, text in pages]
        queries = sample_queries(pages, args.per_bucket, args.seed)
        truth = [{i for i, b in enumerate(bodies) if q in b} for _, q in queries]
        print(f"{len(pages)} CJK pages ({', '.join(LANGS)}), {sum(map(len, bodies)) / 1e6:.1f} M "
              f"characters, {len(queries)} substring queries")  # fmt: skip
        strategies = [
            build_fts("unicode61", bodies, "porter unicode61 remove_diacritics 2", str,
                      lambda c, q: match_rows(c, "unicode61", '"' + q + '"')),
            build_fts("bigram", bodies, "porter unicode61 remove_diacritics 2",
                      segment_for_index, bigram_match),
            trigram_strategy(bodies),
            store_strategy(pages, work),
        ]  # fmt: skip
        for strategy in strategies:
            evaluate(strategy, queries, truth)
            getattr(strategy, "close_store", lambda: None)()
            strategy.conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
