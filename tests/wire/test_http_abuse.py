"""Hostile peers against a live gateway: slow headers, slow bodies, declared-but-absent bodies,
oversized chunked bodies, connection floods and session exhaustion. Each attack must leave
another peer served (``/api/health`` and a 2026-07-28 ``tools/list`` answer promptly while it
runs) and must itself get an HTTP status (or, for headers that never finish, a closed
connection) within a bounded time: never a hang, never a silent drop.

Every loopback address is the same machine, but the gateway's peer identity is the socket
address, so the attacker connects from ``127.0.0.2`` (Linux routes all of ``127.0.0.0/8`` to
the loopback interface) and the served peer from ``127.0.0.1``. Timeouts are shortened through
the settings so the whole file runs in seconds; the bounds asserted are generous because the
machine is shared.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.http_support import (
    ServerThread,
    initialize_body,
    modern_body,
    modern_headers,
    served,
    validate_contract,
)
from tests.wire.mcp_fakes import FakeGno

ATTACKER = "127.0.0.2"
#: How long a peer that is not under attack may wait for an answer on a noisy machine.
PROMPT = 5.0


def _loopback_alias_works() -> bool:
    probe = socket.socket()
    try:
        probe.bind((ATTACKER, 0))
    except OSError:
        return False
    finally:
        probe.close()
    return True


pytestmark = pytest.mark.skipif(
    not _loopback_alias_works(), reason="this system does not route 127.0.0.2 to loopback"
)


# -- raw sockets -----------------------------------------------------------------------------


def connect(server: ServerThread, source: str = ATTACKER, timeout: float = 10.0) -> socket.socket:
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=timeout, source_address=(source, 0)
    )
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def head(server: ServerThread, method: str, path: str, **headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class Answer:
    """What a raw socket got back: a status and body, or ``None`` when it was closed first."""

    def __init__(self, status: int | None, headers: dict[str, str], body: bytes, seconds: float):
        self.status = status
        self.headers = headers
        self.body = body
        self.seconds = seconds

    def json(self) -> Any:
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"Answer({self.status}, {self.body[:200]!r}, {self.seconds:.2f}s)"


def read_answer(sock: socket.socket, timeout: float) -> Answer:
    """Read one response; a timeout fails the test (the peer hung), a close gives ``None``."""
    start = time.monotonic()
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return Answer(None, {}, data, time.monotonic() - start)
            data += chunk
        raw_head, _, body = data.partition(b"\r\n\r\n")
        lines = raw_head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    except TimeoutError:
        pytest.fail(f"no answer within {timeout} s: the gateway hung on this connection")
    except ConnectionResetError:
        return Answer(None, {}, data, time.monotonic() - start)
    return Answer(status, headers, body, time.monotonic() - start)


def closed_within(sock: socket.socket, timeout: float) -> float:
    """Seconds until the server closed ``sock`` (reading and discarding any answer)."""
    start = time.monotonic()
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        pytest.fail(f"the connection was still open after {timeout} s")
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def assert_closed_refusal(answer: Answer, status: int, reason: str) -> None:
    assert answer.status == status, answer
    body = answer.json()
    validate_contract("mcp-http-error", body)
    assert body["error"]["data"] == {"status": status, "reason": reason}, body


@contextlib.contextmanager
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    try:
        yield opened
    finally:
        for sock in opened:
            sock.close()


def assert_others_served(server: ServerThread) -> None:
    """The peer not attacking gets its health and a modern ``tools/list`` promptly."""
    with httpx.Client(base_url=server.base, timeout=PROMPT) as http:
        start = time.monotonic()
        assert http.get("/api/health").status_code == 200
        listed = http.post(
            "/mcp", json=modern_body("tools/list"), headers=modern_headers("tools/list")
        )
        assert listed.status_code == 200, listed.text
        assert listed.json()["result"]["tools"]
        assert time.monotonic() - start < PROMPT


# -- slow bodies (item 6) --------------------------------------------------------------------


def test_slow_bodies_hold_no_request_slot_and_time_out() -> None:
    """80 connections that declare a 1000-byte body and stall after 10 bytes: at most the
    per-peer cap of them are in flight, the rest are refused at once (429 with Retry-After),
    another peer is still served, and the stalled ones get 408 at the body deadline."""
    with served(body_timeout_seconds=1.5) as server, sockets() as attack:
        cap = server.gateway.settings.max_connections_per_peer
        for _ in range(80):
            sock = connect(server)
            sock.sendall(
                head(server, "POST", "/mcp", Content_Type="application/json", Content_Length="1000")
                + b'{"jsonrpc"'
            )
            attack.append(sock)
        assert_others_served(server)
        answers = [read_answer(sock, 15) for sock in attack]
        refused = [a for a in answers if a.status == 429]
        timed_out = [a for a in answers if a.status == 408]
        assert len(refused) + len(timed_out) == 80, answers
        assert len(timed_out) <= cap
        for answer in refused:
            assert_closed_refusal(answer, 429, "too_many_connections")
            assert int(answer.headers["retry-after"]) >= 1
        for answer in timed_out:
            assert_closed_refusal(answer, 408, "body_timeout")
            assert answer.headers.get("connection") == "close"
        assert server.gateway.admission.active == 0


def test_a_slow_body_of_the_same_peer_does_not_hold_a_slot_either() -> None:
    """With one active slot and no queue, a stalled body on it does not refuse the next
    request: slots are taken once the body is in."""
    with (
        served(body_timeout_seconds=3, max_active_requests=1, max_queued_requests=0) as server,
        sockets() as attack,
    ):
        sock = connect(server)
        sock.sendall(head(server, "POST", "/api/search", Content_Length="100") + b"{")
        attack.append(sock)
        time.sleep(0.3)
        assert_others_served(server)
        assert_closed_refusal(read_answer(sock, 15), 408, "body_timeout")


# -- slow headers ----------------------------------------------------------------------------


def test_headers_that_never_finish_are_dropped_within_the_header_timeout() -> None:
    with served(header_timeout_seconds=1.0) as server, sockets() as attack:
        for _ in range(30):
            sock = connect(server)
            sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
            attack.append(sock)

        def drip() -> None:
            # a byte a quarter-second: slowloris keeps the headers incomplete but alive
            for _ in range(12):
                for sock in attack:
                    with contextlib.suppress(OSError):
                        sock.send(b"X")
                time.sleep(0.25)

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        assert_others_served(server)
        for sock in attack:
            assert closed_within(sock, 10) < 8
        dripper.join(10)


# -- declared bodies (item 7) ----------------------------------------------------------------


def test_a_declared_body_over_the_limit_is_413_at_once_without_waiting_for_it() -> None:
    with served(body_timeout_seconds=30) as server, sockets() as attack:
        sock = connect(server)
        attack.append(sock)
        sock.sendall(
            head(
                server,
                "POST",
                "/mcp",
                Content_Type="application/json",
                Content_Length="10000000000",
            )
        )
        answer = read_answer(sock, 5)
        assert_closed_refusal(answer, 413, "body_too_large")
        assert answer.headers.get("connection") == "close"
        assert closed_within(sock, 5) < 5
        assert_others_served(server)


def test_a_declared_body_that_never_arrives_is_408_at_the_body_deadline() -> None:
    with served(body_timeout_seconds=1.0) as server, sockets() as attack:
        sock = connect(server)
        attack.append(sock)
        sock.sendall(head(server, "POST", "/mcp", Content_Length="5000"))
        answer = read_answer(sock, 10)
        assert_closed_refusal(answer, 408, "body_timeout")
        assert 0.5 < answer.seconds < 8
        assert closed_within(sock, 5) < 5


def test_a_chunked_body_is_413_as_soon_as_it_passes_the_limit() -> None:
    with served(max_body_bytes=64 * 1024, body_timeout_seconds=30) as server, sockets() as attack:
        sock = connect(server)
        attack.append(sock)
        sock.sendall(head(server, "POST", "/mcp", Transfer_Encoding="chunked"))
        chunk = b"x" * 16 * 1024
        for _ in range(5):  # 80 KiB, past the 64 KiB limit; then the sender stalls
            sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        answer = read_answer(sock, 5)
        assert_closed_refusal(answer, 413, "body_too_large")
        assert closed_within(sock, 5) < 5
        assert_others_served(server)


# -- floods (item 8) -------------------------------------------------------------------------


def test_every_connection_of_a_flood_gets_a_status() -> None:
    """400 connections at once from eight peers, each posting a 512 KiB tool call while the
    slots are busy: every one reads a status line (200, or 429 with Retry-After), none is
    reset unanswered. A refusal written before the body was read, and the socket then closed
    with that body unread, is a reset that destroys the answer."""
    count, peers = 400, [f"127.0.1.{n}" for n in range(1, 9)]
    call = modern_body("tools/call", {"name": "gno_search", "arguments": {"query": "flood"}})
    call["pad"] = "x" * (512 * 1024)
    body = json.dumps(call).encode()
    lock = threading.Lock()
    start = threading.Barrier(count, timeout=30)

    with served() as server:
        lines = [
            "POST /mcp HTTP/1.1",
            f"Host: 127.0.0.1:{server.port}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            *(f"{k}: {v}" for k, v in modern_headers("tools/call", "gno_search").items()),
        ]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body

        def one(n: int, results: list[tuple[int | None, str]]) -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                start.wait()
            outcome: tuple[int | None, str]
            try:
                with socket.create_connection(
                    ("127.0.0.1", server.port), timeout=30, source_address=(peers[n % 8], 0)
                ) as sock:
                    sock.sendall(request)
                    answer = read_answer(sock, 30)
                    outcome = (answer.status, answer.headers.get("retry-after", ""))
            except OSError as exc:
                outcome = (None, repr(exc))
            with lock:
                results.append(outcome)

        # Whether a reset beats the answer is a race: two rounds make a regression show.
        for _ in range(2):
            results: list[tuple[int | None, str]] = []
            start.reset()
            threads = [
                threading.Thread(target=one, args=(n, results), daemon=True) for n in range(count)
            ]
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 60
            for thread in threads:
                thread.join(max(0.1, deadline - time.monotonic()))
            assert len(results) == count, f"{count - len(results)} connections still waiting"
            dropped = [r for r in results if r[0] is None]
            assert not dropped, (len(dropped), dropped[:5])
            for status, retry_after in results:
                assert status in (200, 429), status
                if status == 429:
                    assert int(retry_after) >= 1
            assert any(status == 200 for status, _ in results)
        assert_others_served(server)


def test_a_refused_request_still_sending_its_body_reads_the_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client posting a large body while every slot is busy, or past its rate, gets the 429:
    the gateway reads the body before answering, never closes under a client still sending
    (which turns the answer into a connection reset)."""
    monkeypatch.setenv("GNO_FAKE_SLOW_SECONDS", "3")
    slow = modern_body("tools/call", {"name": "gno_search", "arguments": {"query": "slow"}})
    big = modern_body("tools/list", {"pad": "x" * (12 * 1024 * 1024)})
    with (
        served(
            factory=FakeGno.factory(),
            max_active_requests=1,
            max_queued_requests=0,
            rate_limit_per_minute=4,
            max_body_bytes=16 * 1024 * 1024,
        ) as server,
        httpx.Client(base_url=server.base, timeout=20) as http,
    ):
        holder = threading.Thread(
            target=lambda: http.post(
                "/mcp", json=slow, headers=modern_headers("tools/call", "gno_search")
            )
        )
        holder.start()
        deadline = time.monotonic() + 10
        while server.gateway.admission.active < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        with httpx.Client(base_url=server.base, timeout=PROMPT) as other:
            # health and status take no slot: they never wait behind /mcp work
            assert other.get("/api/health").status_code == 200
            assert other.get("/api/resident/status").status_code == 200
        for expected in ("queue_full", "rate_limited", "rate_limited"):
            with httpx.Client(base_url=server.base, timeout=20) as other:
                response = other.post("/mcp", json=big, headers=modern_headers("tools/list"))
            assert response.status_code == 429, response.text
            assert response.json()["error"]["data"]["reason"] == expected
            assert int(response.headers["retry-after"]) >= 1
        holder.join(20)


# -- sessions --------------------------------------------------------------------------------


def test_session_exhaustion_is_429_and_sessionless_callers_are_still_served() -> None:
    with served(max_sessions=32) as server, sockets() as attack:
        payload = json.dumps(initialize_body()).encode()
        opened = 0
        for _ in range(40):
            sock = connect(server)
            attack.append(sock)
            sock.sendall(
                head(
                    server,
                    "POST",
                    "/mcp",
                    Content_Type="application/json",
                    Accept="application/json, text/event-stream",
                    Content_Length=str(len(payload)),
                )
                + payload
            )
            answer = read_answer(sock, 10)
            if answer.status == 200:
                opened += 1
            else:
                assert_closed_refusal(answer, 429, "too_many_sessions")
                assert int(answer.headers["retry-after"]) >= 1
        assert opened == 32
        assert_others_served(server)
