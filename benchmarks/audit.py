"""Impact and the knowledge audit on real vaults (copied into a temporary folder first).

1. ``gno_impact`` of dendron-site's most linked note (most inbound resolved links) at depth 3:
   p50 / p95 over ``--rounds`` calls (target p50 <= 50 ms), with the answer's size.

Usage: python benchmarks/audit.py [--rounds 20] [--work DIR]
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import SHARED  # noqa: E402
from benchmarks.links import _add, _open, _timed  # noqa: E402
from benchmarks.metrics import summary_ms  # noqa: E402

IMPACT_TARGET_MS = 50.0


def _met(wall: list[float], target_ms: float) -> str:
    ok = statistics.median(wall) * 1000 <= target_ms
    return f"target p50 <= {target_ms:.0f} ms: {'met' if ok else 'NOT met'}"


def _vault(name: str, work: Path) -> Path:
    folder = work / name
    shutil.copytree(SHARED / name, folder)
    return folder


def impact(work: Path, rounds: int) -> None:
    from gno_core.contracts.integrity_requests import ImpactRequest

    folder = _vault("dendron-site", work)
    gno = _open(work / "home-impact")
    _add(gno, "dendron", folder)
    started = time.perf_counter()
    gno.sync()
    print(f"dendron-site synced in {time.perf_counter() - started:.1f} s")
    inbound = Counter(
        f"{e.target.collection}/{e.target.rel_path}" for e in gno.handle.index.links.edges()
    )
    hub, count = min(inbound.items(), key=lambda kv: (-kv[1], kv[0]))
    req = ImpactRequest(ref=hub, max_depth=3)
    res = gno.impact(req)
    wall, cpu = _timed(rounds, lambda _i: gno.impact(req))
    print(
        f"gno_impact {hub} ({count} inbound links), depth 3: {res.meta.returned_nodes} impacted, "
        f"{res.meta.returned_edges} links read, truncatedBy {res.meta.truncated_by or 'none'}"
    )
    print(
        f"  {summary_ms(wall)}, CPU p50 {statistics.median(cpu) * 1000:.1f} ms; "
        f"{_met(wall, IMPACT_TARGET_MS)}"
    )
    whole = gno.impact(
        ImpactRequest(
            ref=hub,
            max_depth=3,
            max_nodes=1000,
            max_edges=10000,
            frontier_limit=1000,
            visited_limit=5000,
        )
    )
    print(
        f"  uncapped (all caps at their maximum): {whole.meta.returned_nodes} impacted, "
        f"truncatedBy {whole.meta.truncated_by or 'none'}"
    )
    gno.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gno-audit-bench-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        impact(work, args.rounds)


if __name__ == "__main__":
    main()
