"""``/mcp`` on the wire, raw httpx against a real Hypercorn: one test per row of the spec's
2026-07-28 error table, then the 2025-era session rules (POST, GET stream, DELETE, 202, 400,
404) and era classification."""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp_types import methods

from tests.http_support import (
    ACCEPT,
    LEGACY,
    MODERN,
    ServerThread,
    initialize_body,
    modern_body,
    modern_headers,
    served,
)
from tests.wire.mcp_fakes import FakeGno


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with served() as running:
        yield running


@pytest.fixture
def http(server: ServerThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        yield client


def post(http: httpx.Client, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return http.post("/mcp", json=body, headers={"Accept": ACCEPT, **(headers or {})})


def error_of(response: httpx.Response, status: int, code: int) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert body["error"]["code"] == code, body
    return body


# -- the 2026-07-28 error table, row by row --------------------------------------------------


def test_a_valid_discover_answers_200_with_the_modern_stamps(http: httpx.Client) -> None:
    response = post(http, modern_body("server/discover"), modern_headers("server/discover"))
    assert response.status_code == 200
    result = response.json()["result"]
    methods.validate_server_result("server/discover", MODERN, result)
    assert result["supportedVersions"] == [MODERN]
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "gno"
    assert "mcp-session-id" not in response.headers


def test_row_unsupported_revision_in_envelope_and_header(http: httpx.Client) -> None:
    headers = modern_headers("server/discover", **{"MCP-Protocol-Version": "2099-01-01"})
    body = modern_body("server/discover", version="2099-01-01", rid=7)
    error = error_of(post(http, body, headers), 400, -32022)
    assert error["id"] == 7
    assert error["error"]["message"].startswith("Unsupported protocol version: ")
    assert error["error"]["data"] == {"supported": [MODERN], "requested": "2099-01-01"}


def test_row_envelope_without_the_protocol_version_header(http: httpx.Client) -> None:
    headers = modern_headers("tools/list")
    del headers["MCP-Protocol-Version"]
    error = error_of(post(http, modern_body("tools/list"), headers), 400, -32020)
    assert error["error"]["data"] == {"mismatch": "MCP-Protocol-Version"}


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Mcp-Method", "resources/list"),
        ("Mcp-Name", "gno_get"),
    ],
)
def test_row_routing_header_disagrees_with_the_body(
    http: httpx.Client, header: str, value: str
) -> None:
    headers = modern_headers("tools/call", "gno_search", **{header: value})
    body = modern_body("tools/call", {"name": "gno_search", "arguments": {"query": "x"}})
    error = error_of(post(http, body, headers), 400, -32020)
    assert error["error"]["data"] == {"mismatch": header}


@pytest.mark.parametrize("header", ["Mcp-Method", "Mcp-Name"])
def test_row_required_routing_header_absent(http: httpx.Client, header: str) -> None:
    headers = modern_headers("tools/call", "gno_search")
    del headers[header]
    body = modern_body("tools/call", {"name": "gno_search", "arguments": {"query": "x"}})
    error = error_of(post(http, body, headers), 400, -32020)
    assert error["error"]["data"] == {"mismatch": header}


def test_header_version_2026_with_a_body_claiming_another_is_a_mismatch(
    http: httpx.Client,
) -> None:
    body = modern_body("server/discover", version="2099-01-01")
    error_of(post(http, body, modern_headers("server/discover")), 400, -32020)


def test_repeated_routing_header_is_a_mismatch(http: httpx.Client) -> None:
    headers = [
        ("Accept", ACCEPT),
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", "tools/list"),
        ("Mcp-Method", "tools/list"),
    ]
    response = http.post("/mcp", json=modern_body("tools/list"), headers=headers)
    assert error_of(response, 400, -32020)["error"]["data"] == {"mismatch": "Mcp-Method"}


def test_mcp_name_in_the_base64_sentinel_matches(http: httpx.Client) -> None:
    uri = "gno://notes/alpha.md"
    encoded = "=?base64?" + base64.b64encode(uri.encode()).decode() + "?="
    headers = modern_headers("resources/read", encoded)
    response = post(http, modern_body("resources/read", {"uri": uri}), headers)
    assert response.status_code == 200, response.text
    assert response.json()["result"]["contents"][0]["uri"] == uri


