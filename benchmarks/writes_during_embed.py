"""Writes during a long embedding pass: latency of ``gno capture`` and ``gno remember --add``
while ``gno embed`` works through a backlog, and the embedding throughput with and without them.

Usage: ``python benchmarks/writes_during_embed.py [--pages 3000] [--tries 20] [--pairs 1]
[--pause 0.3] [--idle 5] [--warmup 8] [--nice 10] [--json]``.

Everything runs as a user runs it: real ``gno`` processes on a fresh index in a temporary
directory (removed at the end). The backlog is ``--pages`` tldr pages (one chunk each) extracted
from the shared ``tldr-pages.tar.gz``, plus a memory collection and an inbox collection for the
writers. A first embed of the whole backlog also builds the model's graph cache (timed, not
compared); then ``--pairs`` pairs of ``--force`` rounds on the same backlog, alone then with
writers, alternating so that a machine getting busier or quieter touches both kinds alike. In
each writers' round, once ``--warmup`` seconds have let
the model load, ``--tries`` captures and ``--tries`` remembers alternate (``--pause`` seconds
apart), each timed from process start to exit; a try is made only while the embed runs (those
left when it ended are counted as ``not-made``: make the backlog large enough that they are
none). The same writes are timed ``--idle`` times each with
no embed running: that is the writes' own cost on this machine (interpreter start, imports,
the write and its sync), which the lease must not add to. A writer that has to wait for the
lease prints ``waiting for the write lease`` on stderr; those notices are counted. Throughput is
given per wall-clock second (as ``gno embed`` reports it) and per CPU second of the embed process
(``wait4``), which other load on a shared machine disturbs much less.

The child processes write bytecode to a private ``PYTHONPYCACHEPREFIX`` (an installed gno has
its ``.pyc`` files), so each CLI start does not recompile every module. Never run by the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TLDR = DATA / "tldr-pages.tar.gz"
WAIT_NOTICE = "waiting for the write lease"
KEYS = ("embedded", "chunksPerSecond", "chunksPerCpuSecond", "cpuSeconds")


@dataclass
class Timings:
    seconds: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    waited: int = 0
    outside: int = 0  # tries not made: the embed had finished

    def merge(self, other: Timings) -> None:
        self.seconds += other.seconds
        self.failures += other.failures
        self.waited += other.waited
        self.outside += other.outside

    def summary(self) -> dict[str, Any]:
        s = sorted(self.seconds)
        if not s:
            return {"n": 0, "failures": len(self.failures)}
        p95 = s[min(len(s) - 1, max(0, round(0.95 * len(s) + 0.5) - 1))]
        return {
            "n": len(s),
            "failures": len(self.failures),
            "p50": round(statistics.median(s), 3),
            "p95": round(p95, 3),
            "max": round(s[-1], 3),
            "waitNotices": self.waited,
            "notMade": self.outside,
        }


class Bench:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = {
            **os.environ,
            "GNO_CONFIG_DIR": str(root / "config"),
            "GNO_DATA_DIR": str(root / "data"),
            "GNO_CACHE_DIR": str(root / "cache"),
            "PYTHONPYCACHEPREFIX": str(root / "pycache"),
        }
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.env.pop("GNO_MCP_ENABLE_WRITE", None)
        self.seq = 0
        self.nice = 10  # gno embed's default

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "gno_cli.main", *args]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            self.argv(*args), env=self.env, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"gno {' '.join(args)} failed ({done.returncode}): {done.stderr}")
        return done

    def write(self, kind: str, into: Timings, embed: subprocess.Popen[str] | None) -> None:
        self.seq += 1
        n = self.seq
        if kind == "capture":
            args = ["capture", f"Benchmark note {n} about lease waits", "-c", "inbox"]
            args += ["--title", f"bench note {n}"]
        else:
            args = ["remember", f"Benchmark fact number {n} stays true", "-c", "mem"]
            args += ["--scope", "bench", "--add", "--caller", "bench", "--session", "bench"]
        started = time.perf_counter()
        done = subprocess.run(
            self.argv(*args), env=self.env, capture_output=True, text=True, check=False
        )
        into.seconds.append(time.perf_counter() - started)
        if done.returncode != 0:
            into.failures.append(f"exit {done.returncode}: {done.stderr.strip()[-300:]}")
        if WAIT_NOTICE in done.stderr:
            into.waited += 1


def _ended(proc: subprocess.Popen[str]) -> bool:
    """Whether ``proc`` has exited, without reaping it (its ``wait4`` gives its CPU time)."""
    flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
    return os.waitid(os.P_PID, proc.pid, flags) is not None


def extract_tldr(target: Path, pages: int) -> int:
    """``pages`` pages of the tarball as plain files: the English ones first (7,437), then the
    other languages' (38,405 in all), each in tarball order."""
    count = 0
    for english in (True, False):
        with tarfile.open(TLDR, "r:gz") as tar:
            for member in tar:
                if count >= pages:
                    return count
                parts = member.name.split("/")
                if not member.isfile() or len(parts) < 4 or not member.name.endswith(".md"):
                    continue
                if not parts[1].startswith("pages") or (parts[1] == "pages") != english:
                    continue
                handle = tar.extractfile(member)
                if handle is None:
                    continue
                out = target / parts[1] / parts[2] / parts[-1]
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(handle.read())
                count += 1
    return count


