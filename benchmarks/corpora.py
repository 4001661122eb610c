"""Materialise the shared corpora for benchmarks (into temp dirs; never into the repository)."""

from __future__ import annotations

import json
import tarfile
from collections import defaultdict
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SCIFACT = SHARED / "beir-scifact"


def write_scifact(target: Path) -> int:
    """One Markdown file per SciFact document: ``# title`` then the abstract."""
    target.mkdir(parents=True, exist_ok=True)
    count = 0
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            body = f"# {doc['title'].strip()}\n\n{doc['text'].strip()}\n"
            (target / f"{doc['_id']}.md").write_text(body, encoding="utf-8")
            count += 1
    return count


def scifact_queries() -> dict[str, str]:
    """The 300 test queries that have judgments, by id."""
    judged = set(scifact_qrels())
    queries: dict[str, str] = {}
    with (SCIFACT / "queries.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            q = json.loads(line)
            if q["_id"] in judged:
                queries[q["_id"]] = q["text"]
    return queries


def scifact_qrels() -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    lines = (SCIFACT / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for row in lines:
        qid, did, score = row.split("\t")
        qrels[qid][did] = int(score)
    return dict(qrels)


def extract_tldr(target: Path) -> Path:
    """Extract the tldr pages archive; returns the folder holding the pages."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(SHARED / "tldr-pages.tar.gz") as archive:
        archive.extractall(target, filter="data")
    children = [p for p in target.iterdir() if p.is_dir()]
    return children[0] if len(children) == 1 else target
