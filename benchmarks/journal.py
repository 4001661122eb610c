"""What the change journal costs, on the 38k tldr pages: the first sync and a no-change re-sync
with and without the journal (the SQLite index's ``journal`` setting,
``ApswIndexProvider(..., journal=False)``, which exists for this benchmark only), alternated in the same run, each in a fresh child process; and ``gno_changes`` pages of
100 (request validated, page read, serialised to JSON) over the 10,000 entries retention keeps
after that first sync.

Usage: python benchmarks/journal.py [--work DIR] [--rounds 2]   (prints figures; asserts nothing)
Targets (issue 25): first sync <= +10 %, no-change re-sync <= +5 %, page of 100 p50 <= 5 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def phase_sync() -> None:
    from gno_adapters.bootstrap import open_gno
    from gno_adapters.clock import SystemClock
    from gno_adapters.sqlite import ApswIndexProvider

    gno = open_gno()
    # the index this facade opens, with or without the journal (nothing is open yet)
    gno.handle.provider = ApswIndexProvider(
        Path(gno.handle.provider.location),
        SystemClock(),
        journal=os.environ.get("GNO_BENCH_JOURNAL", "1") == "1",
    )
    t0 = time.perf_counter()
    result = gno.sync()
    elapsed = time.perf_counter() - t0
    gno.close()
    print(
        json.dumps(
            {"seconds": elapsed, "added": result.total_added, "unchanged": result.total_unchanged}
        )
    )


def phase_changes() -> None:
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.delta_requests import ChangesRequest
    from gno_core.journal.cursor import encode_cursor

    gno = open_gno()
    bounds = gno.handle.index.journal.bounds()
    rng = random.Random(25)
    starts = [rng.randrange(bounds.purged_through, bounds.latest - 100) for _ in range(300)]
    cursors = [encode_cursor(bounds.epoch, s) for s in starts]
    for c in cursors[:20]:  # warm
        gno.changes_wire(ChangesRequest(since=c, limit=100))
    times = []
    for c in cursors:
        # what gno_changes does: validate the request, read the page, serialise it
        t0 = time.perf_counter()
        res = gno.changes_wire(ChangesRequest.model_validate({"since": c, "limit": 100}))
        text = json.dumps(res.wire(), ensure_ascii=False)
        times.append(time.perf_counter() - t0)
        assert len(res.wire()["changes"]) == 100 and text
    times.sort()
    gno.close()
    print(
        json.dumps(
            {
                "retained": bounds.retained,
                "p50_ms": statistics.median(times) * 1000,
                "p95_ms": times[int(len(times) * 0.95) - 1] * 1000,
                "n": len(times),
            }
        )
    )


def child(phase: str, env: dict[str, str]) -> dict[str, float]:
    code = f"import benchmarks.journal as b; b.phase_{phase}()"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _env(work: Path, name: str, journal: bool) -> dict[str, str]:
    return {
        **os.environ,
        "GNO_CONFIG_DIR": str(work / name / "config"),
        "GNO_DATA_DIR": str(work / name / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
        "PYTHONPATH": str(ROOT),
        "GNO_BENCH_JOURNAL": "1" if journal else "0",
    }


def main() -> int:
    from benchmarks.corpora import extract_tldr

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", help="work dir (default: a new temp dir)")
    parser.add_argument("--rounds", type=int, default=2, help="first syncs per variant")
    parser.add_argument(
        "--pages-only", action="store_true", help="only the page timing, on an existing run"
    )
    args = parser.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="gno-journal-"))
    pages = work / "pages"
    if not pages.is_dir():
        extract_tldr(work / "extract").rename(pages)
    if args.pages_only:
        _pages(work)
        return 0
    gno = [sys.executable, "-m", "gno_cli.main"]
    first: dict[bool, list[float]] = {True: [], False: []}
    again: dict[bool, list[float]] = {True: [], False: []}
    added = 0.0
    for round_ in range(args.rounds):
        for journal in (True, False) if round_ % 2 == 0 else (False, True):
            name = f"{'on' if journal else 'off'}-{round_}"
            shutil.rmtree(work / name, ignore_errors=True)
            env = _env(work, name, journal)
            subprocess.run(
                [*gno, "collection", "add", str(pages), "--name", "tldr", "-q"],
                env=env,
                check=True,
            )
            got = child("sync", env)
            added = got["added"]
            first[journal].append(got["seconds"])
            for _ in range(2):
                again[journal].append(child("sync", env)["seconds"])
    on, off = statistics.median(first[True]), statistics.median(first[False])
    print(
        f"first sync of {added:.0f} pages, median of {args.rounds}: journal {on:.2f} s, "
        f"without {off:.2f} s: {100 * (on / off - 1):+.1f} % (target <= +10 %)"
    )
    on_r, off_r = statistics.median(again[True]), statistics.median(again[False])
    print(
        f"no-change re-sync, median of {len(again[True])}: journal {on_r:.2f} s, "
        f"without {off_r:.2f} s: {100 * (on_r / off_r - 1):+.1f} % (target <= +5 %)"
    )
    _pages(work)
    return 0


def _pages(work: Path) -> None:
    page = child("changes", _env(work, "on-0", True))
    print(
        f"gno_changes page of 100 with {page['retained']:.0f} entries retained "
        f"({page['n']:.0f} pages at random cursors): p50 {page['p50_ms']:.2f} ms "
        f"(target <= 5), p95 {page['p95_ms']:.2f} ms"
    )


if __name__ == "__main__":
    raise SystemExit(main())