def embed_round(
    bench: Bench, force: bool, writers: bool, tries: int, pause: float, warmup: float
) -> tuple[dict[str, Any], dict[str, Timings]]:
    args = ["embed", "--json", "-q", "--nice", str(bench.nice)] + (["--force"] if force else [])
    proc = subprocess.Popen(
        bench.argv(*args), env=bench.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    timings = {"capture": Timings(), "remember": Timings()}
    if writers:
        time.sleep(warmup)
        for _ in range(tries):
            for kind in ("capture", "remember"):
                if _ended(proc):  # only writes started during the embed count
                    timings[kind].outside += 1
                    continue
                bench.write(kind, timings[kind], proc)
                time.sleep(pause)
    out, err, cpu = _reap(proc)
    if proc.returncode != 0:
        raise SystemExit(f"gno embed failed ({proc.returncode}): {err}")
    result: dict[str, Any] = json.loads(out)
    result["cpuSeconds"] = round(cpu, 2)
    result["chunksPerCpuSecond"] = round(result["embedded"] / cpu, 2) if cpu > 0 else None
    return result, timings


def _reap(proc: subprocess.Popen[str]) -> tuple[str, str, float]:
    """The embed's output and the CPU seconds it used (``wait4``: its own, not the writers')."""
    chunks: dict[str, list[str]] = {"out": [], "err": []}

    def drain(name: str, stream: Any) -> None:
        chunks[name].append(stream.read())

    readers = [
        threading.Thread(target=drain, args=("out", proc.stdout)),
        threading.Thread(target=drain, args=("err", proc.stderr)),
    ]
    for reader in readers:
        reader.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    return "".join(chunks["out"]), "".join(chunks["err"]), usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3000, help="tldr pages in the backlog")
    parser.add_argument("--tries", type=int, default=20, help="captures and remembers each")
    parser.add_argument("--pairs", type=int, default=1, help="rounds alone and with writers")
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between two writes")
    parser.add_argument("--idle", type=int, default=5, help="writes of each kind with no embed")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds before the writers")
    parser.add_argument("--nice", type=int, default=10, help="gno embed --nice (0: normal)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    a = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="gno-writes-embed-"))
    try:
        bench = Bench(root)
        bench.nice = a.nice
        corpus, memory, inbox = root / "tldr", root / "memory", root / "inbox"
        for folder in (corpus, memory, inbox):
            folder.mkdir()
        pages = extract_tldr(corpus, a.pages)
        bench.run("collection", "add", str(corpus), "--name", "docs")
        bench.run("collection", "add", str(memory), "--name", "mem", "--memory")
        bench.run("collection", "add", str(inbox), "--name", "inbox")
        bench.run("update", "-q")
        idle = {"capture": Timings(), "remember": Timings()}
        bench.write("capture", Timings(), None)  # compiles the bytecode once
        bench.write("remember", Timings(), None)
        for _ in range(a.idle):
            for kind in ("capture", "remember"):
                bench.write(kind, idle[kind], None)
        cold, _ = embed_round(bench, False, False, 0, a.pause, a.warmup)
        rounds = []
        for i in range(a.pairs * 2):
            writers = i % 2 == 1
            result, timings = embed_round(bench, True, writers, a.tries, a.pause, a.warmup)
            rounds.append((writers, result, timings))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    report = _report(pages, cold, idle, rounds)
    if a.json:
        print(json.dumps(report, indent=2))
        return
    _print(report)


Round = tuple[bool, dict[str, Any], dict[str, Timings]]


def _report(
    pages: int, cold: dict[str, Any], idle: dict[str, Timings], rounds: list[Round]
) -> dict[str, Any]:
    alone = [r for w, r, _ in rounds if not w]
    busy = [r for w, r, _ in rounds if w]
    during = {"capture": Timings(), "remember": Timings()}
    for _, _, timings in (x for x in rounds if x[0]):
        for kind, t in timings.items():
            during[kind].merge(t)

    def mean(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.mean(r[key] for r in rows)

    return {
        "backlog": {"pages": pages, "chunks": cold["embedded"]},
        "coldEmbed": {k: cold[k] for k in KEYS},
        "rounds": [{"writers": w, **{k: r[k] for k in KEYS}} for w, r, _ in rounds],
        "ratioToAlone": round(mean(busy, "chunksPerSecond") / mean(alone, "chunksPerSecond"), 3),
        "cpuRatioToAlone": round(
            mean(busy, "chunksPerCpuSecond") / mean(alone, "chunksPerCpuSecond"), 3
        ),
        "idle": {k: t.summary() for k, t in idle.items()},
        "duringEmbed": {k: t.summary() for k, t in during.items()},
        "failures": [f for t in during.values() for f in t.failures][:5],
    }


def _print(report: dict[str, Any]) -> None:
    backlog = report["backlog"]
    print(f"backlog: {backlog['pages']} tldr pages, {backlog['chunks']} chunks")
    rows = [("first (cold)", report["coldEmbed"])] + [
        ("with writers" if r["writers"] else "alone", r) for r in report["rounds"]
    ]
    for label, r in rows:
        print(
            f"embed {label:13} {r['embedded']} chunks, {r['chunksPerSecond']} chunks/s, "
            f"{r['chunksPerCpuSecond']} chunks/CPU-s"
        )
    print(
        f"with writers / alone: {report['ratioToAlone']:.1%} per wall second, "
        f"{report['cpuRatioToAlone']:.1%} per CPU second"
    )
    for label in ("idle", "duringEmbed"):
        for kind, s in report[label].items():
            if not s["n"]:
                continue
            print(
                f"{kind:8} {label:11} n={s['n']:2} failures={s['failures']} p50={s['p50']:.2f}s "
                f"p95={s['p95']:.2f}s max={s['max']:.2f}s wait-notices={s['waitNotices']} "
                f"not-made={s['notMade']}"
            )
    for failure in report["failures"]:
        print("failure:", failure)


if __name__ == "__main__":
    main()