def test_row_protocol_version_header_without_an_envelope(http: httpx.Client) -> None:
    body = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}
    error = error_of(post(http, body, modern_headers("tools/list")), 400, -32602)
    assert error["id"] == 3


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("io.modelcontextprotocol/protocolVersion", 20260728),
        ("io.modelcontextprotocol/clientInfo", {"name": "no version"}),
        ("io.modelcontextprotocol/clientCapabilities", ["sampling"]),
    ],
)
def test_row_malformed_envelope_value(http: httpx.Client, key: str, value: Any) -> None:
    body = modern_body("tools/list")
    body["params"]["_meta"][key] = value
    error = error_of(post(http, body, modern_headers("tools/list")), 400, -32602)
    assert error["error"]["message"] == "Invalid _meta envelope"
    assert error["error"]["data"]["field"] == key


def test_row_missing_client_capabilities_is_invalid_params(http: httpx.Client) -> None:
    body = modern_body("server/discover")
    del body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    error_of(post(http, body, modern_headers("server/discover")), 400, -32602)


def test_row_session_id_on_a_modern_request(http: httpx.Client) -> None:
    headers = modern_headers("tools/list", **{"Mcp-Session-Id": "abc"})
    error = error_of(post(http, modern_body("tools/list", rid=9), headers), 400, -32600)
    assert error["id"] == 9


def test_row_batch_with_modern_requests(http: httpx.Client) -> None:
    batch = [modern_body("tools/list", rid=1), modern_body("tools/list", rid=2)]
    error_of(post(http, batch, modern_headers("tools/list")), 400, -32600)


def test_row_subscriptions_listen_is_404_method_not_found(http: httpx.Client) -> None:
    body = modern_body("subscriptions/listen", {"notifications": {"toolsListChanged": True}}, 11)
    error = error_of(post(http, body, modern_headers("subscriptions/listen")), 404, -32601)
    assert error["id"] == 11
    assert error["error"]["data"] == {"method": "subscriptions/listen"}


@pytest.mark.parametrize("method", ["initialize", "ping", "logging/setLevel", "unknown/method"])
def test_removed_and_unknown_methods_are_404_on_the_modern_leg(
    http: httpx.Client, method: str
) -> None:
    error = error_of(post(http, modern_body(method, rid=5), modern_headers(method)), 404, -32601)
    assert error["id"] == 5
    assert error["error"]["data"] == {"method": method}


def test_modern_notification_is_202_without_a_body(http: httpx.Client) -> None:
    body = modern_body("notifications/cancelled", {"requestId": 1}, rid=None)
    response = post(http, body, modern_headers("notifications/cancelled"))
    assert response.status_code == 202 and response.content == b""


def test_modern_results_carry_result_type_cache_hints_and_server_info(
    http: httpx.Client,
) -> None:
    for method, params, name in [
        ("tools/list", None, None),
        ("resources/list", None, None),
        ("resources/templates/list", None, None),
        ("resources/read", {"uri": "gno://tags"}, "gno://tags"),
        ("tools/call", {"name": "gno_search", "arguments": {"query": "foam"}}, "gno_search"),
    ]:
        response = post(http, modern_body(method, params), modern_headers(method, name))
        assert response.status_code == 200, response.text
        methods.validate_server_result(method, MODERN, response.json()["result"])


def test_unknown_tool_is_invalid_params_with_400(http: httpx.Client) -> None:
    body = modern_body("tools/call", {"name": "gno_nope", "arguments": {}})
    error_of(post(http, body, modern_headers("tools/call", "gno_nope")), 400, -32602)


def test_missing_resource_is_invalid_params_naming_the_uri(http: httpx.Client) -> None:
    uri = "test://nonexistent"
    body = modern_body("resources/read", {"uri": uri})
    error = error_of(post(http, body, modern_headers("resources/read", uri)), 400, -32602)
    assert error["error"]["data"]["uri"] == uri


def test_invalid_json_is_a_parse_error(http: httpx.Client) -> None:
    response = http.post("/mcp", content=b"{nope", headers={"Content-Type": "application/json"})
    error_of(response, 400, -32700)


