"""Writes under contention, capture-to-searchable at scale, and SIGKILLed writers.

Usage:
  python -m benchmarks.writes stress [--seconds 60]   4 writer processes on one index
  python -m benchmarks.writes searchable [--pages N]   capture -> search hit on the tldr index
  python -m benchmarks.writes kill [--rounds 20]       SIGKILL captures and an index run
Prints figures (and exits 1 when a correctness check fails: an untyped error, a lost capture,
a failed integrity check, a partial note or a held lease).

stress: (1) a CLI capture loop (a new ``gno capture`` process each time), (2) a CLI ``gno
update`` loop, (3) an MCP stdio client (``gno mcp --enable-write``) calling ``gno_capture``,
(4) an HTTP client posting ``/api/capture`` to ``gno serve --mcp-enable-write``. Every capture
carries a unique token; afterwards each receipt's note must be a search hit for its token and
its file's SHA-256 must be the receipt's ``contentHash``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GNO = [sys.executable, "-m", "gno_cli.main"]
#: What counts as typed: a gno error code in the envelope or the tool error ``_meta``.
TYPED = {
    "LOCKED",
    "DUPLICATE",
    "VALIDATION",
    "INVALID_PATH",
    "NOT_FOUND",
    "JOB_CONFLICT",
    "CANCELLED",
}


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    receipts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    typed: dict[str, int] = field(default_factory=dict)
    untyped: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ok(self, token: str, receipt: dict[str, Any], seconds: float) -> None:
        with self.lock:
            self.receipts.append((token, receipt))
            self.latencies.append(seconds)

    def failed(self, code: str | None, text: str) -> None:
        with self.lock:
            if code in TYPED:
                self.typed[code] = self.typed.get(code, 0) + 1
            else:
                self.untyped.append(f"{code}: {text[:300]}")


def make_env(work: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(work / "config"),
        "GNO_DATA_DIR": str(work / "data"),
        "GNO_CACHE_DIR": str(work / "cache"),
        "PYTHONPATH": str(ROOT),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    return env


def init_index(work: Path, env: dict[str, str], seed: int = 200) -> Path:
    notes = work / "notes"
    notes.mkdir(parents=True)
    for i in range(seed):
        (notes / f"seed-{i}.md").write_text(f"# Seed {i}\n\nseed body {i}\n", encoding="utf-8")
    subprocess.run([*GNO, "init", str(notes), "--name", "notes", "-q"], env=env, check=True)
    subprocess.run([*GNO, "update", "-q"], env=env, check=True)
    # The HTTP writer must not meet the gateway's per-peer rate limit (120/min by default).
    config = work / "config" / "index.yml"
    text = config.read_text(encoding="utf-8")
    if "rateLimitPerMinute: 120" in text:
        text = text.replace("rateLimitPerMinute: 120", "rateLimitPerMinute: 1000000")
    else:
        text += "gateway:\n  rateLimitPerMinute: 1000000\n"
    config.write_text(text, encoding="utf-8")
    return notes


def body(worker: str, token: str) -> str:
    # The heading names the file (inbox/<date>/<heading>.md): unique per capture.
    return f"# {worker} capture {token}\n\nStress note from {worker} with token {token}.\n"


def cli_capture_loop(env: dict[str, str], stop: float, tally: Tally) -> None:
    while time.monotonic() < stop:
        token = "tok" + uuid.uuid4().hex
        t0 = time.perf_counter()
        run = subprocess.run(
            [*GNO, "capture", body("cli", token), "--json"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        took = time.perf_counter() - t0
        if run.returncode == 0:
            tally.ok(token, json.loads(run.stdout), took)
        else:
            try:
                tally.failed(json.loads(run.stdout)["error"]["code"], run.stdout)
            except (ValueError, KeyError):
                tally.failed(None, run.stdout + run.stderr)


def update_loop(env: dict[str, str], stop: float, tally: Tally) -> int:
    runs = 0
    while time.monotonic() < stop:
        run = subprocess.run(
            [*GNO, "update", "--json"], env=env, capture_output=True, text=True, check=False
        )
        runs += 1
        if run.returncode != 0:
            try:
                tally.failed(json.loads(run.stdout)["error"]["code"], run.stdout)
            except (ValueError, KeyError):
                tally.failed(None, run.stdout + run.stderr)
    return runs


def mcp_capture_loop(env: dict[str, str], stop: float, tally: Tally) -> None:
    proc = subprocess.Popen(
        [*GNO, "mcp", "--enable-write"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def rpc(rid: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(
            json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n"
        )
        proc.stdin.flush()
        while True:
            message = json.loads(proc.stdout.readline())
            if message.get("id") == rid:
                return dict(message)

    rpc(
        0,
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    )
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    rid = 1
    while time.monotonic() < stop:
        token = "tok" + uuid.uuid4().hex
        t0 = time.perf_counter()
        answer = rpc(
            rid,
            "tools/call",
            {
                "name": "gno_capture",
                "arguments": {"collection": "notes", "content": body("mcp", token)},
            },
        )
        took = time.perf_counter() - t0
        rid += 1
        result = answer.get("result", {})
        if "error" in answer:
            tally.failed(None, json.dumps(answer["error"]))
        elif result.get("isError"):
            code = result.get("_meta", {}).get("gno/error", {}).get("code")
            tally.failed(code, result["content"][0]["text"])
        else:
            tally.ok(token, result["structuredContent"], took)
    proc.stdin.close()
    proc.wait(30)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def http_capture_loop(port: int, stop: float, tally: Tally) -> None:
    import httpx

    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=200) as http:
        while time.monotonic() < stop:
            token = "tok" + uuid.uuid4().hex
            t0 = time.perf_counter()
            response = http.post(
                "/api/capture", json={"collection": "notes", "content": body("http", token)}
            )
            took = time.perf_counter() - t0
            if response.status_code == 201:
                tally.ok(token, response.json(), took)
            else:
                try:
                    tally.failed(response.json()["error"]["code"], response.text)
                except (ValueError, KeyError):
                    tally.failed(None, response.text)


def start_gateway(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    import httpx

    port = free_port()
    proc = subprocess.Popen(
        [*GNO, "serve", "--port", str(port), "--mcp-enable-write"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=2).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the gateway did not start")


def integrity(db: Path) -> str:
    import apsw

    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        ok = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        orphans = conn.execute("PRAGMA foreign_key_check").fetchall()
        return ok if not orphans else f"{ok}; {len(orphans)} foreign key violations"
    finally:
        conn.close()


def pct(values: list[float], p: float) -> float:
    from benchmarks.metrics import percentile

    return percentile(values, p) * 1000


def stress(seconds: float) -> int:
    work = Path(tempfile.mkdtemp(prefix="gno-writes-"))
    env = make_env(work)
    init_index(work, env)
    gateway, port = start_gateway(env)
    tallies = {name: Tally() for name in ("cli", "update", "mcp", "http")}
    stop = time.monotonic() + seconds
    updates: list[int] = []
    threads = [
        threading.Thread(target=cli_capture_loop, args=(env, stop, tallies["cli"])),
        threading.Thread(target=lambda: updates.append(update_loop(env, stop, tallies["update"]))),
        threading.Thread(target=mcp_capture_loop, args=(env, stop, tallies["mcp"])),
        threading.Thread(target=http_capture_loop, args=(port, stop, tallies["http"])),
    ]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    gateway.send_signal(signal.SIGTERM)
    gateway.wait(30)

    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.requests import SearchRequest

    lost = 0
    receipts = [r for t in tallies.values() for r in t.receipts]
    with open_gno("default", env=env) as gno:
        for token, receipt in receipts:
            hits = gno.search(SearchRequest(query=token, limit=3)).results
            path = Path(receipt["absPath"])
            on_disk = path.is_file() and (
                hashlib.sha256(path.read_bytes()).hexdigest() == receipt["contentHash"]
            )
            if [h.uri for h in hits] != [receipt["uri"]] or not on_disk:
                lost += 1
    check = integrity(work / "data" / "index-default.sqlite")
    latencies = [x for name in ("cli", "mcp", "http") for x in tallies[name].latencies]
    untyped = [u for t in tallies.values() for u in t.untyped]
    typed: dict[str, int] = {}
    for t in tallies.values():
        for code, n in t.typed.items():
            typed[code] = typed.get(code, 0) + n
    print(f"stress: {elapsed:.1f} s, 4 writer processes on one index ({work})")
    for name in ("cli", "mcp", "http"):
        lat = tallies[name].latencies
        if lat:
            print(
                f"  {name}: {len(lat)} captures, p50 {pct(lat, 50):.1f} ms, p95 {pct(lat, 95):.1f} ms"
            )
    print(f"  update loop: {updates[0] if updates else 0} runs")
    print(
        f"  total: {len(receipts)} captures = {len(receipts) / elapsed:.1f} captures/s; "
        f"p50 {pct(latencies, 50):.1f} ms, p95 {pct(latencies, 95):.1f} ms"
    )
    print(f"  typed refusals: {typed or 'none'}; untyped errors: {len(untyped)}")
    for u in untyped[:5]:
        print(f"    {u}")
    print(f"  lost captures: {lost} of {len(receipts)}; integrity_check: {check}")
    return 0 if not untyped and not lost and check == "ok" else 1


def searchable(pages: int | None) -> int:
    from benchmarks.corpora import extract_tldr

    work = Path(tempfile.mkdtemp(prefix="gno-writes-tldr-"))
    env = make_env(work)
    folder = extract_tldr(work / "extract")
    if pages is not None:
        kept = sorted(folder.rglob("*.md"))[pages:]
        for extra in kept:
            extra.unlink()
    subprocess.run([*GNO, "init", str(folder), "--name", "tldr", "-q"], env=env, check=True)
    t0 = time.perf_counter()
    subprocess.run([*GNO, "update", "-q"], env=env, check=True)
    built = time.perf_counter() - t0
    os.environ.update({k: v for k, v in env.items() if k.startswith("GNO_")})
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.requests import SearchRequest
    from gno_core.contracts.write_requests import CaptureRequest

    with open_gno("default", env=env) as gno:
        docs = gno.status().total_documents
        gno.search(SearchRequest(query="warm up", limit=1))
        captures, searches, totals = [], [], []
        for _ in range(100):
            token = "tok" + uuid.uuid4().hex
            t0 = time.perf_counter()
            receipt = gno.capture(
                CaptureRequest(
                    collection="tldr", content=f"# Bench {token}\n\nScale note {token}\n"
                )
            )
            t1 = time.perf_counter()
            hits = gno.search(SearchRequest(query=token, limit=1)).results
            t2 = time.perf_counter()
            if [h.uri for h in hits] != [receipt.uri]:
                print(f"capture {receipt.uri} was not the hit for its token")
                return 1
            captures.append(t1 - t0)
            searches.append(t2 - t1)
            totals.append(t2 - t0)
    print(
        f"capture to searchable on {docs} documents (index built in {built:.1f} s): "
        f"p50 {pct(totals, 50):.1f} ms, p95 {pct(totals, 95):.1f} ms (capture p50 "
        f"{pct(captures, 50):.1f} ms, search p50 {pct(searches, 50):.1f} ms; n=100, target "
        "p50 <= 50 ms)"
    )
    return 0


def kill(rounds: int) -> int:
    from gno_adapters.files.lease import FileWriteLease

    work = Path(tempfile.mkdtemp(prefix="gno-writes-kill-"))
    env = make_env(work)
    notes = init_index(work, env, seed=2000)
    rng = random.Random(11)
    killed = 0
    for i in range(rounds):
        proc = subprocess.Popen(
            [*GNO, "capture", f"# Killed {i}\n\n" + "word " * 20000, "--path", f"k/killed-{i}.md"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.2, 0.9))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.wait(10)
    problems = []
    folder = notes / "k"
    for note in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        if not note.read_text(encoding="utf-8").endswith("word \n"):
            problems.append(f"partial note {note.name}")
    temps = (
        [p.name for p in folder.iterdir() if p.name.startswith(".gno-write-")]
        if folder.is_dir()
        else []
    )
    # An index run killed mid-way (sync of 2,000 notes, then embed when a model exists).
    for f in notes.glob("seed-*.md"):
        f.write_text(f.read_text(encoding="utf-8") + "\nchanged\n", encoding="utf-8")
    job = subprocess.Popen(
        [*GNO, "index"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(0.8)
    job_killed = job.poll() is None
    if job_killed:
        job.send_signal(signal.SIGKILL)
    job.wait(10)
    try:
        with FileWriteLease(work / "data").hold(0):
            pass
    except Exception as exc:  # the point of the check: report, do not crash
        problems.append(f"lease still held: {exc}")
    rerun = subprocess.run(
        [*GNO, "update", "--json"], env=env, capture_output=True, text=True, check=False
    )
    if rerun.returncode != 0:
        problems.append(f"rerun failed: {rerun.stdout[:200]}")
    after = subprocess.run(
        [*GNO, "capture", "after the kills", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if after.returncode != 0:
        problems.append(f"capture after the kills failed: {after.stdout[:200]}")
    check = integrity(work / "data" / "index-default.sqlite")
    status = json.loads(
        subprocess.run(
            [*GNO, "status", "--json"], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    on_disk = len(list(notes.rglob("*.md")))
    if status["totalDocuments"] != on_disk:
        problems.append(f"index has {status['totalDocuments']} documents, disk {on_disk} notes")
    print(
        f"kill: {killed} of {rounds} captures SIGKILLed mid-way, index run killed: {job_killed}; "
        f"complete notes {len(list(folder.glob('*.md'))) if folder.is_dir() else 0}, hidden temp "
        f"files left {len(temps)}; problems: {problems or 'none'}; "
        f"integrity_check: {check}; documents {status['totalDocuments']} = notes on disk {on_disk}"
    )
    return 0 if not problems and check == "ok" else 1


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("stress")
    s.add_argument("--seconds", type=float, default=60)
    c = sub.add_parser("searchable")
    c.add_argument("--pages", type=int, default=None, help="keep only this many tldr pages")
    k = sub.add_parser("kill")
    k.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    if args.what == "stress":
        return stress(args.seconds)
    if args.what == "searchable":
        return searchable(args.pages)
    return kill(args.rounds)


if __name__ == "__main__":
    sys.exit(main())
