"""Impact and the knowledge audit on real vaults (copied into a temporary folder first).

1. ``gno_impact`` of dendron-site's most linked note (most inbound resolved links) at depth 3:
   p50 / p95 over ``--rounds`` calls (target p50 <= 50 ms), with the answer's size.
2. ``gno audit`` (every rule) of dendron-site: p50 over ``--audit-rounds`` runs (target <= 2 s),
   with each rule's share.
3. foam-docs with ``--break`` links broken on purpose: every broken link the independent
   resolver (``benchmarks/link_oracle.py``, no gno code) finds must be a ``links.local-targets``
   finding and no finding may be another link (target: 0 missed, 0 invented).

Usage: python benchmarks/audit.py [--rounds 20] [--audit-rounds 5] [--break 25] [--work DIR]
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
AUDIT_TARGET_MS = 2000.0


def _met(wall: list[float], target_ms: float) -> str:
    ok = statistics.median(wall) * 1000 <= target_ms
    return f"target p50 <= {target_ms:.0f} ms: {'met' if ok else 'NOT met'}"


def _vault(name: str, work: Path) -> Path:
    folder = work / name
    shutil.copytree(SHARED / name, folder)
    return folder


def dendron(work: Path, rounds: int, audit_rounds: int) -> None:
    from gno_core.contracts.integrity_requests import AuditRequest, ImpactRequest

    folder = _vault("dendron-site", work)
    gno = _open(work / "home-dendron")
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
        f"  every cap at its maximum: {whole.meta.returned_nodes} impacted, "
        f"truncatedBy {whole.meta.truncated_by or 'none'}"
    )
    audit_req = AuditRequest(max_findings=1000)
    report = gno.audit(audit_req)
    wall, cpu = _timed(audit_rounds, lambda _i: gno.audit(audit_req))
    print(
        f"gno audit (all rules) of dendron-site: {report.scope.documents} documents, status "
        f"{report.status}, {report.counts.findings} findings "
        f"({', '.join(f'{k} {v}' for k, v in report.counts.by_rule.items() if v)})"
    )
    print(
        f"  {summary_ms(wall)}, CPU p50 {statistics.median(cpu) * 1000:.1f} ms; "
        f"{_met(wall, AUDIT_TARGET_MS)}"
    )
    slow = sorted(report.timing.by_rule.items(), key=lambda kv: -kv[1])[:4]
    print(
        f"  source reads (16 at a time) {report.timing.source_reads_ms:.0f} ms; slowest rules "
        "(ms, last run): " + ", ".join(f"{k} {v:.0f}" for k, v in slow)
    )
    gno.close()


def foam(work: Path, count: int) -> None:
    from benchmarks.link_oracle import break_links, broken, local_links
    from gno_core.contracts.integrity_requests import AuditRequest

    folder = _vault("foam-docs", work)
    before = set(broken(folder))
    made = break_links(folder, count, seed=25)
    # gno reports a link's target without its #anchor (the anchor is its own evidence item)
    oracle = {(rel, line, target.split("#")[0]) for rel, line, _, target in broken(folder)}
    gno = _open(work / "home-foam")
    _add(gno, "foam", folder)
    gno.sync()
    report = gno.audit(AuditRequest(category="links", max_findings=1000))
    found = {
        (f.subject.rel_path, f.location.line if f.location else 0, _target(f))
        for f in report.findings
        if f.rule == "links.local-targets"
    }
    missed, invented = oracle - found, found - oracle
    purposely = {(rel, line, target.split("#")[0]) for rel, line, _, target in made}
    print(
        f"foam-docs: {len(local_links(folder))} local links, {len(before)} broken before, "
        f"{len(made)} broken on purpose; the independent resolver finds {len(oracle)} broken "
        f"({len(purposely - oracle)} of the purposely broken not among them)"
    )
    print(
        f"  links.local-targets: {len(found)} findings; missed {len(missed)}, invented "
        f"{len(invented)} (target: 0 and 0)"
    )
    for item in sorted(missed)[:10]:
        print(f"    missed {item}")
    for item in sorted(invented)[:10]:
        print(f"    invented {item}")
    gno.close()


def _target(finding: object) -> str:
    for item in finding.evidence:  # type: ignore[attr-defined]
        if item.kind == "targetRef":
            return str(item.value)
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--audit-rounds", type=int, default=5)
    parser.add_argument("--break", dest="count", type=int, default=25)
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gno-audit-bench-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        foam(work, args.count)
        dendron(work, args.rounds, args.audit_rounds)


if __name__ == "__main__":
    main()
