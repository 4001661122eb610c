"""JSON-RPC 2.0 framing: error codes, the error exception, and response builders."""

from __future__ import annotations

from typing import Any

JSONObject = dict[str, Any]
RequestId = str | int

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
#: 2026-07-28: HTTP routing headers disagree with the body (HTTP transport only).
HEADER_MISMATCH = -32020
#: 2026-07-28: the request names a protocol revision this server does not serve.
UNSUPPORTED_PROTOCOL_VERSION = -32022


class RpcError(Exception):
    """A JSON-RPC error answer. Raised anywhere below the engine; the engine writes it."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def body(self) -> JSONObject:
        error: JSONObject = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def method_not_found(method: str) -> RpcError:
    return RpcError(METHOD_NOT_FOUND, "Method not found", {"method": method})


def result_response(request_id: RequestId, result: JSONObject) -> JSONObject:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error_response(request_id: RequestId | None, error: RpcError) -> JSONObject:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.body()}


def is_request_id(value: object) -> bool:
    """MCP ids are strings or integers; ``null`` and booleans are not ids."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
