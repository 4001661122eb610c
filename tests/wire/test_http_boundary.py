"""The gateway's boundary, one test per rule: socket peer only, exact Host and Origin
allowlists, the same-host proxy rule, bearer tokens (generation, permissions, rotation,
revocation), the write gate, body size, rate, admission, sessions, idle expiry and shutdown.
Every refusal must be the closed ``mcp-http-error@1.0`` body."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from gno_adapters.http.admission import RateLimiter
from gno_adapters.http.refusals import Refusal
from gno_adapters.http.sessions import SessionStore
from gno_adapters.http.settings import GatewaySettings, resolve_settings
from gno_adapters.http.token import BearerToken
from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall
from gno_adapters.mcp.tools.search import SEARCH
from gno_core.config import GatewayConfig
from gno_core.errors import ValidationError
from tests.http_support import (
    ACCEPT,
    assert_refusal,
    client_for,
    in_process,
    initialize_body,
    modern_body,
    modern_headers,
    served,
)
from tests.wire.mcp_fakes import FakeGno

T = TypeVar("T")
PORT = 8765
LOCAL = f"127.0.0.1:{PORT}"


def run(coro: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(coro())  # type: ignore[arg-type]


async def legacy_session(client: httpx.AsyncClient, **headers: str) -> str:
    response = await client.post("/mcp", json=initialize_body(), headers=headers)
    assert response.status_code == 200, response.text
    return response.headers["mcp-session-id"]


async def tools_list(client: httpx.AsyncClient, sid: str, **headers: str) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    return await client.post("/mcp", json=body, headers={"Mcp-Session-Id": sid, **headers})


# -- settings and bind rules -----------------------------------------------------------------


def test_defaults_are_the_spec_limits() -> None:
    for limits in (GatewaySettings(), GatewayConfig()):
        assert limits.max_body_bytes == 1024 * 1024
        assert limits.rate_limit_per_minute == 120
        assert limits.max_active_requests == 64
        assert limits.max_queued_requests == 16
        assert limits.max_sessions == 32
        assert limits.session_idle_seconds == 300
        assert limits.host == "127.0.0.1" and limits.enable_write is False


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "192.168.1.20", "gno.example.com"])
def test_serve_refuses_any_non_loopback_bind(host: str) -> None:
    with pytest.raises(ValidationError, match="loopback only"):
        resolve_settings("serve", GatewayConfig(), host=host)


def test_daemon_non_loopback_bind_needs_token_host_and_origin(tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as caught:
        resolve_settings("daemon", GatewayConfig(), host="0.0.0.0")
    for needed in ("bearer token file", "Host", "Origin"):
        assert needed in caught.value.message
    with pytest.raises(ValidationError, match="Origin"):
        resolve_settings(
            "daemon",
            GatewayConfig(),
            host="0.0.0.0",
            token_file=str(tmp_path / "t"),
            allowed_hosts=["gno.example.com"],
        )
    settings = resolve_settings(
        "daemon",
        GatewayConfig(),
        host="0.0.0.0",
        token_file=str(tmp_path / "t"),
        allowed_hosts=["GNO.example.com"],
        allowed_origins=["https://gno.example.com"],
    )
    assert settings.allowed_hosts == ("gno.example.com",)
    assert settings.wildcard and not settings.loopback


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]"])
def test_loopback_binds_need_no_controls(host: str) -> None:
    for mode in ("serve", "daemon"):
        assert resolve_settings(mode, GatewayConfig(), host=host).loopback  # type: ignore[arg-type]


@pytest.mark.parametrize("origin", ["gno.example.com", "ftp://x", "https://x/path", "https://x?q"])
def test_allowed_origins_must_be_exact_http_origins(origin: str) -> None:
    with pytest.raises(ValidationError, match="Origin"):
        resolve_settings("serve", GatewayConfig(), allowed_origins=[origin])


def test_config_keys_apply_and_flags_override_them() -> None:
    config = GatewayConfig.model_validate(
        {"port": 4000, "toolProfile": "core", "enableWrite": True, "rateLimitPerMinute": 5}
    )
    settings = resolve_settings("serve", config, port=4100)
    assert (settings.port, settings.tool_profile, settings.enable_write) == (4100, "core", True)
    assert settings.rate_limit_per_minute == 5
    with pytest.raises(ValidationError, match="profile"):
        resolve_settings("serve", config, tool_profile="everything")


# -- Host, Origin, peer ----------------------------------------------------------------------


def test_host_allowlist_is_exact_with_loopback_defaults() -> None:
    async def body() -> None:
        with in_process(allowed_hosts=("gno.internal:8080",)) as (_, client):
            for host in (LOCAL, f"localhost:{PORT}", f"[::1]:{PORT}", "gno.internal:8080"):
                response = await client.get("/api/health", headers={"Host": host})
                assert response.status_code == 200, host
            for host in ("evil.example.com", "127.0.0.1", f"127.0.0.1:{PORT + 1}", "localhost"):
                response = await client.get("/api/health", headers={"Host": host})
                assert_refusal(response, 403, "host_not_allowed")

    run(body)


def test_origin_is_checked_only_when_present_and_then_exactly() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            assert (await client.get("/api/health")).status_code == 200
            for origin in (f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}"):
                response = await client.get("/api/health", headers={"Origin": origin})
                assert response.status_code == 200
            for origin in ("http://evil.example.com", "null", f"https://127.0.0.1:{PORT}"):
                response = await client.post(
                    "/mcp", json=initialize_body(), headers={"Origin": origin}
                )
                assert_refusal(response, 403, "origin_not_allowed")

    run(body)


def test_the_peer_is_the_socket_never_a_forwarded_header() -> None:
    async def body() -> None:
        with in_process(peer="10.1.2.3") as (_, client):
            assert_refusal(await client.get("/api/health"), 403, "peer_not_allowed")
            spoofed = {"X-Forwarded-For": "127.0.0.1", "Forwarded": "for=127.0.0.1"}
            response = await client.get("/api/health", headers=spoofed)
            assert_refusal(response, 403, "proxied_request_unauthenticated")

    run(body)


@pytest.mark.parametrize(
    "header",
    [
        ("Forwarded", "for=203.0.113.9;proto=https"),
        ("X-Forwarded-For", "203.0.113.9"),
        ("X-Forwarded-Host", "gno.example.com"),
        ("X-Real-IP", "203.0.113.9"),
        ("Via", "1.1 nginx"),
    ],
)
def test_a_proxied_request_on_loopback_is_not_a_loopback_caller(header: tuple[str, str]) -> None:
    async def body() -> None:
        with in_process() as (_, client):
            response = await client.get("/api/health", headers=dict([header]))
            assert_refusal(response, 403, "proxied_request_unauthenticated")

    run(body)


# -- bearer tokens -----------------------------------------------------------------------------


def token_file(tmp_path: Path, value: str = "a" * 40) -> Path:
    path = tmp_path / "token"
    path.write_text(value + "\n")
    path.chmod(0o600)
    return path


def test_a_missing_configured_token_file_is_generated_owner_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "secrets" / "gno.token"
    token = BearerToken.open(path)
    assert token.usable
    assert path.stat().st_mode & 0o777 == 0o600
    value = path.read_text().strip()
    assert len(value) == 64 and int(value, 16) >= 0  # 256 random bits, hex
    assert value not in caplog.text
    assert token.identity().startswith("bearer:") and value not in token.identity()


@pytest.mark.parametrize(
    ("mode", "content", "problem"),
    [
        (0o644, "a" * 40, "permissions"),
        (0o600, "short", "32-1024"),
        (0o600, "a" * 20 + " " + "b" * 20, "visible ASCII"),
    ],
)
def test_an_unusable_token_file_fails_startup(
    tmp_path: Path, mode: int, content: str, problem: str
) -> None:
    path = token_file(tmp_path, content)
    path.chmod(mode)
    with pytest.raises(ValidationError, match=problem) as caught:
        BearerToken.open(path)
    assert content not in caught.value.message


def test_bearer_is_required_of_every_caller_once_configured(tmp_path: Path) -> None:
    path = token_file(tmp_path)
    good = {"Authorization": "Bearer " + "a" * 40}

    async def body() -> None:
        for peer in ("127.0.0.1", "10.1.2.3"):
            with in_process(peer=peer, token_file=path) as (_, client):
                response = await client.get("/api/health")
                assert_refusal(response, 401, "bearer_required")
                assert response.headers["www-authenticate"].startswith("Bearer")
                for bad in ("Bearer " + "b" * 40, "Basic " + "a" * 40, "Bearer"):
                    response = await client.get("/api/health", headers={"Authorization": bad})
                    assert_refusal(response, 401, "bearer_invalid")
                assert (await client.get("/api/health", headers=good)).status_code == 200

    run(body)


def test_a_proxied_request_needs_the_bearer_and_a_configured_host(tmp_path: Path) -> None:
    path = token_file(tmp_path)
    proxied = {"X-Forwarded-For": "203.0.113.9", "Host": "gno.example.com"}
    bearer = {"Authorization": "Bearer " + "a" * 40}

    async def body() -> None:
        with in_process(
            token_file=path,
            allowed_hosts=("gno.example.com",),
            allowed_origins=("https://gno.example.com",),
        ) as (_, client):
            response = await client.get("/api/health", headers=proxied)
            assert_refusal(response, 401, "bearer_required")
            ok = await client.get("/api/health", headers={**proxied, **bearer})
            assert ok.status_code == 200
            origin = {**proxied, **bearer, "Origin": "https://gno.example.com"}
            assert (await client.get("/api/health", headers=origin)).status_code == 200
            # the loopback defaults are for local callers only, never for proxied ones
            local_host = {**proxied, **bearer, "Host": LOCAL}
            response = await client.get("/api/health", headers=local_host)
            assert_refusal(response, 403, "host_not_allowed")
            local_origin = {**proxied, **bearer, "Origin": f"http://{LOCAL}"}
            response = await client.get("/api/health", headers=local_origin)
            assert_refusal(response, 403, "origin_not_allowed")
            direct = await client.get("/api/health", headers=bearer)
            assert direct.status_code == 200

    run(body)


def test_rotation_revokes_sessions_and_the_old_token(tmp_path: Path) -> None:
    path = token_file(tmp_path)
    old = {"Authorization": "Bearer " + "a" * 40}
    new = {"Authorization": "Bearer " + "c" * 48}

    async def body() -> None:
        with in_process(token_file=path) as (gateway, client):
            sid = await legacy_session(client, **old)
            assert (await tools_list(client, sid, **old)).status_code == 200
            replacement = tmp_path / "token.new"
            replacement.write_text("c" * 48)
            replacement.chmod(0o600)
            os.replace(replacement, path)
            assert_refusal(await tools_list(client, sid, **old), 401, "bearer_invalid")
            assert (await tools_list(client, sid, **new)).status_code == 404
            assert len(gateway.sessions) == 0
            fresh = await legacy_session(client, **new)
            assert (await tools_list(client, fresh, **new)).status_code == 200

    run(body)


@pytest.mark.parametrize("damage", ["delete", "relax", "garble"])
def test_an_unusable_token_file_revokes_and_refuses_until_repaired(
    tmp_path: Path, damage: str
) -> None:
    path = token_file(tmp_path)
    auth = {"Authorization": "Bearer " + "a" * 40}

    async def body() -> None:
        with in_process(token_file=path) as (gateway, client):
            sid = await legacy_session(client, **auth)
            if damage == "delete":
                path.unlink()
            elif damage == "relax":
                path.chmod(0o640)
            else:
                path.write_text("not a token")
            response = await client.get("/api/health", headers=auth)
            assert_refusal(response, 503, "credentials_unavailable")
            assert len(gateway.sessions) == 0
            token_file(tmp_path)
            assert (await client.get("/api/health", headers=auth)).status_code == 200
            assert (await tools_list(client, sid, **auth)).status_code == 404

    run(body)


def test_sessions_are_bound_to_the_identity_that_opened_them() -> None:
    store = SessionStore(max_sessions=4, idle_seconds=60)
    session = store.open(identity="bearer:aaaa", label="http:1", epoch=1)
    assert store.find(session.id, identity="bearer:bbbb", epoch=1) is None
    assert store.find(session.id, identity="bearer:aaaa", epoch=1) is session
    assert store.find(session.id, identity="bearer:aaaa", epoch=2) is None
    assert store.find(session.id, identity="bearer:aaaa", epoch=1) is None  # ended for good


def whoami(call: ToolCall) -> JSONObject:
    return {"content": [{"type": "text", "text": str(call.ctx.request_identity)}]}


def test_modern_callers_get_an_opaque_per_identity_label(tmp_path: Path) -> None:
    tools = (ToolDef("gno_peek", {"type": "object"}, None, whoami),)
    body = modern_body("tools/call", {"name": "gno_peek", "arguments": {}})
    headers = modern_headers("tools/call", "gno_peek")

    async def label(client: httpx.AsyncClient, **extra: str) -> str:
        response = await client.post("/mcp", json=body, headers={**headers, **extra})
        assert response.status_code == 200, response.text
        text: str = response.json()["result"]["content"][0]["text"]
        return text

    async def scenario() -> None:
        with in_process(tools=tools) as (_, client):
            first = await label(client)
            assert first.startswith("http:") and len(first) == 5 + 16
            assert await label(client) == first  # every unauthenticated loopback caller
        path = token_file(tmp_path)
        with in_process(tools=tools, token_file=path) as (_, client):
            assert await label(client, Authorization="Bearer " + "a" * 40) != first

    run(scenario)


# -- the write gate ----------------------------------------------------------------------------

CALLS: list[str] = []


def capture(call: ToolCall) -> JSONObject:
    CALLS.append("capture")
    return {"content": [{"type": "text", "text": "captured"}]}


CAPTURE = ToolDef("gno_capture", {"type": "object"}, None, capture, write=True)


@pytest.mark.parametrize("enable_write", [False, True])
def test_write_tools_need_the_write_gate_on_both_legs(enable_write: bool) -> None:
    CALLS.clear()
    call = modern_body("tools/call", {"name": "gno_capture", "arguments": {}}, rid=21)

    async def body() -> None:
        with in_process(
            tools=(SEARCH, CAPTURE), tool_profile="core", enable_write=enable_write
        ) as (_, client):
            modern = await client.post(
                "/mcp", json=call, headers=modern_headers("tools/call", "gno_capture")
            )
            sid = await legacy_session(client)
            legacy_call = {"jsonrpc": "2.0", "id": 22, "method": "tools/call"}
            legacy_call["params"] = {"name": "gno_capture", "arguments": {}}
            legacy = await client.post("/mcp", json=legacy_call, headers={"Mcp-Session-Id": sid})
            if enable_write:
                assert modern.status_code == legacy.status_code == 200
                assert CALLS == ["capture", "capture"]
            else:
                assert assert_refusal(modern, 403, "write_disabled")["id"] == 21
                assert assert_refusal(legacy, 403, "write_disabled")["id"] == 22
                assert CALLS == []

    run(body)


# -- body size -------------------------------------------------------------------------------


def test_bodies_over_one_mebibyte_are_refused_declared_or_streamed() -> None:
    big = b'{"jsonrpc":"2.0","id":1,"method":"ping","pad":"' + b"x" * (1024 * 1024) + b'"}'

    def chunks() -> Any:
        for start in range(0, len(big), 65536):
            yield big[start : start + 65536]

    with served() as server, httpx.Client(base_url=server.base, timeout=10) as http:
        declared = http.post("/mcp", content=big, headers={"Content-Type": "application/json"})
        assert_refusal(declared, 413, "body_too_large")
    with served() as server, httpx.Client(base_url=server.base, timeout=10) as http:
        streamed = http.post("/mcp", content=chunks(), headers={"Content-Type": "application/json"})
        assert "content-length" not in streamed.request.headers
        assert_refusal(streamed, 413, "body_too_large")
    with served() as server, httpx.Client(base_url=server.base, timeout=10) as http:
        rest = http.post("/api/search", content=chunks())
        assert_refusal(rest, 413, "body_too_large")


# -- rate, admission, sessions, idle -----------------------------------------------------------


def test_rate_limit_is_per_socket_peer() -> None:
    async def body() -> None:
        with in_process() as (gateway, client):
            assert gateway.policy.limiter.per_minute == 120
            # a stopped clock: no refill however slowly a loaded machine sends the 120
            gateway.policy.limiter = RateLimiter(120, clock=lambda: 1000.0)
            for _ in range(120):
                assert (await client.get("/api/health")).status_code == 200
            response = await client.get("/api/health")
            assert_refusal(response, 429, "rate_limited")
            assert int(response.headers["retry-after"]) >= 1
            async with client_for(gateway, "127.0.0.2") as other:
                assert (await other.get("/api/health")).status_code == 200

    run(body)


def test_active_and_queued_slots_then_429(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GNO_FAKE_SLOW_SECONDS", "0.6")
    slow = modern_body("tools/call", {"name": "gno_search", "arguments": {"query": "slow"}})
    headers = modern_headers("tools/call", "gno_search")

    async def body() -> None:
        with in_process(
            max_active_requests=1, max_queued_requests=1, factory=FakeGno.factory()
        ) as (
            gateway,
            client,
        ):
            admission = gateway.admission
            first = asyncio.create_task(client.post("/mcp", json=slow, headers=headers))
            while admission.active < 1:
                await asyncio.sleep(0.01)
            second = asyncio.create_task(client.post("/mcp", json=slow, headers=headers))
            while admission.queued < 1:
                await asyncio.sleep(0.01)
            third = await client.post("/mcp", json=slow, headers=headers)
            assert_refusal(third, 429, "queue_full")
            assert (await first).status_code == 200
            assert (await second).status_code == 200

    run(body)


def test_session_limit_is_429() -> None:
    async def body() -> None:
        with in_process(max_sessions=2) as (_, client):
            first = await legacy_session(client)
            await legacy_session(client)
            response = await client.post("/mcp", json=initialize_body())
            assert_refusal(response, 429, "too_many_sessions")
            await client.delete("/mcp", headers={"Mcp-Session-Id": first})
            await legacy_session(client)

    run(body)


def test_idle_sessions_end() -> None:
    async def body() -> None:
        with in_process(session_idle_seconds=0.2) as (gateway, client):
            sid = await legacy_session(client)
            assert (await tools_list(client, sid)).status_code == 200
            await asyncio.sleep(0.3)
            assert (await tools_list(client, sid)).status_code == 404
            assert len(gateway.sessions) == 0

    run(body)


def test_idle_sessions_are_reaped_by_the_running_server() -> None:
    with served(session_idle_seconds=0.2) as server, httpx.Client(base_url=server.base) as http:
        response = http.post("/mcp", json=initialize_body(), headers={"Accept": ACCEPT})
        assert response.status_code == 200
        assert len(server.gateway.sessions) == 1
        deadline = time.monotonic() + 5
        while len(server.gateway.sessions) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(server.gateway.sessions) == 0


# -- shutdown --------------------------------------------------------------------------------


def test_shutdown_finishes_in_flight_requests_and_refuses_new_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GNO_FAKE_SLOW_SECONDS", "3.5")
    slow = modern_body("tools/call", {"name": "gno_search", "arguments": {"query": "slow"}})
    headers = modern_headers("tools/call", "gno_search")
    results: dict[str, httpx.Response] = {}
    with served(factory=FakeGno.factory()) as server:
        with httpx.Client(base_url=server.base, timeout=30) as http:
            http.get("/api/health")
            worker = threading.Thread(
                target=lambda: results.setdefault(
                    "slow", http.post("/mcp", json=slow, headers=headers)
                )
            )
            worker.start()
            wait_until(lambda: server.gateway.admission.active == 1)
            server.request_stop()
            wait_until(lambda: server.gateway.admission.state == "draining")
            with httpx.Client(base_url=server.base, timeout=5) as late:
                assert_refusal(late.get("/api/health"), 503, "shutting_down")
            worker.join(30)
        assert results["slow"].status_code == 200
        assert "Found" in results["slow"].json()["result"]["content"][0]["text"]


def wait_until(condition: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_refusal_bodies_cover_every_status() -> None:
    from tests.http_support import validate_contract

    for status, reason in [
        (401, "bearer_required"),
        (403, "egress_denied"),
        (408, "body_timeout"),
        (413, "body_too_large"),
        (429, "queue_full"),
        (429, "too_many_connections"),
        (503, "runtime_unavailable"),
    ]:
        payload = Refusal(status, reason, request_id=1).payload()
        validate_contract("mcp-http-error", payload)
    assert Refusal(403, "egress_denied").payload()["error"]["message"] == (
        "Operation blocked by collection egress policy"
    )
    assert Refusal(403, "host_not_allowed").payload()["error"]["code"] == -32003
