"""Fuzzing ``/mcp`` (both protocol eras) and the REST search routes of the gateway in process:
any body and any era headers get a typed answer — a JSON-RPC error or result, or a closed
``mcp-http-error`` refusal — never a 500, and the gateway still answers ``tools/list`` after."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.strategies import MODERN_META, deep, encode, hostile_text, json_values
from tests.fuzz.test_fuzz_stdio import frames
from tests.http_support import ACCEPT, LEGACY, MODERN, in_process

ERAS = st.sampled_from(["legacy", "modern", "none"])


def headers_for(era: str, body: bytes) -> dict[str, str]:
    headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
    if era == "modern":
        headers["MCP-Protocol-Version"] = MODERN
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        if isinstance(message, dict) and isinstance(message.get("method"), str):
            headers["Mcp-Method"] = message["method"].encode("ascii", "replace").decode()
    elif era == "legacy":
        headers["MCP-Protocol-Version"] = LEGACY
    return headers


def check_answer(status: int, text: str) -> None:
    assert status != 500 and status < 600, (status, text[:300])
    if status in (202, 204) or not text:
        return
    body: Any = json.loads(text)  # every answer is JSON: results, errors and refusals alike
    if isinstance(body, dict) and "error" in body:
        assert body["error"].get("code") != -32603, body


async def exchange(requests: list[tuple[str, str, bytes]]) -> None:
    # the rate limit is per peer per minute; the fuzz sends more than one peer would
    with in_process(rate_limit_per_minute=0) as (_gateway, client):
        async with client:
            for era, path, body in requests:
                response = await client.post(path, content=body, headers=headers_for(era, body))
                check_answer(response.status_code, response.text)
            listing = {"jsonrpc": "2.0", "id": "after", "method": "tools/list"}
            modern = {**listing, "params": {"_meta": dict(MODERN_META)}}
            response = await client.post(
                "/mcp", json=modern, headers={**headers_for("modern", encode(modern))}
            )
            assert response.status_code == 200, response.text
            assert response.json()["result"]["tools"], response.text


mcp_bodies = st.one_of(frames(modern=True), frames(modern=False), deep)
rest_bodies = st.one_of(
    json_values.map(encode),
    st.fixed_dictionaries(
        {"query": hostile_text},
        optional={"limit": json_values, "collection": hostile_text, "tagsAll": json_values},
    ).map(encode),
    deep,
    st.binary(max_size=80),
)
requests = st.lists(
    st.one_of(
        st.tuples(ERAS, st.just("/mcp"), mcp_bodies),
        st.tuples(st.just("none"), st.sampled_from(["/api/search", "/api/query"]), rest_bodies),
    ),
    min_size=1,
    max_size=6,
)


@given(requests)
def test_the_gateway_answers_any_body_in_any_era(batch: list[tuple[str, str, bytes]]) -> None:
    asyncio.run(exchange(batch))
