"""``/mcp``: both protocol eras behind one enforcement path.

The boundary middleware has already checked the caller and holds an admission slot. Here a
POST body is read (bounded), parsed and classified: it claims the 2026-07-28 era when its
``params._meta`` names a protocol version or its ``MCP-Protocol-Version`` header names a modern
revision; anything else, and every GET or DELETE, is 2025-era traffic for the session store.

The modern leg is sessionless: each request gets its own ``Connection`` labelled with the
caller's ``http:<16 hex>`` identity, after the spec's ladder (session id or batch -32600,
envelope -32602, routing headers -32020, version -32022; ``initialize`` and
``subscriptions/listen`` -32601 with 404). The legacy leg issues ``Mcp-Session-Id`` on
``initialize`` and serves POST, an SSE GET stream (no resumption) and DELETE. On both legs a
write tool is refused with 403 before dispatch unless writes are enabled, and the protocol
engine (``gno_adapters.mcp``) answers everything else.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import re
from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any

from quart import Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from gno_adapters.http.boundary import CALLER_KEY, Caller
from gno_adapters.http.egress import EgressBook, EgressGate, Ticket
from gno_adapters.http.refusals import Refusal
from gno_adapters.http.sessions import LegacySession
from gno_adapters.mcp import jsonrpc
from gno_adapters.mcp.context import Connection
from gno_adapters.mcp.envelope import (
    HANDSHAKE_VERSIONS,
    MODERN_VERSIONS,
    check_version,
    claims_modern,
    read_envelope,
)
from gno_adapters.mcp.frames import FrameError, decode_frame, json_bytes

if TYPE_CHECKING:
    from gno_adapters.http.gateway import Gateway

log = logging.getLogger("gno.http")

#: 2026-07-28 HTTP status per JSON-RPC error code; anything unlisted (and every result) is 200.
MODERN_STATUS: dict[int, int] = {
    jsonrpc.PARSE_ERROR: 400,
    jsonrpc.INVALID_REQUEST: 400,
    jsonrpc.INVALID_PARAMS: 400,
    jsonrpc.HEADER_MISMATCH: 400,
    -32021: 400,  # MissingRequiredClientCapability
    jsonrpc.UNSUPPORTED_PROTOCOL_VERSION: 400,
    jsonrpc.METHOD_NOT_FOUND: 404,
}
#: Methods whose ``Mcp-Name`` header must repeat a body parameter.
NAME_BEARING = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
#: Refused on the modern leg before dispatch: no handshake, and no subscription streams yet.
MODERN_REFUSED = frozenset({"initialize", "subscriptions/listen"})
ROUTING_HEADERS = ("MCP-Protocol-Version", "Mcp-Method", "Mcp-Name")
SESSION_HEADER = "Mcp-Session-Id"
SESSION_NOT_FOUND = -32001
_B64 = re.compile(r"=\?base64\?(?P<payload>[A-Za-z0-9+/]*={0,2})\?=")
JSON_HEADERS = {"Cache-Control": "no-store"}
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
#: What a stream opened under an older egress epoch carries before it ends (content-free).
POLICY_CHANGED_EVENT = (
    b'event: egress_policy_changed\ndata: {"code":"EGRESS_POLICY_CHANGED","retry":true}\n\n'
)


class McpTransport:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.engine = gateway.engine
        self.sessions = gateway.sessions
        self.pool = gateway.pool
        self.enable_write = gateway.settings.enable_write
        self.write_names = gateway.handlers.write_tool_names()
        self.keepalive = gateway.settings.keepalive_seconds
        self.max_body_bytes = gateway.settings.max_body_bytes
        self.gate = EgressGate()

    async def handle(self) -> Response:
        scope: Any = request.scope
        caller: Caller = scope[CALLER_KEY]
        try:
            if request.method == "POST":
                return await self._post(caller)
            if request.method == "GET":
                return await self._get(caller)
            if request.method == "DELETE":
                return self._delete(caller)
            problem = jsonrpc.RpcError(-32000, f"Method Not Allowed: {request.method} /mcp")
            return _json(405, jsonrpc.error_response(None, problem), {"Allow": "GET, POST, DELETE"})
        except Refusal as refusal:
            return refusal_response(refusal)
        except _Answer as answer:
            return answer.response

    # -- POST ------------------------------------------------------------------------------

    async def _post(self, caller: Caller) -> Response:
        try:
            raw = await request.get_data(cache=False, as_text=False, parse_form_data=False)
        except RequestEntityTooLarge:
            raise Refusal(413, "body_too_large", close=True) from None
        try:
            message = decode_frame(raw, max_bytes=self.max_body_bytes)
        except FrameError as exc:
            return _error(400, exc.request_id, exc.error)
        versions = request.headers.getlist("MCP-Protocol-Version")
        header_version = versions[0].strip() if versions else None
        if _claims_modern(message) or header_version in MODERN_VERSIONS:
            return await self._modern(message, caller)
        return await self._legacy(message, caller, header_version)

    async def _modern(self, message: Any, caller: Caller) -> Response:
        if isinstance(message, list):
            return _error(
                400, None, jsonrpc.RpcError(jsonrpc.INVALID_REQUEST, "Batches are not accepted")
            )
        if not isinstance(message, dict):
            return _error(
                400, None, jsonrpc.RpcError(jsonrpc.INVALID_REQUEST, "A message must be an object")
            )
        rid = _request_id(message)
        if request.headers.get(SESSION_HEADER) is not None:
            problem = jsonrpc.RpcError(
                jsonrpc.INVALID_REQUEST,
                "Mcp-Session-Id is not accepted on a 2026-07-28 request: sessions belong to the "
                "2025-11-25 handshake era",
            )
            return _error(400, rid, problem)
        method = message.get("method")
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            problem = jsonrpc.RpcError(
                jsonrpc.INVALID_REQUEST, "A 2026-07-28 message must be a request"
            )
            return _error(400, rid, problem)
        try:
            self._ladder(message, method)
        except jsonrpc.RpcError as exc:
            return _error(MODERN_STATUS.get(exc.code, 400), rid, exc)
        if method in MODERN_REFUSED:
            if "id" not in message:
                return Response(b"", status=202)
            return _error(404, rid, jsonrpc.method_not_found(method))
        self._write_gate(message, rid)
        ticket = await self._egress(message, caller)
        connection = Connection.modern("http", identity=caller.label)
        return await self._answer(connection, message, modern=True, ticket=ticket)

    def _ladder(self, message: jsonrpc.JSONObject, method: str) -> None:
        headers = request.headers
        for name in ROUTING_HEADERS:
            if len(headers.getlist(name)) > 1:
                raise _mismatch(name, f"{name} is repeated")
        envelope = read_envelope(message.get("params"))
        version = headers.get("MCP-Protocol-Version")
        if version is None:
            raise _mismatch(
                "MCP-Protocol-Version", "MCP-Protocol-Version is required on 2026-07-28 requests"
            )
        if version.strip() != envelope.protocol_version:
            raise _mismatch(
                "MCP-Protocol-Version",
                "MCP-Protocol-Version does not match the request's _meta protocolVersion",
            )
        if _header_value(headers.get("Mcp-Method")) != method:
            raise _mismatch("Mcp-Method", "Mcp-Method does not match the request's method")
        key = NAME_BEARING.get(method)
        if key is not None:
            params = message.get("params")
            value = params.get(key) if isinstance(params, Mapping) else None
            if value is not None and _header_value(headers.get("Mcp-Name")) != value:
                raise _mismatch("Mcp-Name", f"Mcp-Name does not match the request's {key}")
        check_version(envelope)

    async def _legacy(self, message: Any, caller: Caller, header_version: str | None) -> Response:
        if isinstance(message, list):
            return _error(
                400,
                None,
                jsonrpc.RpcError(jsonrpc.INVALID_REQUEST, "Batch requests are not supported"),
            )
        if not isinstance(message, dict):
            return _error(
                400, None, jsonrpc.RpcError(jsonrpc.INVALID_REQUEST, "A message must be an object")
            )
        rid = _request_id(message)
        if header_version is not None and header_version not in HANDSHAKE_VERSIONS:
            problem = jsonrpc.RpcError(
                jsonrpc.INVALID_REQUEST,
                f"Unsupported MCP-Protocol-Version: {header_version}",
                {"supported": [*HANDSHAKE_VERSIONS, *MODERN_VERSIONS]},
            )
            return _error(400, rid, problem)
        sids = request.headers.getlist(SESSION_HEADER)
        if message.get("method") == "initialize" and "id" in message:
            if sids:
                problem = jsonrpc.RpcError(
                    jsonrpc.INVALID_REQUEST,
                    "initialize opens a new session: send it without Mcp-Session-Id",
                )
                return _error(400, rid, problem)
            return self._initialize(message, caller)
        session = self._session(sids, caller, rid)
        self._write_gate(message, rid)
        ticket = await self._egress(message, caller)
        return await self._answer(session.connection, message, modern=False, ticket=ticket)

    def _initialize(self, message: jsonrpc.JSONObject, caller: Caller) -> Response:
        session = self.sessions.open(
            identity=caller.identity, label=caller.label, epoch=caller.epoch
        )
        reply = self.engine.handle(session.connection, message)
        response = reply.response
        if response is None or "error" in response:
            self.sessions.end(session.id)
            return _json(200, response)
        return _json(200, response, {SESSION_HEADER: session.id})

    async def _answer(
        self,
        connection: Connection,
        message: jsonrpc.JSONObject,
        *,
        modern: bool,
        ticket: Ticket | None = None,
    ) -> Response:
        reply = self.engine.handle(connection, message)
        response = reply.response
        work = reply.work
        if ticket is not None and not ticket.local:
            # Held to the policy on the worker, right after the work: the epoch it was admitted
            # under, the scope that may go, a receipt; nothing protected is written otherwise.
            work = _released(ticket, work, response, self._book)
        if work is not None:
            write = _tool_name(message) in self.write_names
            try:
                response = await self.pool.run(work, write=write)
            except asyncio.CancelledError:
                connection.cancel(message.get("id"))  # the client went away: drop the result
                raise
        if response is None:
            return Response(b"", status=202)
        status = 200
        if modern and "error" in response:
            status = MODERN_STATUS.get(response["error"].get("code"), 200)
        return _json(status, response, sse=_wants_sse())

    async def _egress(self, message: jsonrpc.JSONObject, caller: Caller) -> Ticket | None:
        """The pre-dispatch egress check (``gno_adapters.http.egress``): free for a loopback
        caller, one policy read on a worker for any other."""

        def admit(zone: str | None = None) -> Ticket | None:
            return self.gate.admit(
                message,
                peer=caller.peer,
                proxied=caller.proxied,
                authenticated=caller.authenticated,
                book=self._book,
                zone=zone,
            )

        if caller.zone == "loopback":  # the boundary's: the socket peer, never proxied
            return admit("loopback")
        return await self.pool.run(admit)

    def _book(self) -> EgressBook | None:
        return self.gateway.egress_book(self.pool.get())

    async def _epoch(self) -> int | None:
        """The current egress epoch (read on a worker); ``None`` without a policy book."""

        def read() -> int | None:
            book = self._book()
            return None if book is None else book.epoch()

        return await self.pool.run(read)

    def _write_gate(self, message: jsonrpc.JSONObject, rid: jsonrpc.RequestId | None) -> None:
        if not self.enable_write and _tool_name(message) in self.write_names:
            raise Refusal(403, "write_disabled", request_id=rid)

    # -- GET and DELETE (2025-era sessions) ------------------------------------------------

    def _session(
        self, sids: list[str], caller: Caller, rid: jsonrpc.RequestId | None = None
    ) -> LegacySession:
        if not sids:
            problem = jsonrpc.RpcError(-32000, "Bad Request: Mcp-Session-Id header is required")
            raise _Answer(_error(400, rid, problem))
        if len(sids) > 1:
            problem = jsonrpc.RpcError(-32000, "Bad Request: Mcp-Session-Id is repeated")
            raise _Answer(_error(400, rid, problem))
        session = self.sessions.find(sids[0], identity=caller.identity, epoch=caller.epoch)
        if session is None:
            problem = jsonrpc.RpcError(
                SESSION_NOT_FOUND, "Session not found: initialize a new session"
            )
            raise _Answer(_error(404, rid, problem))
        return session

    async def _get(self, caller: Caller) -> Response:
        accept = request.headers.get("Accept", "")
        if "text/event-stream" not in accept and "*/*" not in accept:
            problem = jsonrpc.RpcError(-32000, "Not Acceptable: GET /mcp opens a text/event-stream")
            return _error(406, None, problem)
        session = self._session(request.headers.getlist(SESSION_HEADER), caller)
        if session.streaming:
            problem = jsonrpc.RpcError(
                -32000, "Conflict: this session already has a GET stream open"
            )
            return _error(409, None, problem)
        ended, keepalive = session.ended, self.keepalive
        epoch = None if caller.zone == "loopback" else await self._epoch()
        session.streaming = True

        async def events() -> AsyncIterator[bytes]:
            # Nothing is ever pushed on this stream (gno sends no server-to-client requests or
            # list changes); it carries comments until the session ends. No event ids: the
            # stream is not resumable. Beyond loopback, the egress epoch it opened under is
            # checked before every keepalive: after a policy change the stream carries the
            # content-free retry event and ends.
            try:
                yield b": stream open\n\n"
                while not ended.is_set():
                    try:
                        await asyncio.wait_for(ended.wait(), keepalive)
                    except TimeoutError:
                        if epoch is not None and await self._epoch() != epoch:
                            yield POLICY_CHANGED_EVENT
                            return
                        yield b": keepalive\n\n"
            finally:
                session.streaming = False

        response = Response(events(), status=200, content_type="text/event-stream")
        response.headers.update(SSE_HEADERS)
        response.timeout = None  # Quart's 60 s response timeout would end the stream
        return response

    def _delete(self, caller: Caller) -> Response:
        session = self._session(request.headers.getlist(SESSION_HEADER), caller)
        self.sessions.end(session.id)
        return Response(b"", status=204)


def _released(
    ticket: Ticket,
    work: Callable[[], jsonrpc.JSONObject | None] | None,
    response: jsonrpc.JSONObject | None,
    book: Callable[[], EgressBook | None],
) -> Callable[[], jsonrpc.JSONObject | None]:
    def run() -> jsonrpc.JSONObject | None:
        answer = work() if work is not None else response
        return ticket.release(answer, book())

    return run


class _Answer(Exception):
    """A finished response raised out of a helper."""

    def __init__(self, response: Response) -> None:
        super().__init__("answer")
        self.response = response


def refusal_response(refusal: Refusal) -> Response:
    response = Response(refusal.body(), status=refusal.status)
    for name, value in refusal.headers():
        response.headers[name] = value
    return response


def _json(
    status: int,
    payload: jsonrpc.JSONObject | None,
    headers: dict[str, str] | None = None,
    *,
    sse: bool = False,
) -> Response:
    body = json_bytes(payload)
    if sse:
        response = Response(b"event: message\ndata: " + body + b"\n\n", status=status)
        response.content_type = "text/event-stream"
        response.headers.update(SSE_HEADERS)
    else:
        response = Response(body, status=status, content_type="application/json")
        response.headers.update(JSON_HEADERS)
    if headers:
        response.headers.update(headers)
    return response


def _error(status: int, rid: jsonrpc.RequestId | None, problem: jsonrpc.RpcError) -> Response:
    return _json(status, jsonrpc.error_response(rid, problem))


def _mismatch(header: str, message: str) -> jsonrpc.RpcError:
    return jsonrpc.RpcError(jsonrpc.HEADER_MISMATCH, message, {"mismatch": header})


def _claims_modern(message: Any) -> bool:
    if isinstance(message, list):
        return any(isinstance(m, dict) and claims_modern(m.get("params")) for m in message)
    return isinstance(message, dict) and claims_modern(message.get("params"))


def _request_id(message: jsonrpc.JSONObject) -> jsonrpc.RequestId | None:
    rid = message.get("id")
    return rid if jsonrpc.is_request_id(rid) else None


def _tool_name(message: jsonrpc.JSONObject) -> str | None:
    if message.get("method") != "tools/call":
        return None
    params = message.get("params")
    name = params.get("name") if isinstance(params, Mapping) else None
    return name if isinstance(name, str) else None


def _header_value(value: str | None) -> str | None:
    """A routing header's value, decoding the ``=?base64?...?=`` sentinel for non-ASCII text;
    a malformed sentinel never matches anything."""
    if value is None:
        return None
    value = value.strip()
    match = _B64.fullmatch(value)
    if match is None:
        return value
    try:
        decoded = base64.b64decode(match["payload"], validate=True)
        return decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def _wants_sse() -> bool:
    """JSON unless the client accepts only an event stream."""
    accept = request.headers.get("Accept", "")
    if not accept or "application/json" in accept or "*/*" in accept or "application/*" in accept:
        return False
    return "text/event-stream" in accept
