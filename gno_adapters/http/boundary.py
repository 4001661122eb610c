"""The external boundary: runs on every request, every method and path, before the body is read.

Order: shutdown (503), the proxy rule (403), exact ``Host`` (403), exact ``Origin`` when present
(403), rate per socket peer (429), credentials (bearer 401, or the loopback rule 403), declared
body size (413), then an active/queued slot (429/503). The peer is the socket's (``scope["client"]``), never
``Forwarded`` / ``X-Forwarded-*``. Those headers are still read for one purpose: a request that
carries any of them came through a proxy, so it is never treated as a loopback caller even when
the socket peer is loopback (a same-host reverse proxy makes every caller look local): it needs a
configured and presented bearer token, and its ``Host`` (and ``Origin``, when present) must be in
the explicitly configured allowlists, never the loopback defaults.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal

from gno_adapters.http.admission import Admission, RateLimiter
from gno_adapters.http.refusals import Refusal
from gno_adapters.http.token import BearerToken

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Zone = Literal["loopback", "remote"]
CALLER_KEY = "gno.caller"
LOOPBACK_IDENTITY = "loopback"
#: A body refused by its declared length is still read and dropped up to this size.
DRAIN_LIMIT = 8 * 1024 * 1024
#: Any of these means a proxy relayed the request.
PROXY_HEADERS = frozenset(
    {
        b"forwarded",
        b"x-forwarded-for",
        b"x-forwarded-host",
        b"x-forwarded-proto",
        b"x-forwarded-port",
        b"x-real-ip",
        b"via",
    }
)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is asking: the socket peer, its zone, and the security identity it proved."""

    peer: str
    zone: Zone
    identity: str
    #: Opaque per-caller label ``http:<16 hex>`` exposed to tools.
    label: str
    epoch: int


class BoundaryPolicy:
    """The checks themselves, free of ASGI plumbing (unit-testable on a header list)."""

    def __init__(
        self,
        *,
        allowed_hosts: frozenset[str],
        allowed_origins: frozenset[str],
        token: BearerToken | None,
        proxied_hosts: frozenset[str] = frozenset(),
        proxied_origins: frozenset[str] = frozenset(),
        limiter: RateLimiter,
        max_body_bytes: int,
        instance_id: str,
        on_epoch: Callable[[int], object] = lambda epoch: None,
    ) -> None:
        self.allowed_hosts = allowed_hosts
        self.allowed_origins = allowed_origins
        #: What a proxied request may name: the configured values only.
        self.proxied_hosts = proxied_hosts
        self.proxied_origins = proxied_origins
        self.token = token
        self.limiter = limiter
        self.max_body_bytes = max_body_bytes
        self.instance_id = instance_id
        self._on_epoch = on_epoch
        self._epoch = token.epoch if token else 0
        self._labels: dict[str, str] = {}

    def check(self, scope: Scope) -> Caller:
        host: list[bytes] = []
        origin: list[bytes] = []
        authorization: list[bytes] = []
        length: list[bytes] = []
        proxied = False
        for name, value in scope.get("headers", ()):
            if name == b"host":
                host.append(value)
            elif name == b"origin":
                origin.append(value)
            elif name == b"authorization":
                authorization.append(value)
            elif name == b"content-length":
                length.append(value)
            elif name in PROXY_HEADERS:
                proxied = True
        if proxied and self.token is None:
            raise Refusal(403, "proxied_request_unauthenticated")
        hosts = self.proxied_hosts if proxied else self.allowed_hosts
        origins = self.proxied_origins if proxied else self.allowed_origins
        if len(host) != 1 or _text(host[0]).lower() not in hosts:
            raise Refusal(403, "host_not_allowed")
        if origin and (len(origin) != 1 or _text(origin[0]).lower() not in origins):
            raise Refusal(403, "origin_not_allowed")
        client = scope.get("client")
        peer = str(client[0]) if client else "local-socket"
        self.limiter.check(peer)
        loopback = not proxied and _is_loopback(peer)
        identity, epoch = self._authenticate(authorization, loopback, proxied)
        if length:
            try:
                declared = int(length[0])
            except ValueError:
                declared = -1
            if len(length) != 1 or declared < 0:
                raise Refusal(413, "body_too_large")
            if declared > self.max_body_bytes:
                raise Refusal(413, "body_too_large")
        return Caller(
            peer=peer,
            zone="loopback" if loopback else "remote",
            identity=identity,
            label=self.label(identity),
            epoch=epoch,
        )

    def _authenticate(
        self, authorization: list[bytes], loopback: bool, proxied: bool
    ) -> tuple[str, int]:
        token = self.token
        if token is None:
            if loopback:
                return LOOPBACK_IDENTITY, 0
            raise Refusal(403, "peer_not_allowed")
        usable = token.refresh()
        if token.epoch != self._epoch:
            self._epoch = token.epoch
            self._on_epoch(token.epoch)
        if not usable:
            raise Refusal(503, "credentials_unavailable")
        if not authorization:
            raise Refusal(401, "bearer_required")
        scheme, _, presented = _text(authorization[0]).strip().partition(" ")
        if len(authorization) != 1 or scheme.lower() != "bearer":
            raise Refusal(401, "bearer_invalid")
        if not token.matches(presented.strip()):
            raise Refusal(401, "bearer_invalid")
        return token.identity(), token.epoch

    def label(self, identity: str) -> str:
        """``http:<16 hex>``: a hash of this server instance and the security identity."""
        label = self._labels.get(identity)
        if label is None:
            digest = hashlib.sha256(f"{self.instance_id}\0{identity}".encode()).hexdigest()
            label = "http:" + digest[:16]
            if len(self._labels) > 1024:
                self._labels.clear()
            self._labels[identity] = label
        return label


class BoundaryMiddleware:
    """ASGI middleware: the boundary, then an admission slot, then the app.

    A 2025-era GET stream holds no active slot for its lifetime (it is bounded by the session
    limit instead); everything else does, until its response is complete.
    """

    def __init__(
        self,
        app: ASGIApp,
        policy: BoundaryPolicy,
        admission: Admission,
        *,
        stream_path: str = "/mcp",
    ) -> None:
        self.app = app
        self.policy = policy
        self.admission = admission
        self.stream_path = stream_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await send({"type": "websocket.close", "code": 1008})
            return
        try:
            self.admission.refuse_if_closed()
            scope[CALLER_KEY] = self.policy.check(scope)
            if scope["method"] == "GET" and scope["path"] == self.stream_path:
                await self.app(scope, receive, send)
                return
            await self.admission.enter()
        except Refusal as refusal:
            if refusal.status == 413 and not await _drain(receive, DRAIN_LIMIT):
                refusal.close = True
            await refusal.send(send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.admission.leave()


async def _drain(receive: Receive, limit: int) -> bool:
    """Read and discard a refused body of up to ``limit`` bytes, so that a reverse proxy still
    sending it receives the 413 rather than a reset; ``False`` when it was larger."""
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return False
        seen += len(message.get("body", b""))
        if not message.get("more_body", False):
            return True
        if seen > limit:
            return False


def _text(value: bytes) -> str:
    return value.decode("latin-1")


def _is_loopback(peer: str) -> bool:
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback
