"""Capsule answer-section recall on a judged set (``benchmarks/capsule_judgments.json``).

    python benchmarks/capsule_recall.py [--budgets 1000,2000,4000,12000] [--no-embed] [-v]
        [--index-dir DIR]

The judged corpora (FastAPI English docs, Foam docs, Dendron site, from ``../shared/data``)
are synced (and embedded, unless ``--no-embed``) into a temporary index, one collection each.
For every goal and budget one capsule is compiled over the goal's collection. A judged section
(file and heading, spanning its subsections) is recalled when a passage of the capsule overlaps
its lines. Prints per budget: mean answer-section recall, goals with at least one answer
section, passages and distinct documents per capsule, goals with no passage, refused budgets,
and the largest usedTokens/budget. Targets (issue 23): recall >= 0.8 at 4,000 tokens, at least
one passage at 1,000 tokens for every goal, usedTokens never above the budget.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import SHARED

JUDGMENTS = Path(__file__).with_name("capsule_judgments.json")
_ANCHOR = re.compile(r"\s*\{\s*#[^}]*\}\s*$")


def heading_text(title: str) -> str:
    """A heading's text without the FastAPI docs' ``{ #anchor }`` suffix."""
    return _ANCHOR.sub("", title).strip()


def build(root: Path, corpora: dict[str, str], *, embed: bool) -> dict[str, str]:
    from gno_adapters.bootstrap import open_gno
    from gno_core.config import CollectionConfig

    env = {
        "GNO_CONFIG_DIR": str(root / "config"),
        "GNO_DATA_DIR": str(root / "data"),
        "GNO_CACHE_DIR": str(root / "cache"),
    }
    os.environ.update(env)
    with open_gno(env={**os.environ, **env}) as gno:
        gno.init()
        for name, folder in corpora.items():
            path = SHARED / folder
            if not path.is_dir():
                sys.exit(f"missing corpus: {path}")
            gno.add_collection(CollectionConfig(name=name, path=str(path)))
        started = time.perf_counter()
        gno.sync()
        print(f"sync {time.perf_counter() - started:.1f} s", flush=True)
        if embed:
            started = time.perf_counter()
            gno.embed()
            print(f"embed {time.perf_counter() - started:.1f} s", flush=True)
    return env


def answer_spans(gno: Any, goal: dict[str, Any]) -> list[list[tuple[str, int, int]]]:
    """Each judged answer as its sections' (uri, first line, last line) in the indexed
    document: one section, or the alternatives of an ``any``."""
    from gno_core.evidence.sections import parse_sections

    out = []
    for answer in goal["answers"]:
        spans = []
        for option in answer.get("any", [answer]):
            uri = f"gno://{goal['corpus']}/{option['file']}"
            lines = gno.get(uri).wire()["content"].split("\n")
            found = [s for s in parse_sections(lines) if heading_text(s.title) == option["heading"]]
            if len(found) != 1:
                sys.exit(f"judgment does not name one section: {option} ({len(found)} found)")
            spans.append((uri, found[0].line, found[0].end_line))
        out.append(spans)
    return out


def main() -> None:
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.evidence_requests import ContextRequest
    from gno_core.errors import ContextError

    parser = argparse.ArgumentParser()
    parser.add_argument("--budgets", default="1000,2000,4000,12000")
    parser.add_argument("--no-embed", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument(
        "--index-dir", help="build the index here (kept), or reuse the one an earlier run built"
    )
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    judged = json.loads(JUDGMENTS.read_text(encoding="utf-8"))
    goals = judged["goals"]
    rows: dict[int, dict[str, Any]] = {
        b: {
            "recall": [],
            "hit": 0,
            "passages": [],
            "docs": [],
            "empty": 0,
            "refused": 0,
            "ratio": 0.0,
            "ms": [],
        }
        for b in budgets
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.index_dir) if args.index_dir else Path(tmp)
        if (root / "config").is_dir():
            env = {
                k: str(root / k.removeprefix("GNO_").removesuffix("_DIR").lower())
                for k in ("GNO_CONFIG_DIR", "GNO_DATA_DIR", "GNO_CACHE_DIR")
            }
            os.environ.update(env)
        else:
            env = build(root, judged["corpora"], embed=not args.no_embed)
        with open_gno(env=env) as gno:
            mode = None
            for goal in goals:
                spans = answer_spans(gno, goal)
                for budget in budgets:
                    row = rows[budget]
                    request = ContextRequest(
                        goal=goal["goal"], budget_tokens=budget, collections=[goal["corpus"]]
                    )
                    started = time.perf_counter()
                    try:
                        capsule = gno.context(request).wire()
                    except ContextError as exc:
                        if exc.reason != "invalid_budget":
                            raise
                        row["refused"] += 1
                        row["empty"] += 1
                        row["recall"].append(0.0)
                        row["passages"].append(0)
                        row["docs"].append(0)
                        if args.verbose:
                            print(f"  {budget:>6} refused: {goal['goal']}")
                        continue
                    row["ms"].append((time.perf_counter() - started) * 1000)
                    mode = capsule["retrieval"]["mode"]
                    evidence = capsule["evidence"]
                    hits = sum(
                        1
                        for options in spans
                        if any(
                            e["uri"] == uri and e["startLine"] <= last and e["endLine"] >= first
                            for uri, first, last in options
                            for e in evidence
                        )
                    )
                    row["recall"].append(hits / len(spans))
                    row["hit"] += hits > 0
                    row["passages"].append(len(evidence))
                    row["docs"].append(len({e["uri"] for e in evidence}))
                    row["empty"] += not evidence
                    used = capsule["budget"]["usedTokens"]
                    row["ratio"] = max(row["ratio"], used / budget)
                    if args.verbose:
                        print(
                            f"  {budget:>6} recall {hits}/{len(spans)} passages {len(evidence)}"
                            f" used {used}: {goal['goal']}"
                        )
                        if hits < len(spans):
                            for e in evidence[:6]:
                                print(f"           {e['uri']}:{e['startLine']}-{e['endLine']}")
    print(f"{len(goals)} judged goals, retrieval mode {mode}")
    print(
        "budget  recall  goals-hit  passages(mean/min)  docs(mean)  no-passage  refused  "
        "max used/budget  compile p50 ms"
    )
    for budget in budgets:
        row = rows[budget]
        n = len(goals)
        ms = sorted(row["ms"])
        p50 = ms[len(ms) // 2] if ms else float("nan")
        print(
            f"{budget:>6}  {sum(row['recall']) / n:6.3f}  {row['hit']:>4}/{n:<4}  "
            f"{sum(row['passages']) / n:8.1f} / {min(row['passages']):<3}  "
            f"{sum(row['docs']) / n:10.1f}  {row['empty']:>10}  {row['refused']:>7}  "
            f"{row['ratio']:15.3f}  {p50:14.1f}"
        )


if __name__ == "__main__":
    main()
