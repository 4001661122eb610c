"""The protocol engine: one inbound JSON-RPC message in, one ``Reply`` out, for both eras.

The engine is synchronous and transport-free. Cheap methods (lifecycle, listings) are answered
at once; tool calls and resource reads come back as deferred ``work`` that the transport runs
off its read loop (a worker thread on stdio, a thread hop under asyncio on HTTP) so that
``notifications/cancelled`` and ``ping`` stay responsive while a call runs. A request cancelled
before its work finishes is not answered (MCP: the receiver SHOULD NOT answer it), except where
the tool's contract gives a cancelled call an answer that says it is incomplete: ``gno_audit``
answers its partial report (the spec's audit contract; a client that stopped waiting drops a
late answer, as MCP asks of every sender of a cancellation).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from gno_adapters.mcp.context import Connection, RequestContext
from gno_adapters.mcp.envelope import (
    MODERN_VERSIONS,
    SERVER_INFO_KEY,
    check_version,
    claims_modern,
    negotiate_handshake,
    read_envelope,
    unsupported_version,
)
from gno_adapters.mcp.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    JSONObject,
    RequestId,
    RpcError,
    error_response,
    is_request_id,
    method_not_found,
    result_response,
)

log = logging.getLogger("gno.mcp")

CAPABILITIES: JSONObject = {
    "tools": {"listChanged": False},
    "resources": {"subscribe": False, "listChanged": False},
}
#: 2026-07-28 results that carry cache hints; gno's answers are private and never fresh.
CACHEABLE = frozenset(
    {
        "server/discover",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
    }
)
Work = Callable[[], JSONObject]


class Handlers(Protocol):
    """What the engine serves. ``prepare_*`` run on the read loop and must stay cheap: they
    validate the request (``RpcError``) and return the blocking work to run later."""

    def list_tools(self) -> list[JSONObject]: ...

    def prepare_tool_call(self, ctx: RequestContext, name: str, arguments: JSONObject) -> Work: ...

    def list_resources(self) -> list[JSONObject]: ...

    def list_resource_templates(self) -> list[JSONObject]: ...

    def prepare_resource_read(self, ctx: RequestContext, uri: str) -> Work: ...


@dataclass(frozen=True, slots=True)
class Reply:
    """The engine's answer: a ``response`` to write now, or ``work`` whose return value (when
    not ``None``) is the response to write once it has run."""

    response: JSONObject | None = None
    work: Callable[[], JSONObject | None] | None = None


class Engine:
    """Dispatches messages for any number of connections; holds no per-connection state."""

    def __init__(self, handlers: Handlers, *, name: str, version: str) -> None:
        self.handlers = handlers
        self.server_info: JSONObject = {"name": name, "version": version}

    # -- framing ---------------------------------------------------------------------------

    def handle(self, conn: Connection, message: object) -> Reply:
        if isinstance(message, list):
            return _error(None, RpcError(INVALID_REQUEST, "Batch requests are not supported"))
        if not isinstance(message, dict):
            return _error(None, RpcError(INVALID_REQUEST, "A message must be a JSON object"))
        raw_id = message.get("id")
        rid = raw_id if is_request_id(raw_id) else None
        method = message.get("method")
        if message.get("jsonrpc") != "2.0":
            return _error(rid, RpcError(INVALID_REQUEST, 'jsonrpc must be "2.0"'))
        if method is None and ("result" in message or "error" in message):
            return Reply()  # a response, yet this server never sends requests: drop it
        if not isinstance(method, str):
            return _error(rid, RpcError(INVALID_REQUEST, "method must be a string"))
        params = message.get("params")
        if "id" not in message:
            if isinstance(params, Mapping) or params is None:
                self._notification(conn, method, params or {})
            return Reply()
        if rid is None:
            return _error(None, RpcError(INVALID_REQUEST, "id must be a string or an integer"))
        if params is not None and not isinstance(params, Mapping):
            return _error(rid, RpcError(INVALID_PARAMS, "params must be an object"))
        try:
            return self._request(conn, rid, method, dict(params or {}))
        except RpcError as exc:
            return _error(rid, exc)
        except Exception:
            log.exception("%s failed", method)
            return _error(rid, RpcError(INTERNAL_ERROR, "Internal error"))

    def _notification(self, conn: Connection, method: str, params: Mapping[str, Any]) -> None:
        if method == "notifications/cancelled" and conn.cancel(params.get("requestId")):
            log.debug("request %r cancelled by the client", params.get("requestId"))
        # notifications/initialized needs no action: the handshake completed when initialize
        # was answered. Unknown notifications are dropped, as JSON-RPC asks.

    # -- eras ------------------------------------------------------------------------------

    def _request(self, conn: Connection, rid: RequestId, method: str, params: JSONObject) -> Reply:
        if conn.era is None:
            conn.era = "modern" if method != "initialize" and claims_modern(params) else "legacy"
        if conn.era == "modern":
            return self._modern(conn, rid, method, params)
        return self._legacy(conn, rid, method, params)

    def _legacy(self, conn: Connection, rid: RequestId, method: str, params: JSONObject) -> Reply:
        if method == "initialize":
            return _result(rid, self._initialize(conn, params))
        if claims_modern(params):
            raise RpcError(
                INVALID_REQUEST,
                "This connection serves the 2025-11-25 handshake era; requests carrying the "
                "2026-07-28 envelope are not accepted on it",
            )
        if method == "ping":
            return _result(rid, {})
        if method not in _SHARED_METHODS:
            raise method_not_found(method)
        if not conn.initialized:
            raise RpcError(INVALID_REQUEST, "Connection not initialized: send initialize first")
        meta = params.get("_meta")
        ctx = RequestContext(rid, method, params, conn, meta=dict(meta) if meta else {})
        return self._dispatch(ctx)

    def _modern(self, conn: Connection, rid: RequestId, method: str, params: JSONObject) -> Reply:
        if method == "initialize":
            raise unsupported_version(params.get("protocolVersion"))
        envelope = read_envelope(params)
        check_version(envelope)
        if method == "server/discover":
            ctx = RequestContext(rid, method, params, conn, envelope=envelope)
            result = {"supportedVersions": list(MODERN_VERSIONS), "capabilities": CAPABILITIES}
            return _result(rid, self._stamp(ctx, result))
        if method not in _SHARED_METHODS:
            raise method_not_found(method)
        ctx = RequestContext(rid, method, params, conn, envelope=envelope, meta=envelope.custom)
        return self._dispatch(ctx)

    def _initialize(self, conn: Connection, params: JSONObject) -> JSONObject:
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "initialize: protocolVersion must be a string")
        conn.protocol_version = negotiate_handshake(requested)
        info = params.get("clientInfo")
        conn.client_info = dict(info) if isinstance(info, Mapping) else None
        conn.initialized = True
        return {
            "protocolVersion": conn.protocol_version,
            "capabilities": CAPABILITIES,
            "serverInfo": dict(self.server_info),
        }

    # -- methods ---------------------------------------------------------------------------

    def _dispatch(self, ctx: RequestContext) -> Reply:
        method, params = ctx.method, ctx.params
        if method == "tools/list":
            return _result(ctx.request_id, self._stamp(ctx, {"tools": self.handlers.list_tools()}))
        if method == "resources/list":
            listed = {"resources": self.handlers.list_resources()}
            return _result(ctx.request_id, self._stamp(ctx, listed))
        if method == "resources/templates/list":
            listed = {"resourceTemplates": self.handlers.list_resource_templates()}
            return _result(ctx.request_id, self._stamp(ctx, listed))
        if method == "tools/call":
            name, arguments = params.get("name"), params.get("arguments")
            if not isinstance(name, str):
                raise RpcError(INVALID_PARAMS, "tools/call: name must be a string")
            if arguments is not None and not isinstance(arguments, Mapping):
                raise RpcError(INVALID_PARAMS, "tools/call: arguments must be an object")
            work = self.handlers.prepare_tool_call(ctx, name, dict(arguments or {}))
        else:  # resources/read
            uri = params.get("uri")
            if not isinstance(uri, str):
                raise RpcError(INVALID_PARAMS, "resources/read: uri must be a string")
            work = self.handlers.prepare_resource_read(ctx, uri)
        return self._defer(ctx, work)

    def _defer(self, ctx: RequestContext, work: Work) -> Reply:
        conn = ctx.connection
        conn.track(ctx)

        def run() -> JSONObject | None:
            try:
                if ctx.cancelled.is_set() and not ctx.answers_cancelled:
                    return None
                response = result_response(ctx.request_id, self._stamp(ctx, work()))
            except RpcError as exc:
                response = error_response(ctx.request_id, exc)
            except Exception:
                log.exception("%s failed", ctx.method)
                response = error_response(
                    ctx.request_id, RpcError(INTERNAL_ERROR, "Internal error")
                )
            finally:
                conn.finish(ctx)
            return None if ctx.cancelled.is_set() and not ctx.answers_cancelled else response

        return Reply(work=run)

    def _stamp(self, ctx: RequestContext, result: JSONObject) -> JSONObject:
        """Modern results carry ``resultType``, cache hints when cacheable, and the
        ``serverInfo`` stamp; legacy results go out exactly as built."""
        if not ctx.modern:
            return result
        stamped = {**result, "resultType": result.get("resultType", "complete")}
        if ctx.method in CACHEABLE:
            stamped["ttlMs"] = 0
            stamped["cacheScope"] = "private"
        meta = result.get("_meta")
        stamped["_meta"] = {**(meta or {}), SERVER_INFO_KEY: dict(self.server_info)}
        return stamped


_SHARED_METHODS = frozenset(
    {"tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"}
)


def _result(rid: RequestId, result: JSONObject) -> Reply:
    return Reply(response=result_response(rid, result))


def _error(rid: RequestId | None, exc: RpcError) -> Reply:
    return Reply(response=error_response(rid, exc))