# -- the 2025-11-25 session leg --------------------------------------------------------------


def open_session(http: httpx.Client, version: str = LEGACY) -> tuple[str, dict[str, Any]]:
    response = post(http, initialize_body(version))
    assert response.status_code == 200, response.text
    sid = response.headers["mcp-session-id"]
    assert sid and all(0x21 <= ord(c) <= 0x7E for c in sid)
    negotiated = response.json()["result"]["protocolVersion"]
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    headers = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": negotiated}
    notified = post(http, initialized, headers)
    assert notified.status_code == 202 and notified.content == b""
    return sid, response.json()["result"]


def test_initialize_issues_a_session_and_the_session_serves_requests(http: httpx.Client) -> None:
    sid, result = open_session(http)
    methods.validate_server_result("initialize", LEGACY, result)
    assert result["protocolVersion"] == LEGACY
    headers = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": LEGACY}
    listed = post(http, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers)
    assert listed.status_code == 200
    methods.validate_server_result("tools/list", LEGACY, listed.json()["result"])
    assert "resultType" not in listed.json()["result"]
    ping = post(http, {"jsonrpc": "2.0", "id": 3, "method": "ping"}, headers)
    assert ping.json() == {"jsonrpc": "2.0", "id": 3, "result": {}}


def test_initialize_naming_2026_negotiates_down_and_opens_a_session(http: httpx.Client) -> None:
    sid, result = open_session(http, MODERN)
    assert result["protocolVersion"] == LEGACY and sid


def test_a_request_without_a_session_is_400(http: httpx.Client) -> None:
    response = post(http, {"jsonrpc": "2.0", "id": 4, "method": "tools/list"})
    assert error_of(response, 400, -32000)["id"] == 4


def test_discover_without_an_envelope_is_legacy_and_needs_a_session(http: httpx.Client) -> None:
    response = post(http, {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}})
    error_of(response, 400, -32000)


def test_an_unknown_session_is_404(http: httpx.Client) -> None:
    body = {"jsonrpc": "2.0", "id": 5, "method": "tools/list"}
    error_of(post(http, body, {"Mcp-Session-Id": "f" * 32}), 404, -32001)


def test_delete_ends_the_session_and_it_is_404_afterwards(http: httpx.Client) -> None:
    sid, _ = open_session(http)
    assert http.delete("/mcp", headers={"Mcp-Session-Id": sid}).status_code == 204
    body = {"jsonrpc": "2.0", "id": 6, "method": "tools/list"}
    error_of(post(http, body, {"Mcp-Session-Id": sid}), 404, -32001)
    assert http.delete("/mcp", headers={"Mcp-Session-Id": sid}).status_code == 404


def test_initialize_with_a_session_id_is_refused(http: httpx.Client) -> None:
    sid, _ = open_session(http)
    error_of(post(http, initialize_body(), {"Mcp-Session-Id": sid}), 400, -32600)


def test_a_legacy_batch_is_refused(http: httpx.Client) -> None:
    error_of(post(http, [initialize_body()]), 400, -32600)


def test_an_unsupported_legacy_protocol_header_is_400(http: httpx.Client) -> None:
    sid, _ = open_session(http)
    headers = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "1999-01-01"}
    error_of(post(http, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers), 400, -32600)


def test_get_opens_an_sse_stream_without_resumption_and_delete_closes_it(
    http: httpx.Client, server: ServerThread
) -> None:
    sid, _ = open_session(http)
    headers = {"Accept": "text/event-stream", "Mcp-Session-Id": sid}
    with (
        httpx.Client(base_url=server.base, timeout=10) as streamer,
        streamer.stream("GET", "/mcp", headers=headers) as stream,
    ):
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["x-accel-buffering"] == "no"
        chunks = stream.iter_bytes()
        first = next(chunks)
        assert first.startswith(b": stream open")
        assert b"id:" not in first
        second = httpx.get(server.url, headers=headers, timeout=5)
        assert second.status_code == 409
        assert http.delete("/mcp", headers={"Mcp-Session-Id": sid}).status_code == 204
        assert b"".join(chunks) == b""  # the stream ends with the session


