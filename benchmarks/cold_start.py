"""Cold start of the read commands: each figure is a new ``gno`` process, start to exit.

Usage: python benchmarks/cold_start.py [--work DIR] [--runs 20] [--no-embed]
(prints figures; asserts nothing)

The index is the fastapi-docs corpus from ``../shared/data`` (1,656 Markdown pages in 16
languages), built once in ``--work`` (``gno collection add`` + ``gno index``; the embedding
step is what ``vsearch`` and ``query`` need, a few minutes on 2 cores). Every command runs
``--runs`` times, interleaved with two baselines in the same rounds, ``python -c pass`` and
``python -c "import pydantic"`` and ``from pydantic import BaseModel`` (the floor of a process
that builds any contract), so that a busy machine slows all of them alike: compare the
figures with the baselines of the same run, not across runs. Sources are byte-compiled first
(as an installed package is), since ``PYTHONDONTWRITEBYTECODE`` would otherwise make every
process compile gno again.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "fastapi-docs"
DOC = "gno://fastapi/en/docs/tutorial/dependencies/index.md"


def commands(gno: list[str], py: str) -> dict[str, list[str]]:
    return {
        "python3 -c pass": [py, "-c", "pass"],
        'python3 -c "import pydantic"': [py, "-c", "import pydantic"],
        # ``import pydantic`` alone is lazy; the first model class needs BaseModel, which is
        # the floor of any process that builds or validates a contract.
        "python3 -c 'from pydantic import BaseModel'": [
            py,
            "-c",
            "from pydantic import BaseModel",
        ],
        "gno --help": [*gno, "--help"],
        "gno search": [*gno, "search", "dependency injection", "-n", "5"],
        "gno get": [*gno, "get", DOC, "-l", "20"],
        "gno ls": [*gno, "ls", "fastapi/en/docs", "--limit", "20"],
        "gno status": [*gno, "status"],
        "gno peek": [*gno, "peek"],
        "gno vsearch": [*gno, "vsearch", "how do I declare dependencies", "-n", "5"],
        "gno query": [*gno, "query", "how do I declare dependencies", "-n", "5"],
    }


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--work", help="work dir holding the index (default: a new temp dir)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-embed", action="store_true", help="skip vsearch/query")
    parser.add_argument(
        "--no-index", action="store_true", help="use the index in --work as it is (no update)"
    )
    parser.add_argument(
        "--before",
        help="a checkout of an earlier gno: each gno command (but --help) also runs from it, in "
        "the same rounds, for before/after figures",
    )
    parser.add_argument("--only", help="comma list of command labels to run (and baselines)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"corpus not found: {CORPUS}")
        return 1
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="gno-cold-"))
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
    }
    py = sys.executable
    script = Path(py).with_name("gno")
    gno = [str(script)] if script.exists() else [py, "-m", "gno_cli.main"]
    for package in ("gno_core", "gno_adapters", "gno_cli"):
        compileall.compile_dir(str(ROOT / package), quiet=1)
    if not (work / "config" / "index.yml").exists():
        subprocess.run(
            [*gno, "collection", "add", str(CORPUS), "--name", "fastapi", "-q"], env=env, check=True
        )
    if not args.no_index:
        index = [*gno, "index", "-q"] if not args.no_embed else [*gno, "update", "-q"]
        t0 = time.perf_counter()
        subprocess.run(index, env=env, check=True, stdout=subprocess.DEVNULL)
        print(f"index ready in {time.perf_counter() - t0:.1f} s at {work}")

    todo = commands(gno, py)
    if args.no_embed:
        todo = {k: v for k, v in todo.items() if k not in ("gno vsearch", "gno query")}
    if args.only:
        wanted = {w.strip() for w in args.only.split(",")}
        todo = {k: v for k, v in todo.items() if k in wanted or k.startswith("python3")}
    envs = {label: env for label in todo}
    if args.before:
        # ``-P``: not the current directory first on ``sys.path`` (``-m`` would put it there, and
        # a run from a checkout would time that checkout's code, not ``--before``'s).
        for label in [k for k in todo if k.startswith("gno ") and k != "gno --help"]:
            before = f"{label} (before)"
            todo[before] = [py, "-P", "-m", "gno_cli.main", *todo[label][len(gno) :]]
            envs[before] = {**env, "PYTHONPATH": str(Path(args.before).resolve())}
        for package in ("gno_core", "gno_adapters", "gno_cli"):
            compileall.compile_dir(str(Path(args.before) / package), quiet=1)
    for label, cmd in todo.items():  # warm the page cache and the config cache once
        measure(cmd, envs[label])
    walls: dict[str, list[float]] = {k: [] for k in todo}
    cpus: dict[str, list[float]] = {k: [] for k in todo}
    for _ in range(args.runs):
        for label, cmd in todo.items():
            wall, cpu = measure(cmd, envs[label])
            walls[label].append(wall)
            cpus[label].append(cpu)
    load = os.getloadavg()
    print(
        f"{args.runs} interleaved runs each; load average {load[0]:.1f} / {load[1]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    width = max(len(label) for label in todo)
    print(f"{'command':{width}s} {'wall median':>12s} {'wall p90':>9s} {'cpu median':>11s}")
    for label in todo:
        w, c = walls[label], cpus[label]
        print(
            f"{label:{width}s} {statistics.median(w) * 1000:9.0f} ms {p90(w) * 1000:6.0f} ms "
            f"{statistics.median(c) * 1000:8.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
