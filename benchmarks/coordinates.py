"""Source coordinates on the real corpora: ``gno get REF:N -l 1`` against line N of the file,
and how often a keyword hit's ``line`` holds a query term.

    python benchmarks/coordinates.py [--corpora fastapi-docs,dendron-site,foam-docs,hugo-docs]
        [--sample 20] [--queries 150]

Each corpus is indexed into a temporary data directory (``**/*.md``). For every indexed file the
whole ``get`` is compared line by line with the file (lines split at LF, CRLF and CR, trailing
whitespace and control characters ignored: the mirror drops them), then ``--sample`` random lines per file are read one
by one through ``REF:N -l 1``. Keyword check: ``--queries`` one-word queries drawn from random
lines (seeded), top 10 BM25 hits each; a hit counts when line ``line`` of its file contains the
word (``strict``) or its first five letters (the snippet matcher's stem); ``in file`` counts
the hits whose file holds the stem on some line at all (the others matched on their path).
Prints the index size.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import tempfile
import unicodedata
from pathlib import Path

from benchmarks.corpora import SHARED
from gno_adapters.bootstrap import open_gno
from gno_core.config import CollectionConfig
from gno_core.contracts.requests import SearchRequest
from gno_core.errors import GnoError

_BREAK = re.compile(r"\r\n|\r|\n")
# What the mirror drops inside a line (C0/C1 controls but tab), as ``canonicalize`` documents.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]+")
_WORD = re.compile(r"[A-Za-z]{6,}")


def file_lines(path: Path) -> list[str]:
    text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return [unicodedata.normalize("NFC", _CONTROL.sub("", line)).rstrip() for line in lines]


def measure(name: str, sample: int, queries: int, rng: random.Random) -> dict[str, int]:
    work = Path(tempfile.mkdtemp(prefix=f"gno-coords-{name}-"))
    env = {
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
        "HOME": str(work),
    }
    gno = open_gno(env=env)
    gno.init()
    gno.add_collection(CollectionConfig(name="c", path=str(SHARED / name)))
    gno.sync()
    out = dict.fromkeys(
        ("files", "shifted", "lines", "line_mismatch", "total_mismatch", "sampled", "sample_bad"),
        0,
    )
    docs = gno.ls(collection="c").documents
    sources: dict[str, list[str]] = {}
    for listed in docs:
        ref = listed.uri
        got = gno.get(ref)
        path = SHARED / name / got.source.rel_path
        if path.suffix.lower() not in (".md", ".markdown", ".mdx", ".txt"):
            continue
        expected = file_lines(path)
        sources[ref] = expected
        mirror = got.content.split("\n")
        if mirror and mirror[-1] == "":
            mirror.pop()
        out["files"] += 1
        out["lines"] += len(expected)
        out["total_mismatch"] += got.total_lines != len(expected)
        bad = sum(1 for a, b in zip(mirror, expected, strict=False) if a != b)
        out["line_mismatch"] += bad + abs(len(mirror) - len(expected))
        out["shifted"] += bool(bad or len(mirror) != len(expected))
        for number in rng.sample(range(1, len(expected) + 1), min(sample, len(expected))):
            out["sampled"] += 1
            try:
                line = gno.get(f"{ref}:{number}", line_count=1).content
            except GnoError:
                out["sample_bad"] += 1
                continue
            out["sample_bad"] += line != expected[number - 1] + "\n"
    refs = sorted(sources)
    out.update(hits=0, hit_strict=0, hit_stem=0, in_file=0)
    for _ in range(queries):
        lines = sources[rng.choice(refs)]
        words = [w for line in rng.sample(lines, min(5, len(lines))) for w in _WORD.findall(line)]
        if not words:
            continue
        word = rng.choice(words).lower()
        for hit in gno.search(SearchRequest(query=word, limit=10)).results:
            if hit.line is None or hit.uri not in sources:
                continue
            text = (
                sources[hit.uri][hit.line - 1].lower() if hit.line <= len(sources[hit.uri]) else ""
            )
            out["hits"] += 1
            out["hit_strict"] += word in text
            out["hit_stem"] += word[:5] in text
            out["in_file"] += any(word[:5] in line.lower() for line in sources[hit.uri])
    gno.close()
    index = work / "data"
    out["index_bytes"] = sum(p.stat().st_size for p in index.rglob("*") if p.is_file())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpora", default="fastapi-docs,dendron-site,foam-docs,hugo-docs")
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--queries", type=int, default=150)
    args = parser.parse_args()
    rng = random.Random(22)
    os.environ.setdefault("GNO_NO_PROGRESS", "1")
    for name in args.corpora.split(","):
        r = measure(name, args.sample, args.queries, rng)
        print(
            f"{name}: {r['files']} files, {r['shifted']} whose get differs from the file; "
            f"{r['lines']} lines compared, {r['line_mismatch']} differ, "
            f"{r['total_mismatch']} wrong totalLines; REF:N -l 1 sampled {r['sampled']}, "
            f"{r['sample_bad']} wrong; keyword hits {r['hits']}: line holds the term "
            f"{r['hit_strict']} ({100 * r['hit_strict'] / max(1, r['hits']):.2f} %), its stem "
            f"{r['hit_stem']} ({100 * r['hit_stem'] / max(1, r['hits']):.2f} %) of the "
            f"{r['in_file']} whose file holds it "
            f"({100 * r['hit_stem'] / max(1, r['in_file']):.2f} %); "
            f"index {r['index_bytes'] / 1e6:.1f} MB",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
