"""The resident HTTP gateway under load: ``gno_search`` over ``/mcp`` from concurrent clients.

    python benchmarks/http_load.py [--clients 32] [--seconds 10] [--queries 300]

SciFact (5,183 docs) is synced into a temporary index and served by ``gno serve --port 0``.
Each client is one keep-alive HTTP/1.1 connection sending 2026-07-28 ``tools/call gno_search``
requests (limit 10, the judged test queries in turn) back to back; the load generator is a
small asyncio client in this process, so that the measurement is the server's cost rather than
an HTTP library's (httpx spends about 3 ms of CPU per request; this client about 0.2 ms).

1. warm latency: one client, one request at a time (target p50 <= 15 ms);
2. below the limits: ``--clients`` clients for ``--seconds`` with the per-peer rate and
   in-flight caps lifted (every request comes from one loopback peer): requests/s, p50/p95,
   errors (target >= 200 requests/s with 32 clients on 2 cores, zero errors);
3. beyond the limits, default config: the same clients against 120 requests/min per peer, then
   a burst of 4x the active + queued slots at once: how many 429s, and why.
RSS of the server is read before and after each phase, and its CPU time per request under load
(the other processes on the machine compete for the same cores). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import scifact_queries, write_scifact
from benchmarks.metrics import percentile

GNO = [sys.executable, "-m", "gno_cli.main"]
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "http-load", "version": "1"},
}


def request_bytes(port: int, rid: int, query: str) -> bytes:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {
                "name": "gno_search",
                "arguments": {"query": query, "limit": 10},
                "_meta": META,
            },
        }
    ).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: gno_search\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class Connection:
    """One keep-alive HTTP/1.1 connection; ``call`` returns (status, reason, body)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, payload: bytes) -> tuple[int, str | None, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(payload)
        status = int((await self.reader.readline()).split()[1])
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "connection" and "close" in value.lower():
                close = True
        body = await self.reader.readexactly(length)
        if close:
            self.writer.close()
            self.writer = None
        reason = None
        if status != 200:
            reason = json.loads(body).get("error", {}).get("data", {}).get("reason")
        return status, reason, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def run_clients(
    port: int, queries: list[str], clients: int, seconds: float | None, per_client: int | None
) -> tuple[list[float], collections.Counter[str], float]:
    latencies: list[float] = []
    outcomes: collections.Counter[str] = collections.Counter()
    deadline = time.perf_counter() + seconds if seconds else None

    async def client(index: int) -> None:
        conn = Connection(port)
        sent = 0
        try:
            while (deadline is None or time.perf_counter() < deadline) and (
                per_client is None or sent < per_client
            ):
                query = queries[(index * 7 + sent) % len(queries)]
                started = time.perf_counter()
                status, reason, body = await conn.call(request_bytes(port, sent, query))
                latencies.append(time.perf_counter() - started)
                if status == 200 and b'"isError":true' not in body:
                    outcomes["200 ok"] += 1
                else:
                    outcomes[f"{status} {reason or 'tool error'}"] += 1
                sent += 1
        finally:
            conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return latencies, outcomes, time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    def __init__(self, env: dict[str, str], config: Path, gateway: str) -> None:
        config.write_text(
            config.read_text(encoding="utf-8").split("gateway:")[0] + gateway, encoding="utf-8"
        )
        pid_file = Path(env["GNO_DATA_DIR"]) / "serve.pid"
        self.proc = subprocess.Popen(
            [*GNO, "--quiet", "serve", "--port", "0"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self.port = int(json.loads(pid_file.read_text())["port"])
                break
            except (OSError, ValueError, KeyError):
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise SystemExit("gno serve did not start") from None
                time.sleep(0.05)

    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(30)


def report(
    label: str, latencies: list[float], outcomes: collections.Counter[str], wall: float
) -> None:
    count = sum(outcomes.values())
    print(
        f"{label:<34} {count / wall:7.0f} req/s   p50 {statistics.median(latencies) * 1000:6.1f} ms"
        f"   p95 {percentile(latencies, 95) * 1000:6.1f} ms   n={count}   "
        + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
    )


#: One load generator is one socket peer: the per-peer rate and in-flight caps are lifted so
#: that the figures measure the server, not those caps.
RAISED = "gateway:\n  rateLimitPerMinute: 100000000\n  maxConnectionsPerPeer: 0\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    queries = list(scifact_queries().values())[: args.queries]
    with tempfile.TemporaryDirectory(prefix="gno-http-load-") as tmp:
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
        config = home / "config" / "index.yml"
        print(f"SciFact: {count} documents; {os.cpu_count()} cores; {args.clients} clients")

        server = Server(env, config, RAISED)
        try:
            rss_start = server.rss()
            lat, out, wall = asyncio.run(run_clients(server.port, queries, 1, None, 20))
            lat, out, wall = asyncio.run(run_clients(server.port, queries, 1, None, len(queries)))
            report("warm, 1 client, sequential", lat, out, wall)
            rss_warm = server.rss()
            cpu = server.cpu()
            lat, out, wall = asyncio.run(
                run_clients(server.port, queries, args.clients, args.seconds, None)
            )
            report(f"{args.clients} clients, limits raised", lat, out, wall)
            spent = server.cpu() - cpu
            print(
                f"server CPU: {spent / sum(out.values()) * 1000:.2f} ms per request, "
                f"{spent / wall:.2f} cores busy on average"
            )
            print(
                f"server RSS: {rss_start:.0f} MB started, {rss_warm:.0f} MB warm, "
                f"{server.rss():.0f} MB after the load"
            )
        finally:
            server.stop()

        server = Server(env, config, "gateway: {}\n")
        try:
            lat, out, wall = asyncio.run(
                run_clients(server.port, queries, args.clients, min(args.seconds, 5.0), None)
            )
            report(f"{args.clients} clients, default 120/min", lat, out, wall)
        finally:
            server.stop()
        server = Server(env, config, RAISED)
        try:
            burst = 4 * (64 + 16)
            lat, out, wall = asyncio.run(run_clients(server.port, queries, burst, None, 1))
            report(f"burst of {burst} at once (64+16 slots)", lat, out, wall)
            print(f"server RSS after the burst: {server.rss():.0f} MB")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
