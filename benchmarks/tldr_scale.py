"""Ingest scale on the 38k tldr pages: first sync and no-change re-sync throughput, peak RSS,
BM25 latency in process and the cold ``gno search`` wall time.

Usage: python benchmarks/tldr_scale.py [--work DIR]   (prints figures; asserts nothing)
Each phase runs in a fresh child process so that peak RSS is the phase's own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = [
    "extract tar archive",
    "list files sorted by size",
    "git rebase interactive",
    "docker container logs",
    "compress video ffmpeg",
    "find files modified",
    "kill process by name",
    "show disk usage",
    "ssh port forwarding",
    "convert image format",
    "压缩 文件",
    "ファイル",
    "디렉토리",
    "network interface",
    "python virtual environment",
]


def child(phase: str, env: dict[str, str]) -> dict[str, float]:
    code = f"import benchmarks.tldr_scale as b; b.phase_{phase}()"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phase_sync() -> None:
    from gno_adapters.bootstrap import open_gno

    gno = open_gno()
    t0 = time.perf_counter()
    result = gno.sync()
    elapsed = time.perf_counter() - t0
    gno.close()
    print(
        json.dumps(
            {
                "seconds": elapsed,
                "added": result.total_added,
                "unchanged": result.total_unchanged,
                "failed": result.total_failed,
                "rss_mb": _rss_mb(),
            }
        )
    )


def phase_search() -> None:
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.requests import SearchRequest

    gno = open_gno()
    for q in QUERIES:  # warm caches once
        gno.search(SearchRequest(query=q, limit=10))
    times = []
    for _ in range(20):
        for q in QUERIES:
            t0 = time.perf_counter()
            gno.search(SearchRequest(query=q, limit=10))
            times.append(time.perf_counter() - t0)
    times.sort()
    gno.close()
    print(
        json.dumps(
            {
                "p50_ms": statistics.median(times) * 1000,
                "p95_ms": times[int(len(times) * 0.95) - 1] * 1000,
                "n": len(times),
                "rss_mb": _rss_mb(),
            }
        )
    )


def main() -> int:
    from benchmarks.corpora import extract_tldr

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", help="work dir (default: a new temp dir)")
    args = parser.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="gno-tldr-"))
    pages = work / "pages"
    if not pages.is_dir():
        extracted = extract_tldr(work / "extract")
        extracted.rename(pages)
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
        "PYTHONPATH": str(ROOT),
    }
    gno = [sys.executable, "-m", "gno_cli.main"]
    db = work / "data" / "index-default.sqlite"
    if db.exists():
        for f in (work / "data").glob("index-default.sqlite*"):
            f.unlink()
    if not (work / "config" / "index.yml").exists():
        subprocess.run(
            [*gno, "collection", "add", str(pages), "--name", "tldr", "-q"], env=env, check=True
        )

    first = child("sync", env)
    print(
        f"first sync: {first['added']:.0f} docs in {first['seconds']:.2f}s = "
        f"{first['added'] / first['seconds']:.0f} docs/s (target >= 1000); "
        f"failed {first['failed']:.0f}; peak RSS {first['rss_mb']:.0f} MB (target < 300)"
    )
    again = child("sync", env)
    print(
        f"no-change re-sync: {again['unchanged']:.0f} unchanged in {again['seconds']:.2f}s "
        f"(target <= 3 s); peak RSS {again['rss_mb']:.0f} MB"
    )
    search = child("search", env)
    print(
        f"BM25 in process (limit 10, {search['n']:.0f} queries): p50 {search['p50_ms']:.2f} ms "
        f"(target <= 5), p95 {search['p95_ms']:.2f} ms"
    )
    walls = []
    for q in QUERIES[:10]:
        t0 = time.perf_counter()
        subprocess.run([*gno, "search", q, "-n", "5"], env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
    print(
        f"gno search cold wall (new process each): median {statistics.median(walls) * 1000:.0f} ms "
        f"(target <= 300), max {max(walls) * 1000:.0f} ms"
    )
    print(f"index size: {db.stat().st_size / 1e6:.0f} MB at {db}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
