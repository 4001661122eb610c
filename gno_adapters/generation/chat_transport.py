"""One ``POST {base}/chat/completions`` to an OpenAI-compatible endpoint, shared by the
generator and the claim verifier: bounded answer size, a time limit, typed failures.

Nothing listening (or no connection within the limit) is ``MODEL_UNAVAILABLE``; a time-out
while waiting for the answer, an HTTP error status, an answer over ``MAX_RESPONSE_BYTES`` or
one that is not a chat completion is ``RUNTIME`` with ``details.reason`` (``timeout``,
``http_status``, ``too_large``, ``malformed``).
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from gno_core.errors import ModelUnavailableError, RuntimeFailure

MAX_RESPONSE_BYTES = 1024 * 1024


class ChatEndpoint:
    """The endpoint's address, model, key and time limit; ``complete`` sends one request."""

    def __init__(
        self,
        endpoint: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        self.url = endpoint.rstrip("/") + "/chat/completions"
        self.model = model
        self._headers = {"Content-Type": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self.timeout_seconds = timeout_seconds
        self._transport = transport
        self._max_bytes = max_response_bytes

    def complete(self, body: dict[str, Any], *, timeout_seconds: float | None = None) -> str:
        """The text of the first choice of the chat completion ``body`` asks for."""
        limit = self.timeout_seconds if timeout_seconds is None else timeout_seconds
        where = {"url": self.url}
        try:
            with (
                httpx.Client(timeout=limit, transport=self._transport) as client,
                client.stream("POST", self.url, json=body, headers=self._headers) as response,
            ):
                if response.status_code >= 400:
                    raise RuntimeFailure(
                        f"Chat endpoint answered HTTP {response.status_code}",
                        details={**where, "status": response.status_code, "reason": "http_status"},
                    )
                data = bytearray()
                for chunk in response.iter_bytes():
                    data += chunk
                    if len(data) > self._max_bytes:
                        raise RuntimeFailure(
                            f"Chat endpoint answer is larger than {self._max_bytes} bytes",
                            details={**where, "reason": "too_large"},
                        )
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise ModelUnavailableError(
                f"No chat endpoint answers at {self.url}: {exc}",
                details={**where, "reason": "unreachable"},
            ) from None
        except httpx.TimeoutException:
            raise RuntimeFailure(
                f"Chat endpoint did not answer within {limit:g} s",
                details={**where, "reason": "timeout", "timeoutSeconds": limit},
            ) from None
        except httpx.HTTPError as exc:
            raise RuntimeFailure(
                f"Chat endpoint failed: {exc}", details={**where, "reason": "transport"}
            ) from None
        return _content(bytes(data), self.url)


class ChatClient:
    """What the generator and the claim verifier share: one ``ChatEndpoint`` built from the
    user's endpoint settings. Both are ``InferenceDestination``s: passages they are given leave
    the process for the endpoint."""

    def __init__(
        self,
        endpoint: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._chat = ChatEndpoint(
            endpoint, model, api_key=api_key, timeout_seconds=timeout_seconds, transport=transport
        )

    def destination_zone(self) -> str:
        """The egress zone of the endpoint (``endpoint_zone``)."""
        return endpoint_zone(self._chat.url)


#: The strictest first: a name that resolves to several addresses is judged by the widest.
_ZONE_ORDER = ("unknown", "remote", "lan", "loopback")


def endpoint_zone(url: str) -> str:
    """Where a request to ``url`` goes: the zone of its host's address (``gno_core.egress.
    zones``); a name is resolved, and judged by the widest of its addresses (one that does not
    resolve is ``unknown``: nothing is sent to it under a policy)."""
    import socket
    from urllib.parse import urlsplit

    from gno_core.egress.zones import classify_peer

    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return "unknown"
    zone = classify_peer(host)
    if zone != "unknown" or not host:
        return zone
    if host.lower() == "localhost":
        return "loopback"
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return "unknown"
    zones = {classify_peer(str(info[4][0])) for info in infos} or {"unknown"}
    return next(z for z in _ZONE_ORDER if z in zones)


def _content(data: bytes, url: str) -> str:
    try:
        parsed: Any = json.loads(data)
        content = parsed["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise RuntimeFailure(
            "Chat endpoint answer is not an OpenAI chat completion",
            details={"url": url, "reason": "malformed"},
        ) from None
    if not isinstance(content, str):
        raise RuntimeFailure(
            "Chat endpoint answer has no text content", details={"url": url, "reason": "malformed"}
        )
    return content
