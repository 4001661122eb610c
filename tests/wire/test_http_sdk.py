"""The official MCP Python SDK (``mcp==2.3.0``) as an independent client of ``/mcp`` in each of its
modes (``legacy``: initialize, session, GET stream, DELETE; ``auto``: discover then modern;
``2026-07-28``: envelope on every request), against a real Hypercorn on a free loopback port
and in process (httpx2 ``ASGITransport``, which also lets a test choose the socket peer)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from gno_adapters.http.app import create_app
from gno_adapters.http.gateway import Gateway
from gno_adapters.http.settings import GatewaySettings
from gno_adapters.mcp.tools import ALL_TOOLS
from tests.http_support import MemoryBook, ServerThread, served
from tests.wire import real_facade

MODES = ["legacy", "auto", "2026-07-28"]
EXPECTED_VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}
TOOLS = [t.name for t in ALL_TOOLS if not t.write]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with served() as running:
        yield running


async def exercise(client: Client) -> dict[str, Any]:
    seen: dict[str, Any] = {"version": client.protocol_version}
    seen["tools"] = [t.name for t in (await client.list_tools()).tools]
    search = await client.call_tool("gno_search", {"query": "foam", "limit": 1})
    seen["search"] = (search.is_error, search.structured_content)
    alpha = real_facade.docids()["alpha"]
    got = await client.call_tool("gno_get", {"ref": alpha, "fromLine": 6, "lineCount": 1})
    seen["get"] = got.content[0].text  # type: ignore[union-attr]
    try:
        await client.call_tool("gno_nope", {})
    except MCPError as exc:
        seen["unknown_tool"] = exc.code
    seen["resources"] = [str(r.uri) for r in (await client.list_resources()).resources]
    tags = await client.read_resource("gno://tags?prefix=work/")
    seen["tags"] = json.loads(tags.contents[0].text)  # type: ignore[union-attr]
    try:
        await client.read_resource("gno://notes/missing.md")
    except MCPError as exc:
        seen["missing_resource"] = (exc.code, exc.error.data)
    return seen


def check(seen: dict[str, Any], mode: str) -> None:
    assert seen["version"] == EXPECTED_VERSION[mode]
    assert seen["tools"] == TOOLS
    is_error, structured = seen["search"]
    assert not is_error and structured["meta"]["totalResults"] == 1
    assert seen["get"] == "6: Foam notes link ideas."
    assert seen["unknown_tool"] == -32602
    assert seen["resources"] == ["gno://tags"]
    assert seen["tags"]["tags"] == [{"tag": "work/project", "count": 1}]
    assert seen["missing_resource"] == (
        -32602,
        {"uri": "gno://notes/missing.md", "code": "NOT_FOUND"},
    )


def drive(target: Any, mode: str, body: Callable[[Client], Awaitable[Any]] = exercise) -> Any:
    async def main() -> Any:
        async with Client(target, mode=mode, cache=None) as client:  # type: ignore[arg-type]
            return await body(client)

    return asyncio.run(main())


@pytest.mark.parametrize("mode", MODES)
def test_sdk_client_over_a_real_hypercorn(server: ServerThread, mode: str) -> None:
    check(drive(server.url, mode), mode)
    assert len(server.gateway.sessions) == 0  # legacy mode deleted its session on close


def test_two_sdk_clients_at_once_share_one_gateway(server: ServerThread) -> None:
    async def main() -> list[dict[str, Any]]:
        async def one(mode: str) -> dict[str, Any]:
            async with Client(server.url, mode=mode, cache=None) as client:  # type: ignore[arg-type]
                return await exercise(client)

        return list(await asyncio.gather(one("legacy"), one("2026-07-28")))

    legacy, modern = asyncio.run(main())
    check(legacy, "legacy")
    check(modern, "2026-07-28")


def in_process(mode: str, peer: str, **settings: Any) -> dict[str, Any]:
    gateway = Gateway(
        GatewaySettings(port=8765, workers=2, **settings),
        real_facade.factory(),
        port=8765,
    )
    try:
        transport = httpx2.ASGITransport(app=create_app(gateway), client=(peer, 50000))

        async def main() -> dict[str, Any]:
            async with httpx2.AsyncClient(transport=transport) as http:
                connect = streamable_http_client("http://127.0.0.1:8765/mcp", http_client=http)
                async with Client(connect, mode=mode, cache=None) as client:  # type: ignore[arg-type]
                    return await exercise(client)

        return asyncio.run(main())
    finally:
        gateway.close()


@pytest.mark.parametrize("mode", MODES)
def test_sdk_client_in_process_on_loopback(mode: str) -> None:
    check(in_process(mode, "127.0.0.1"), mode)


def test_sdk_client_in_process_from_a_remote_peer_with_a_bearer(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("t" * 48)
    token.chmod(0o600)
    # The collection is shared with the LAN: a bearer alone would not be enough.
    book = MemoryBook({"notes": "local_only"})
    gateway = Gateway(
        GatewaySettings(port=8765, workers=2, token_file=token),
        real_facade.factory(),
        port=8765,
        egress_book=lambda _: book,
    )
    try:
        app = create_app(gateway)

        async def main(authorization: str | None) -> dict[str, Any]:
            headers = {"Authorization": authorization} if authorization else {}
            transport = httpx2.ASGITransport(app=app, client=("10.1.2.3", 50000))
            async with httpx2.AsyncClient(transport=transport, headers=headers) as http:
                connect = streamable_http_client("http://127.0.0.1:8765/mcp", http_client=http)
                async with Client(connect, mode="2026-07-28", cache=None) as client:  # type: ignore[arg-type]
                    return await exercise(client)

        with pytest.raises(BaseException) as refused:  # local_only: refused (403)
            asyncio.run(main("Bearer " + "t" * 48))
        assert refused.group_contains(MCPError, match="egress policy")
        book.set({"notes": "lan"})
        check(asyncio.run(main("Bearer " + "t" * 48)), "2026-07-28")
        with pytest.raises(BaseException):  # noqa: B017 (the SDK wraps the 401 in a group)
            asyncio.run(main(None))
    finally:
        gateway.close()
