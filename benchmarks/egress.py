"""What the egress policy checks cost a search answered over ``/mcp`` (issue 26).

    python benchmarks/egress.py [--rounds 20] [--per-round 50]

SciFact (5,183 docs) is synced into a temporary index and served by one in-process gateway
(Hypercorn on a free 127.0.0.1 port, a thread). One keep-alive client sends 2026-07-28
``tools/call gno_search`` (limit 10, the judged test queries in turn) from loopback, in rounds
that alternate checks on and checks off (ABAB, the same queries in both arms of a round pair),
so that both arms see the same machine load. "Off" skips the gateway's pre-dispatch egress
check (``McpTransport._egress`` answers no ticket), which is all a loopback caller pays: its
zone decides it (``LOCAL_DESTINATION``) before any policy is read, and nothing is recorded.
Target: on within 5% of off (median latency).

Then, for scale, the cost of the same check for a LAN caller of a ``lan`` collection (its
policies and epoch read from the index, the answer held to them, its receipt written): the
gate's ``admit`` + ``release`` around a real search answer, timed directly.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import scifact_queries, write_scifact
from benchmarks.http_load import Connection, request_bytes
from benchmarks.metrics import percentile

GNO = [sys.executable, "-m", "gno_cli.main"]
CHECKS = {"on": True}


@contextmanager
def serving(env: dict[str, str]) -> Iterator[int]:
    """A gateway over the index of ``env`` on a free loopback port, in a thread."""
    from gno_adapters.bootstrap.local import facade_factory
    from gno_adapters.http.runner import open_gateway, serve_gateway
    from gno_adapters.http.settings import GatewaySettings
    from gno_adapters.http.transport import McpTransport

    checked = McpTransport._egress

    async def toggled(self: McpTransport, message: Any, caller: Any) -> Any:
        return await checked(self, message, caller) if CHECKS["on"] else None

    McpTransport._egress = toggled  # type: ignore[method-assign]
    settings = GatewaySettings(
        port=0, workers=2, rate_limit_per_minute=0, max_connections_per_peer=0
    )
    gateway, sock = open_gateway(settings, facade_factory(env=env))
    ready = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        async def main() -> None:
            box["loop"] = asyncio.get_running_loop()
            box["stop"] = asyncio.Event()
            await serve_gateway(gateway, sock, box["stop"], ready=lambda _: ready.set())

        asyncio.run(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(60), "the gateway did not start"
    try:
        yield gateway.port
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(30)
        McpTransport._egress = checked  # type: ignore[method-assign]


async def arm(port: int, queries: list[str]) -> list[float]:
    conn = Connection(port)
    latencies = []
    try:
        for rid, query in enumerate(queries):
            started = time.perf_counter()
            status, _, body = await conn.call(request_bytes(port, rid, query))
            latencies.append(time.perf_counter() - started)
            assert status == 200 and b'"isError":true' not in body, body[:300]
    finally:
        conn.close()
    return latencies


def lan_check_cost(env: dict[str, str], query: str, repeats: int) -> tuple[float, float]:
    """Median µs of the gate's admit + release for a LAN caller of a ``lan`` collection, and
    of a loopback caller, around one real search answer."""
    from gno_adapters.bootstrap.local import open_gno
    from gno_adapters.http.egress import EgressGate, FacadeBook
    from gno_adapters.mcp.tools.search import render_results
    from gno_core.contracts.egress_requests import RelaxationConfirmationInput
    from gno_core.contracts.requests import SearchRequest

    with open_gno(env=env) as gno:
        state = gno.egress_policy_get("scifact")
        gno.egress_policy_set(
            "scifact",
            "lan",
            RelaxationConfirmationInput(
                collection="scifact",
                current_policy=state.effective_policy,
                current_revision=state.revision,
                target_policy="lan",
                acknowledged=True,
            ),
        )
        results = gno.search(SearchRequest(query=query, limit=10))
        answer = {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "content": [{"type": "text", "text": render_results(results)}],
                "structuredContent": results.wire(),
            },
        }
        message = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "gno_search", "arguments": {"query": query, "limit": 10}},
        }
        gate, book = EgressGate(), FacadeBook(gno)

        def once(peer: str) -> float:
            copy = json.loads(json.dumps(answer))  # release may trim it: a fresh one each time
            started = time.perf_counter()
            ticket = gate.admit(
                message, peer=peer, proxied=False, authenticated=True, book=lambda: book
            )
            assert ticket is not None
            ticket.release(copy, book)
            return time.perf_counter() - started

        def median_us(peer: str) -> float:
            for _ in range(5):
                once(peer)
            return statistics.median(once(peer) for _ in range(repeats)) * 1e6

        return median_us("192.168.1.20"), median_us("127.0.0.1")


def summary(label: str, latencies: list[float]) -> str:
    return (
        f"{label:<12} p50 {statistics.median(latencies) * 1000:6.2f} ms   "
        f"mean {statistics.fmean(latencies) * 1000:6.2f} ms   "
        f"p95 {percentile(latencies, 95) * 1000:6.2f} ms   n={len(latencies)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="round pairs (on, off)")
    parser.add_argument("--per-round", type=int, default=50, help="requests per round")
    args = parser.parse_args()
    queries = list(scifact_queries().values())
    with tempfile.TemporaryDirectory(prefix="gno-egress-bench-") as tmp:
        home = Path(tmp)
        env = {
            **os.environ,
            "GNO_CONFIG_DIR": str(home / "config"),
            "GNO_DATA_DIR": str(home / "data"),
            "GNO_CACHE_DIR": str(home / "cache"),
        }
        corpus = home / "scifact"
        count = write_scifact(corpus)
        for argv in (["collection", "add", str(corpus), "--name", "scifact"], ["update"]):
            subprocess.run([*GNO, *argv], env=env, check=True, capture_output=True)
        print(f"SciFact: {count} documents; {os.cpu_count()} cores; loopback client, gno_search")
        timings: dict[str, list[float]] = {"on": [], "off": []}
        with serving(env) as port:
            asyncio.run(arm(port, queries[:40]))  # warm both paths
            for pair in range(args.rounds):
                start = (pair * args.per_round) % len(queries)
                batch = (queries * 2)[start : start + args.per_round]
                order: tuple[str, str] = ("on", "off") if pair % 2 == 0 else ("off", "on")
                for name in order:
                    CHECKS["on"] = name == "on"
                    timings[name] += asyncio.run(arm(port, batch))
        for name in ("on", "off"):
            print(summary(f"checks {name}", timings[name]))

        def ratio(f: Callable[[list[float]], float]) -> float:
            return f(timings["on"]) / f(timings["off"])

        print(
            f"on/off: p50 {ratio(statistics.median):.3f}, mean {ratio(statistics.fmean):.3f} "
            "(target <= 1.05)"
        )
        lan, loop = lan_check_cost(env, queries[0], 300)
        print(
            f"the gate alone around one answer: LAN caller of a lan collection {lan:.0f} µs "
            f"(policies, epoch twice, receipt written); loopback caller {loop:.1f} µs"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
