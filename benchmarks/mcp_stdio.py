"""MCP over stdio: cold start to the first answer, and warm ``gno_search`` round trips.

    python benchmarks/mcp_stdio.py [--runs 15] [--queries 300] [--skip-search]

Cold start: time from spawning ``gno mcp`` to the first byte of the ``initialize`` (legacy) and
``server/discover`` (2026-07-28) answers, each sent the instant the process exists. The bare
``serve_stdio`` entry (no CLI) is measured too, to separate the transport from the CLI's imports.
Warm search: SciFact (5,183 docs) synced into a temporary index, then the judged test queries
as ``gno_search`` calls (limit 10) over one connection after a short warm-up. Prints figures;
asserts nothing (targets: start <= 300 ms, warm p50 <= 10 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import scifact_queries, write_scifact

BIN = Path(sys.executable).parent
GNO = [str(BIN / "gno")] if (BIN / "gno").exists() else [sys.executable, "-m", "gno_cli.main"]
BARE = [
    sys.executable,
    "-c",
    "from gno_adapters.mcp.stdio import serve_stdio; "
    "serve_stdio(lambda: __import__('gno_adapters.bootstrap').bootstrap.open_gno())",
]
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
}
OPENINGS = {
    "initialize": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
    "server/discover": {"_meta": MODERN_META},
}


def line(rid: int, method: str, params: dict[str, Any]) -> bytes:
    return (
        json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode()
        + b"\n"
    )


def cold_start(command: list[str], method: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line(1, method, OPENINGS[method]))
    proc.stdin.flush()
    first = proc.stdout.readline()
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    proc.wait()
    proc.stdout.close()
    assert b'"result"' in first, first
    return elapsed * 1000


def report(label: str, samples_ms: list[float]) -> None:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{label:<44} p50 {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   "
        f"min {ordered[0]:7.1f} ms   n={len(ordered)}"
    )


def warm_search(env: dict[str, str], queries: list[str]) -> list[float]:
    proc = subprocess.Popen([*GNO, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    rid = 0

    def call(method: str, params: dict[str, Any]) -> dict[str, Any]:
        nonlocal rid
        rid += 1
        proc.stdin.write(line(rid, method, params))  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        answer: dict[str, Any] = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        assert answer.get("id") == rid and "result" in answer, answer
        return answer

    call("initialize", OPENINGS["initialize"])
    for query in queries[:20]:
        call("tools/call", {"name": "gno_search", "arguments": {"query": query, "limit": 10}})
    samples = []
    for query in queries:
        started = time.perf_counter()
        result = call(
            "tools/call", {"name": "gno_search", "arguments": {"query": query, "limit": 10}}
        )
        samples.append((time.perf_counter() - started) * 1000)
        assert not result["result"].get("isError"), result
    proc.stdin.close()
    proc.wait()
    proc.stdout.close()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--skip-search", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gno-mcp-bench-") as tmp:
        home = Path(tmp)
        env = {
            **os.environ,
            "GNO_CONFIG_DIR": str(home / "config"),
            "GNO_DATA_DIR": str(home / "data"),
            "GNO_CACHE_DIR": str(home / "cache"),
        }
        env.pop("GNO_MCP_ENABLE_WRITE", None)
        print("cold start to first answer (process spawn -> first response byte)")
        for label, command in (("gno mcp", [*GNO, "mcp"]), ("serve_stdio (no CLI)", BARE)):
            for method in OPENINGS:
                cold_start(command, method, env)  # one unmeasured run warms the page cache
                samples = [cold_start(command, method, env) for _ in range(args.runs)]
                report(f"  {label}: {method}", samples)
        if args.skip_search:
            return 0
        corpus = home / "scifact"
        count = write_scifact(corpus)
        started = time.perf_counter()
        for argv in (["collection", "add", str(corpus), "--name", "scifact"], ["update"]):
            subprocess.run([*GNO, *argv], env=env, check=True, capture_output=True)
        print(f"SciFact: {count} documents synced in {time.perf_counter() - started:.1f} s")
        queries = list(scifact_queries().values())[: args.queries]
        report("warm gno_search round trip (limit 10)", warm_search(env, queries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
