"""Boundary refusals: the one closed ``mcp-http-error@1.0`` body for 401/403/408/409/413/429/503
(409: the egress policy changed after the request was admitted; retry it).

Every refusal names a stable, redacted ``reason`` (``gno_core.contracts.gateway.HttpErrorReason``):
the rule that refused, never the token, the peer or the offending header value.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from gno_adapters.mcp.jsonrpc import RequestId

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

#: status -> (JSON-RPC code, message) of the closed body.
STATUS_ERRORS: dict[int, tuple[int, str]] = {
    401: (-32000, "Unauthorized"),
    403: (-32003, "Forbidden"),
    408: (-32000, "Request timeout"),
    409: (-32000, "Egress policy changed: retry"),
    413: (-32000, "Request body too large"),
    429: (-32000, "Too many requests"),
    503: (-32000, "Resident runtime unavailable"),
}
EGRESS_MESSAGE = "Operation blocked by collection egress policy"


class Refusal(Exception):
    """The gateway refuses a request before dispatch; ``send`` writes the closed body."""

    def __init__(
        self,
        status: int,
        reason: str,
        *,
        request_id: RequestId | None = None,
        retry_after: float | None = None,
        close: bool = False,
    ) -> None:
        super().__init__(f"{status} {reason}")
        self.status = status
        self.reason = reason
        self.request_id = request_id
        self.retry_after = retry_after
        #: Ask the client to close the connection (an unread body is still on it).
        self.close = close

    def payload(self) -> dict[str, Any]:
        code, message = STATUS_ERRORS[self.status]
        if self.reason == "egress_denied":
            message = EGRESS_MESSAGE
        return {
            "jsonrpc": "2.0",
            "id": self.request_id,
            "error": {
                "code": code,
                "message": message,
                "data": {"status": self.status, "reason": self.reason},
            },
        }

    def body(self) -> bytes:
        return json.dumps(self.payload(), separators=(",", ":")).encode()

    def headers(self) -> list[tuple[str, str]]:
        headers = [("content-type", "application/json"), ("cache-control", "no-store")]
        if self.status == 401:
            headers.append(("www-authenticate", 'Bearer realm="gno"'))
        if self.retry_after is not None:
            headers.append(("retry-after", str(max(1, round(self.retry_after)))))
        if self.close:
            headers.append(("connection", "close"))
        return headers

    async def send(self, send: Send) -> None:
        """Answer on a raw ASGI channel (the boundary runs before Quart sees the request)."""
        body = self.body()
        headers = [(k.encode(), v.encode()) for k, v in self.headers()]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
