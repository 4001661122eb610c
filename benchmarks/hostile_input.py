"""The issue-8 attacks replayed against a real ``gno``: what each gets, how long it takes, and
the sync's peak memory.

    python benchmarks/hostile_input.py

A temporary folder holds a note with a YAML alias bomb (9 levels of 9 aliases) and a file whose
name is not UTF-8; ``gno update`` syncs it in a child process (time, peak RSS of the child).
Then one ``gno mcp`` receives the hostile frames (lone surrogates in arguments and in the id,
1,000-deep nesting, 25,000 refs) and must still answer ``gno_search``, and one ``gno serve`` on a
free loopback port is attacked with 80 stalled bodies from 127.0.0.2 (another peer's health and
``tools/list`` are timed meanwhile), a ``Content-Length`` of 10^10 with no body, and a flood of
1,000 connections (every one must get a status). Prints figures; asserts nothing. Targets (issue
8): the bomb sync finishes in seconds under 300 MB; every frame gets a typed error; the other
peer is served; 413 at once; no connection without a status.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

GNO = str(Path(sys.executable).parent / "gno")
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "v": 1}}
MODERN = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "b", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "---\n" + "\n".join([*lines, "tags: *i"]) + "\n---\n# Bomb\n"


def ingest(env: dict[str, str], notes: Path) -> None:
    (notes / "ok.md").write_text("# Fine\n\nA sourdough starter wants flour.\n")
    (notes / "bomb.md").write_text(alias_bomb())
    (notes / os.fsdecode(b"latin1_\xff.md")).write_bytes(b"# latin\n")
    add = [GNO, "collection", "add", str(notes), "--name", "notes"]
    subprocess.run(add, env=env, check=True, capture_output=True)
    started = time.monotonic()
    done = subprocess.run(
        [GNO, "update", "--json"], env=env, capture_output=True, text=True, check=False
    )
    took = time.monotonic() - started
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    (one,) = json.loads(done.stdout)["collections"]
    codes = sorted({f["code"] for f in one["failures"]})
    print(
        f"sync with the alias bomb: rc {done.returncode}, {took:.2f} s, peak RSS {peak_mb:.0f} MB"
    )
    print(f"  added {one['added']}, failed {one['failed']} {codes}  (target: seconds, < 300 MB)")


def stdio(env: dict[str, str]) -> None:
    proc = subprocess.Popen(
        [GNO, "mcp"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(frame: bytes) -> tuple[Any, float]:
        started = time.monotonic()
        proc.stdin.write(frame + b"\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        return json.loads(proc.stdout.readline()), time.monotonic() - started  # type: ignore[union-attr]

    ask(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}).encode())
    call = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gno_search",'
    refs = {"refs": ["gno://notes/ok.md"] * 25_000}
    frames = {
        "surrogate in arguments": call + b'"arguments":{"query":"note \\ud800"}}}',
        "surrogate in the id": b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        "1,000-deep nesting": b"[" * 1000 + b"]" * 1000,
        "25,000 refs": json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "gno_multi_get", "arguments": refs},
            }
        ).encode(),
    }
    for name, frame in frames.items():
        answer, took = ask(frame)
        error = answer.get("error") or answer["result"]["content"][0]
        print(f"stdio {name}: {json.dumps(error)[:110]} ({took * 1000:.0f} ms)")
    search = {"name": "gno_search", "arguments": {"query": "sourdough"}}
    answer, took = ask(
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": search}).encode()
    )
    uris = [r["uri"] for r in answer["result"]["structuredContent"]["results"]]
    proc.stdin.close()
    print(f"stdio gno_search afterwards: {uris} ({took * 1000:.0f} ms); exit {proc.wait(10)}")


def raw(port: int, data: bytes, source: str = "127.0.0.1", timeout: float = 15.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout, (source, 0)) as conn:
        conn.sendall(data)
        out = b""
        try:
            while chunk := conn.recv(65536):
                out += chunk
        except TimeoutError:
            pass
        return out


def status_line(answer: bytes) -> str:
    return answer.split(b"\r\n", 1)[0].decode(errors="replace") or "no response"


def http(env: dict[str, str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [GNO, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    host = b"Host: 127.0.0.1:%d\r\n" % port
    health = b"GET /api/health HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n"
    try:
        for _ in range(150):
            try:
                raw(port, health)
                break
            except OSError:
                time.sleep(0.2)
        post = b"POST /mcp HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
        stalled = []
        for _ in range(80):
            conn = socket.create_connection(("127.0.0.1", port), 10, ("127.0.0.2", 0))
            conn.sendall(post + b'Content-Length: 1000\r\n\r\n{"js')
            stalled.append(conn)
        time.sleep(1)
        started = time.monotonic()
        answer = raw(port, health)
        print(
            f"http health while 80 bodies stall: {status_line(answer)} in {(time.monotonic() - started) * 1000:.0f} ms"
        )
        body = json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": MODERN}}
        ).encode()
        listing = (
            post
            + b"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
            + b"Mcp-Method: tools/list\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
            % len(body)
            + body
        )
        started = time.monotonic()
        answer = raw(port, listing)
        print(
            f"http tools/list meanwhile: {status_line(answer)} in {(time.monotonic() - started) * 1000:.0f} ms"
        )
        for conn in stalled:
            conn.close()
        started = time.monotonic()
        answer = raw(port, post + b"Content-Length: 10000000000\r\n\r\n")
        print(
            f"http Content-Length 10^10, no body: {status_line(answer)} in {(time.monotonic() - started) * 1000:.0f} ms"
        )
        statuses: list[str] = []

        def one() -> None:
            try:
                statuses.append(status_line(raw(port, health, timeout=30)))
            except OSError as exc:
                statuses.append(type(exc).__name__)

        threads = [threading.Thread(target=one) for _ in range(1000)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(
            f"http flood of 1,000 connections in {time.monotonic() - started:.1f} s: {dict(Counter(statuses))}"
        )
    finally:
        server.terminate()
        server.wait(15)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = {
            **os.environ,
            "GNO_CONFIG_DIR": str(home / "config"),
            "GNO_DATA_DIR": str(home / "data"),
            "GNO_CACHE_DIR": str(home / "cache"),
        }
        notes = home / "notes"
        notes.mkdir()
        ingest(env, notes)
        stdio(env)
        http(env)


if __name__ == "__main__":
    main()
