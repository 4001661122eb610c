"""Hostile JSON over HTTP: a lone UTF-16 surrogate escape or nesting past the frame decoder's
depth is a JSON-RPC error with HTTP 400 on ``/mcp`` (both eras) and a 400 ``VALIDATION``
envelope on REST, never a 500; and an answer holding a lone surrogate is still sent (as U+FFFD),
never a failed serialisation or a dropped connection."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from gno_adapters.http.transport import json_bytes
from gno_adapters.mcp.frames import DEFAULT_MAX_DEPTH
from tests.http_support import ACCEPT, in_process, initialize_body, modern_body, modern_headers

DEEP = 990


def _modern(params: str) -> bytes:
    meta = json.dumps(modern_body("tools/list")["params"]["_meta"])
    return (
        '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":'
        + meta
        + ","
        + params
        + "}}"
    ).encode()


def _deep(depth: int) -> bytes:
    return (
        '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":' + "[" * depth + "]" * depth + "}}"
    ).encode()


async def _legacy_session(client: httpx.AsyncClient) -> str:
    response = await client.post("/mcp", json=initialize_body(), headers={"Accept": ACCEPT})
    assert response.status_code == 200, response.text
    return response.headers["mcp-session-id"]


def _post(body: bytes, *, modern: bool) -> httpx.Response:
    async def go() -> httpx.Response:
        with in_process() as (_, client):
            async with client:
                if modern:
                    headers = modern_headers("tools/list")
                else:
                    headers = {"Accept": ACCEPT, "Mcp-Session-Id": await _legacy_session(client)}
                headers["Content-Type"] = "application/json"
                return await client.post("/mcp", content=body, headers=headers)

    return asyncio.run(go())


@pytest.mark.parametrize("modern", [True, False], ids=["2026", "2025"])
def test_a_lone_surrogate_in_params_is_invalid_params_with_the_request_id(modern: bool) -> None:
    response = _post(_modern('"cursor":"\\ud800"'), modern=modern)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["id"] == 7
    assert body["error"]["code"] == -32602
    assert body["error"]["data"] == {"reason": "invalid_unicode"}


@pytest.mark.parametrize("modern", [True, False], ids=["2026", "2025"])
def test_a_lone_surrogate_in_the_id_is_invalid_request_with_a_null_id(modern: bool) -> None:
    response = _post(b'{"jsonrpc":"2.0","id":"\\udc00","method":"ping"}', modern=modern)
    assert response.status_code == 400, response.text
    assert response.json()["id"] is None
    assert response.json()["error"]["code"] == -32600


@pytest.mark.parametrize("modern", [True, False], ids=["2026", "2025"])
@pytest.mark.parametrize("depth", [DEFAULT_MAX_DEPTH + 1, DEEP, 100_000])
def test_deep_nesting_is_a_parse_error(modern: bool, depth: int) -> None:
    response = _post(_deep(depth), modern=modern)
    assert response.status_code == 400, response.text
    assert response.json()["id"] is None
    assert response.json()["error"]["code"] == -32700


def test_nesting_within_the_limit_is_served() -> None:
    response = _post(_modern('"extra":' + "[" * 20 + "]" * 20), modern=True)
    assert response.status_code == 200, response.text
    assert response.json()["id"] == 7 and response.json()["result"]["tools"]


@pytest.mark.parametrize("route", ["/api/search", "/api/query"])
@pytest.mark.parametrize(
    "body",
    [b'{"query":"\\ud800"}', ('{"query":"x","pad":' + "[" * DEEP + "]" * DEEP + "}").encode()],
    ids=["surrogate", "deep"],
)
def test_rest_bodies_are_validation_errors(route: str, body: bytes) -> None:
    async def go() -> httpx.Response:
        with in_process() as (_, client):
            async with client:
                return await client.post(route, content=body)

    response = asyncio.run(go())
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "VALIDATION"
    assert error["message"].startswith("The request body must be JSON")


def test_an_answer_with_a_lone_surrogate_is_sent_as_replacement_characters() -> None:
    payload: dict[str, Any] = {"title": "bad \udc80 name", "ok": "caf\u00e9"}
    data = json_bytes(payload)
    assert json.loads(data.decode("utf-8")) == {"title": "bad \ufffd name", "ok": "caf\u00e9"}
    assert json_bytes({"ok": "caf\u00e9"}) == '{"ok":"caf\u00e9"}'.encode()
