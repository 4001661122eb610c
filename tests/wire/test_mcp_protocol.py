"""The protocol engine's rules for both eras, driven in-process over the real in-memory facade.

Every result is also checked with ``mcp_types`` (the SDK's wire-shape oracle) for its era.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp_types import methods

from tests.wire.real_facade import MODERN, Peer, envelope

SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"


def result_of(response: dict[str, Any], method: str, version: str) -> dict[str, Any]:
    assert "error" not in response, response
    result: dict[str, Any] = response["result"]
    methods.validate_server_result(method, version, result)
    return result


def error_of(response: dict[str, Any]) -> dict[str, Any]:
    assert "result" not in response, response
    error: dict[str, Any] = response["error"]
    return error


# -- legacy era -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "negotiated"),
    [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2024-11-05"),
        ("2026-07-28", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ],
)
def test_initialize_negotiates_down_to_a_handshake_revision(
    requested: str, negotiated: str
) -> None:
    peer = Peer()
    result = result_of(peer.initialize(requested), "initialize", negotiated)
    assert result == {
        "protocolVersion": negotiated,
        "capabilities": {
            "tools": {"listChanged": False},
            "resources": {"subscribe": False, "listChanged": False},
        },
        "serverInfo": {"name": "gno", "version": "1.0.0"},
    }
    assert peer.connection.era == "legacy"


def test_initialize_with_an_envelope_is_still_a_legacy_opening() -> None:
    peer = Peer()
    response = peer.request(
        "initialize",
        {
            "protocolVersion": MODERN,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
            "_meta": envelope(),
        },
    )
    assert result_of(response, "initialize", "2025-11-25")["protocolVersion"] == "2025-11-25"
    assert peer.connection.era == "legacy"


def test_legacy_results_carry_no_modern_fields() -> None:
    peer = Peer()
    peer.initialize()
    assert result_of(peer.request("ping"), "ping", "2025-11-25") == {}
    listed = result_of(peer.request("tools/list"), "tools/list", "2025-11-25")
    assert set(listed) == {"tools"}
    called = peer.request("tools/call", {"name": "gno_peek", "arguments": {}})
    assert not {"resultType", "_meta", "ttlMs"} & set(result_of(called, "tools/call", "2025-11-25"))


def test_requests_before_initialize_are_refused_but_ping_answers() -> None:
    peer = Peer()
    assert error_of(peer.request("tools/list"))["code"] == -32600
    assert result_of(peer.request("ping"), "ping", "2025-11-25") == {}


def test_an_enveloped_request_on_a_legacy_connection_is_refused() -> None:
    peer = Peer()
    peer.initialize()
    assert error_of(peer.modern("tools/list"))["code"] == -32600


def test_server_discover_does_not_exist_in_the_legacy_era() -> None:
    peer = Peer()
    peer.initialize()
    error = error_of(peer.request("server/discover"))
    assert error["code"] == -32601
    assert error["data"] == {"method": "server/discover"}


# -- modern era -----------------------------------------------------------------------------


def test_server_discover_pins_the_modern_era() -> None:
    peer = Peer()
    result = result_of(peer.modern("server/discover"), "server/discover", MODERN)
    assert peer.connection.era == "modern"
    assert result["supportedVersions"] == [MODERN]
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["resultType"] == "complete"
    assert (result["ttlMs"], result["cacheScope"]) == (0, "private")
    assert result["_meta"][SERVER_INFO_KEY] == {"name": "gno", "version": "1.0.0"}


def test_a_later_legacy_initialize_on_a_modern_connection_is_unsupported() -> None:
    peer = Peer()
    peer.modern("server/discover")
    error = error_of(peer.initialize())
    assert error["code"] == -32022
    assert error["data"] == {"supported": [MODERN], "requested": "2025-11-25"}


def test_any_enveloped_first_request_pins_modern() -> None:
    peer = Peer()
    result = result_of(peer.modern("tools/list"), "tools/list", MODERN)
    assert peer.connection.era == "modern"
    assert (result["resultType"], result["ttlMs"], result["cacheScope"]) == (
        "complete",
        0,
        "private",
    )
    assert SERVER_INFO_KEY in result["_meta"]


def test_modern_results_are_stamped_and_only_cacheable_ones_carry_cache_fields() -> None:
    peer = Peer()
    peer.modern("server/discover")
    called = result_of(
        peer.modern("tools/call", {"name": "gno_peek", "arguments": {}}), "tools/call", MODERN
    )
    assert called["resultType"] == "complete"
    assert called["_meta"][SERVER_INFO_KEY]["name"] == "gno"
    assert "ttlMs" not in called and "cacheScope" not in called
    for method in ("resources/list", "resources/templates/list"):
        listed = result_of(peer.modern(method), method, MODERN)
        assert (listed["ttlMs"], listed["cacheScope"]) == (0, "private")
    read = result_of(peer.modern("resources/read", {"uri": "gno://tags"}), "resources/read", MODERN)
    assert (read["ttlMs"], read["cacheScope"], read["resultType"]) == (0, "private", "complete")


@pytest.mark.parametrize(
    "meta",
    [
        None,
        {},
        {"io.modelcontextprotocol/protocolVersion": MODERN},
        {
            "io.modelcontextprotocol/protocolVersion": 20260728,
            "io.modelcontextprotocol/clientCapabilities": {},
        },
        {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": [],
        },
        {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "x"},
        },
    ],
    ids=[
        "no-meta",
        "empty-meta",
        "no-capabilities",
        "version-not-string",
        "capabilities-not-object",
        "bad-client-info",
    ],
)
def test_malformed_envelopes_are_invalid_params(meta: dict[str, Any] | None) -> None:
    peer = Peer()
    peer.modern("server/discover")
    params: dict[str, Any] = {} if meta is None else {"_meta": meta}
    assert error_of(peer.request("tools/list", params))["code"] == -32602


def test_an_unsupported_modern_revision_is_32022_with_supported_and_requested() -> None:
    peer = Peer()
    error = error_of(peer.request("server/discover", {"_meta": envelope("2099-01-01")}))
    assert error["code"] == -32022
    assert error["data"] == {"supported": [MODERN], "requested": "2099-01-01"}


def test_methods_outside_the_modern_era_are_not_found() -> None:
    peer = Peer()
    peer.modern("server/discover")
    for method in ("ping", "subscriptions/listen", "logging/setLevel", "no/such"):
        error = error_of(peer.modern(method))
        assert error["code"] == -32601
        assert error["data"] == {"method": method}


def test_custom_meta_reaches_the_request_and_envelope_keys_are_lifted() -> None:
    peer = Peer()
    peer.modern("server/discover")
    seen = {}

    def spy(ctx: Any, name: str, arguments: dict[str, Any]) -> Any:
        seen["meta"], seen["envelope"] = ctx.meta, ctx.envelope
        return lambda: {"content": []}

    peer.handlers.prepare_tool_call = spy  # type: ignore[method-assign]
    peer.modern("tools/call", {"name": "gno_peek"}, **{"com.example/trace": "t-1"})
    assert seen["meta"] == {"com.example/trace": "t-1"}
    assert seen["envelope"].protocol_version == MODERN
    assert seen["envelope"].client_info == {"name": "wire-test", "version": "1"}


# -- both eras ------------------------------------------------------------------------------


@pytest.fixture(params=["legacy", "modern"])
def opened(request: pytest.FixtureRequest) -> tuple[Peer, Any]:
    peer = Peer()
    if request.param == "legacy":
        peer.initialize()
        return peer, peer.request
    peer.modern("server/discover")
    return peer, peer.modern


def test_unknown_method_is_32601(opened: tuple[Peer, Any]) -> None:
    _, call = opened
    assert error_of(call("tools/frobnicate"))["code"] == -32601


def test_unknown_tool_is_32602(opened: tuple[Peer, Any]) -> None:
    _, call = opened
    error = error_of(call("tools/call", {"name": "gno_nope", "arguments": {}}))
    assert error["code"] == -32602
    assert error["data"] == {"tool": "gno_nope"}


def test_a_tool_outside_the_active_profile_is_32602_like_an_unknown_one() -> None:
    peer = Peer(profile="core")
    peer.initialize()
    assert error_of(peer.request("tools/call", {"name": "gno_status"}))["code"] == -32602
    assert "error" not in peer.request(
        "tools/call", {"name": "gno_get", "arguments": {"ref": "gno://notes/alpha.md"}}
    )


@pytest.mark.parametrize(
    "params",
    [{"arguments": {}}, {"name": 7}, {"name": "gno_peek", "arguments": [1]}],
    ids=["no-name", "name-not-string", "arguments-not-object"],
)
def test_malformed_tool_calls_are_invalid_params(
    opened: tuple[Peer, Any], params: dict[str, Any]
) -> None:
    _, call = opened
    assert error_of(call("tools/call", params))["code"] == -32602


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], -32600),
        ("ping", -32600),
        ({"jsonrpc": "1.0", "id": 1, "method": "ping"}, -32600),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, -32600),
        ({"jsonrpc": "2.0", "id": True, "method": "ping"}, -32600),
        ({"jsonrpc": "2.0", "id": 1, "method": 5}, -32600),
        ({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}, -32602),
    ],
    ids=[
        "batch",
        "not-object",
        "jsonrpc-1",
        "null-id",
        "bool-id",
        "method-not-string",
        "array-params",
    ],
)
def test_json_rpc_framing_errors(message: object, code: int) -> None:
    response = Peer().send(message)
    assert response is not None
    assert response["error"]["code"] == code


def test_notifications_and_stray_responses_get_no_answer_and_never_pin_the_era() -> None:
    peer = Peer()
    assert peer.send({"jsonrpc": "2.0", "method": "notifications/whatever"}) is None
    assert (
        peer.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}
        )
        is None
    )
    assert peer.send({"jsonrpc": "2.0", "id": 9, "result": {}}) is None
    assert peer.connection.era is None


def test_cancelling_a_deferred_call_means_it_never_runs_and_is_never_answered() -> None:
    peer = Peer()
    peer.initialize()
    reply = peer.engine.handle(
        peer.connection,
        {"jsonrpc": "2.0", "id": "c1", "method": "tools/call", "params": {"name": "gno_peek"}},
    )
    assert reply.work is not None and peer.connection.in_flight() == 1
    peer.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c1"}}
    )
    assert reply.work() is None
    assert peer.connection.in_flight() == 0


def test_a_failing_listing_is_an_internal_error_and_the_engine_keeps_serving() -> None:
    peer = Peer()
    peer.initialize()

    def broken() -> list[dict[str, Any]]:
        raise RuntimeError("bug")

    peer.handlers.list_tools = broken  # type: ignore[method-assign]
    assert error_of(peer.request("tools/list")) == {"code": -32603, "message": "Internal error"}
    assert result_of(peer.request("ping"), "ping", "2025-11-25") == {}