def test_get_needs_an_event_stream_accept_and_a_session(http: httpx.Client) -> None:
    assert http.get("/mcp", headers={"Accept": "application/json"}).status_code == 406
    response = http.get("/mcp", headers={"Accept": "text/event-stream"})
    error_of(response, 400, -32000)


def test_unsupported_http_method_is_405_json(http: httpx.Client) -> None:
    response = http.put("/mcp", json={})
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "VALIDATION"
    sid, _ = open_session(http)
    head = http.head("/mcp", headers={"Mcp-Session-Id": sid})
    assert head.status_code == 405 and head.headers["allow"] == "GET, POST, DELETE"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    assert post(http, body, {"Mcp-Session-Id": sid}).status_code == 200  # HEAD ended nothing


def test_sse_only_accept_gets_the_answer_as_one_event(http: httpx.Client) -> None:
    headers = modern_headers("tools/list", Accept="text/event-stream")
    response = http.post("/mcp", json=modern_body("tools/list", rid=42), headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.text.startswith("event: message\ndata: {")
    assert '"id":42' in response.text


def test_modern_requests_never_touch_open_sessions(http: httpx.Client) -> None:
    sid, _ = open_session(http)
    for _ in range(3):
        response = post(http, modern_body("tools/list"), modern_headers("tools/list"))
        assert response.status_code == 200 and "mcp-session-id" not in response.headers
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    assert post(http, body, {"Mcp-Session-Id": sid}).status_code == 200


def test_a_cancelled_legacy_call_is_never_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GNO_FAKE_SLOW_SECONDS", "0.8")
    with (
        served(factory=FakeGno.factory()) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        cancelled_call_is_not_answered(server, http)


def test_a_cancelled_legacy_audit_answers_its_partial_report_on_the_open_post(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 2025-era session: the cancellation comes on another POST while the call's own POST
    is still open, so the caller is still there to read the partial report."""
    monkeypatch.setenv("GNO_FAKE_SLOW_SECONDS", "8")
    with (
        served(factory=FakeGno.factory()) as server,
        httpx.Client(base_url=server.base, timeout=20) as http,
    ):
        sid, _ = open_session(http)
        headers = {"Mcp-Session-Id": sid}
        call = {"jsonrpc": "2.0", "id": 78, "method": "tools/call"}
        call["params"] = {"name": "gno_audit", "arguments": {"path": "slow/"}}
        answers: list[httpx.Response] = []

        def slow_call() -> None:
            with httpx.Client(base_url=server.base, timeout=20) as other:
                answers.append(post(other, call, headers))

        caller = threading.Thread(target=slow_call)
        caller.start()
        session = server.gateway.sessions.find(sid, identity="loopback", epoch=0)
        assert session is not None
        deadline = time.monotonic() + 10
        while session.connection.in_flight() < 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        started = time.monotonic()
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled"}
        cancel["params"] = {"requestId": 78}
        assert post(http, cancel, headers).status_code == 202
        caller.join(20)
        assert time.monotonic() - started < 5  # stopped by the cancellation, not the wait
        assert answers[0].status_code == 200
        result = answers[0].json()["result"]
        assert not result.get("isError")
        report = result["structuredContent"]
        assert report["status"] == "partial"
        assert {r["reason"] for r in report["rules"]} == {"cancelled"}


def cancelled_call_is_not_answered(server: ServerThread, http: httpx.Client) -> None:
    sid, _ = open_session(http)
    headers = {"Mcp-Session-Id": sid}
    call = {"jsonrpc": "2.0", "id": 77, "method": "tools/call"}
    call["params"] = {"name": "gno_search", "arguments": {"query": "slow"}}
    answers: list[httpx.Response] = []

    def slow_call() -> None:
        with httpx.Client(base_url=server.base, timeout=10) as other:
            answers.append(post(other, call, headers))

    caller = threading.Thread(target=slow_call)
    caller.start()
    session = server.gateway.sessions.find(sid, identity="loopback", epoch=0)
    assert session is not None
    deadline = time.monotonic() + 10
    while session.connection.in_flight() < 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 77}}
    assert post(http, cancel, headers).status_code == 202
    caller.join(10)
    assert answers[0].status_code == 202 and answers[0].content == b""
