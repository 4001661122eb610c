"""The boundary of the installed ``gno serve`` (loopback), over real sockets on 127.0.0.1:
exact Host and Origin allowlists (the REST app status included), the 1 MiB body limit and the
write gate. The daemon's controls are ``test_daemon.py``'s."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pkg_support import (
    ACCEPT,
    CAPTURE,
    assert_refusal,
    detached,
    legacy_session,
    rpc_result,
    session_call,
)


@pytest.fixture(scope="module")
def serving(gno_env: dict[str, str]) -> Iterator[dict[str, Any]]:
    with detached(gno_env, "serve") as status:
        yield status


def test_host_and_origin_must_match_the_loopback_allowlist(serving: dict[str, Any]) -> None:
    port = serving["port"]
    with httpx.Client(base_url=serving["base"], timeout=10) as http:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            assert http.get("/api/health", headers={"Host": host}).status_code == 200, host
        for host in ("evil.example.com", f"127.0.0.1:{port + 1}", "localhost"):
            assert_refusal(http.get("/api/health", headers={"Host": host}), 403, "host_not_allowed")
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            legacy_session(http, Origin=origin)
        for origin in ("http://evil.example.com", "null", f"https://127.0.0.1:{port}"):
            refused = http.post(
                "/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                headers={"Accept": ACCEPT, "Origin": origin},
            )
            assert_refusal(refused, 403, "origin_not_allowed")
        # A browser page elsewhere cannot read the app status either.
        evil = http.get("/api/status", headers={"Origin": "http://evil.example.com"})
        assert_refusal(evil, 403, "origin_not_allowed")


def test_bodies_over_one_mebibyte_are_refused(serving: dict[str, Any]) -> None:
    big = b'{"jsonrpc":"2.0","id":1,"method":"ping","pad":"' + b"x" * (1024 * 1024) + b'"}'
    with httpx.Client(base_url=serving["base"], timeout=30) as http:
        refused = http.post("/mcp", content=big, headers={"Content-Type": "application/json"})
        assert_refusal(refused, 413, "body_too_large")
    with httpx.Client(base_url=serving["base"], timeout=10) as http:
        assert http.get("/api/health").status_code == 200  # the server lives on


def test_writes_are_refused_without_the_write_gate(serving: dict[str, Any]) -> None:
    with httpx.Client(base_url=serving["base"], timeout=30) as http:
        sid = legacy_session(http)
        refused = session_call(http, sid, "tools/call", CAPTURE)
        assert_refusal(refused, 403, "write_disabled")
        names = [t["name"] for t in rpc_result(session_call(http, sid, "tools/list"))["tools"]]
        assert "gno_search" in names and "gno_capture" not in names


def test_the_installed_wheel_serves_the_web_ui(serving: dict[str, Any]) -> None:
    """The pages, their templates and static files come from the wheel itself: no build step,
    no network."""
    import re

    with httpx.Client(base_url=serving["base"], timeout=30) as http:
        home = http.get("/")
        assert home.status_code == 200 and home.headers["content-type"].startswith("text/html")
        assert home.headers["content-security-policy"].startswith("default-src 'self';")
        files = re.findall(
            r'(?:href|src)="(/static/[a-z]+\.(?:css|js|svg)\?v=[0-9a-f]{12})"', home.text
        )
        assert len(files) == 4, files
        for path in files:
            assert http.get(path).status_code == 200, path
        assert http.get("/search?q=foam").status_code == 200
