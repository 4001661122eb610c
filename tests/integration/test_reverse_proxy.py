"""The gateway behind Debian's nginx on the same host, with the configuration of
``docs/how-to/reverse-proxy.md``: the socket peer of every proxied request is loopback, so the
gateway must tell proxied requests apart by their forwarding headers and then insist on the
bearer token and the configured Host/Origin allowlists. ``nox -s tests`` installs nginx
(``scripts/test_packages.sh``); elsewhere the tests skip when it is missing, in CI they fail."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.http_support import MemoryBook, assert_refusal, served

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
)
# CI installs nginx (scripts/test_packages.sh, run by `nox -s tests`): there a missing nginx
# is a failure, not a skip.
pytestmark = pytest.mark.skipif(
    NGINX is None and not os.environ.get("CI"), reason="nginx is not installed"
)
PUBLIC = "gno.test"
TOKEN = "p" * 48
BEARER = {"Authorization": f"Bearer {TOKEN}"}
# The server block of docs/how-to/reverse-proxy.md, minus TLS (plain HTTP on a test port).
SERVER_BLOCK = """
    server {{
        listen 127.0.0.1:{listen};
        server_name {public};
        client_max_body_size 2m;

        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def nginx(tmp: Path, upstream: int) -> Iterator[str]:
    """nginx in the foreground, proxying a free loopback port to ``upstream``."""
    listen = free_port()
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi", "logs"):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {tmp}/nginx.pid;\n"
        f"error_log {tmp}/logs/error.log;\nevents {{ worker_connections 64; }}\n"
        f"http {{\n    access_log off;\n    client_body_temp_path {tmp}/body;\n"
        f"    proxy_temp_path {tmp}/proxy;\n    fastcgi_temp_path {tmp}/fastcgi;\n"
        f"    uwsgi_temp_path {tmp}/uwsgi;\n    scgi_temp_path {tmp}/scgi;\n"
        + SERVER_BLOCK.format(listen=listen, public=PUBLIC, upstream=upstream)
        + "}\n"
    )
    assert NGINX is not None
    proc = subprocess.Popen(
        [NGINX, "-p", str(tmp), "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", listen), timeout=0.2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {proc.stderr.read()!r}") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{listen}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()


def through(proxy: str, **headers: str) -> httpx.Client:
    return httpx.Client(base_url=proxy, headers={"Host": PUBLIC, **headers}, timeout=10)


def test_a_proxy_without_a_configured_token_is_refused(tmp_path: Path) -> None:
    with served() as server, nginx(tmp_path, server.port) as proxy, through(proxy) as http:
        # the socket peer is 127.0.0.1 (nginx), yet the request is not a loopback caller
        response = http.get("/api/health")
        assert_refusal(response, 403, "proxied_request_unauthenticated")
        assert httpx.get(server.base + "/api/health").status_code == 200  # direct: loopback


def test_behind_nginx_with_a_token_and_allowlists(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text(TOKEN)
    token.chmod(0o600)
    with (
        served(
            token_file=token,
            allowed_hosts=(PUBLIC,),
            allowed_origins=(f"https://{PUBLIC}",),
        ) as server,
        nginx(tmp_path / "nginx", server.port) as proxy,
    ):
        with through(proxy) as http:
            assert_refusal(http.get("/api/health"), 401, "bearer_required")
        with through(proxy, **BEARER) as http:
            assert http.get("/api/health").json() == {"ok": True}
            origin = http.get("/api/health", headers={"Origin": f"https://{PUBLIC}"})
            assert origin.status_code == 200
            evil = http.get("/api/health", headers={"Origin": "https://evil.example.com"})
            assert_refusal(evil, 403, "origin_not_allowed")
            big = http.post("/mcp", content=b"x" * (1024 * 1024 + 10))
            assert_refusal(big, 413, "body_too_large")
        # nginx forwards $host; a loopback Host through the proxy is not a local caller
        with through(proxy, **{**BEARER, "Host": f"127.0.0.1:{server.port}"}) as http:
            assert_refusal(http.get("/api/health"), 403, "host_not_allowed")
        # Behind a proxy the caller is a remote destination: a local_only collection's
        # content does not go to it, a bearer notwithstanding; a remote one does.
        book = MemoryBook({"notes": "local_only"})
        server.gateway.egress_book = lambda _: book
        with pytest.raises(BaseException) as refused:
            asyncio.run(sdk_through(proxy))
        assert refused.group_contains(MCPError, match="egress policy")
        book.set({"notes": "remote"})
        seen = asyncio.run(sdk_through(proxy))
        assert seen["legacy"] == seen["2026-07-28"]
        assert seen["legacy"]["search"]["meta"]["totalResults"] == 1  # only alpha.md says foam
        assert len(server.gateway.sessions) == 0  # the legacy client's DELETE reached us


async def sdk_through(proxy: str) -> dict[str, Any]:
    """The SDK client in both eras through nginx (legacy opens its GET stream through it)."""
    import httpx2

    seen: dict[str, Any] = {}
    for mode in ("legacy", "2026-07-28"):
        headers = {"Host": PUBLIC, **BEARER}
        async with httpx2.AsyncClient(headers=headers, timeout=10) as http:
            connect = streamable_http_client(f"{proxy}/mcp", http_client=http)
            async with Client(connect, mode=mode, cache=None) as client:  # type: ignore[arg-type]
                tools = [t.name for t in (await client.list_tools()).tools]
                found = await client.call_tool("gno_search", {"query": "foam"})
                seen[mode] = {"tools": tools, "search": found.structured_content}
    return seen
