"""The external boundary: runs on every request, every method and path, before the app.

Order: shutdown (503), requests in flight per socket peer (429), then from the headers alone the
proxy rule (403), exact ``Host`` (403), exact ``Origin`` when present (403), rate per socket peer
(429), credentials (bearer 401, or the loopback rule 403) and declared body size (413); then the
whole body, bounded in size (413) and time (408); then an active/queued slot (429/503). The peer is the socket's (``scope["client"]``), never
``Forwarded`` / ``X-Forwarded-*``. Those headers are still read for one purpose: a request that
carries any of them came through a proxy, so it is never treated as a loopback caller even when
the socket peer is loopback (a same-host reverse proxy makes every caller look local): it needs a
configured and presented bearer token, and its ``Host`` (and ``Origin``, when present) must be in
the explicitly configured allowlists, never the loopback defaults.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal

from gno_adapters.http.admission import Admission, PeerConnections, RateLimiter
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
    #: A proxy relayed the request: the socket peer is the proxy, never the caller.
    proxied: bool = False

    @property
    def authenticated(self) -> bool:
        """The caller proved a bearer token (a loopback caller without one did not)."""
        return self.identity != LOOPBACK_IDENTITY


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
        peer = peer_of(scope)
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
            proxied=proxied,
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
    """ASGI middleware: a per-peer place, the boundary, the whole body (bounded in size and
    time), then an admission slot, then the app.

    The body is read before a slot is taken, so a peer that trickles its body (or never sends
    it) holds only its own per-peer places, never a slot another peer is waiting for. A
    2025-era GET stream holds neither a slot nor a per-peer place for its lifetime (the session
    limit bounds streams); the health and status routes answer from memory and take no slot,
    so they never wait behind ``/mcp`` work.
    """

    def __init__(
        self,
        app: ASGIApp,
        policy: BoundaryPolicy,
        admission: Admission,
        peers: PeerConnections,
        *,
        body_timeout: float,
        stream_path: str = "/mcp",
        unmetered: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.policy = policy
        self.admission = admission
        self.peers = peers
        self.body_timeout = body_timeout
        self.stream_path = stream_path
        #: GET paths served without an admission slot.
        self.unmetered = unmetered

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await send({"type": "websocket.close", "code": 1008})
            return
        peer = peer_of(scope)
        try:
            self.admission.refuse_if_closed()
            self.peers.enter(peer)
        except Refusal as refusal:
            # Holding no per-peer place, this request gets only a short window to finish
            # sending its body; then the connection closes either way.
            refusal.close = True
            await self._refuse_unread(refusal, scope, receive, send, min(self.body_timeout, 1.0))
            return
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                self.peers.leave(peer)

        try:
            await self._admit(scope, receive, send, release)
        finally:
            release()

    async def _admit(
        self, scope: Scope, receive: Receive, send: Send, release: Callable[[], None]
    ) -> None:
        try:
            scope[CALLER_KEY] = self.policy.check(scope)
        except Refusal as refusal:
            await self._refuse_unread(refusal, scope, receive, send, self.body_timeout)
            return
        try:
            body = await self._read_body(receive)
        except Refusal as refusal:
            await refusal.send(send)
            return
        if body is None:
            return  # the client went away while sending
        replay = _replay(body, receive)
        metered = True
        if scope["method"] == "GET":
            if scope["path"] == self.stream_path:
                release()
                await self.app(scope, replay, send)
                return
            metered = scope["path"] not in self.unmetered
        if metered:
            try:
                await self.admission.enter()
            except Refusal as refusal:
                await refusal.send(send)
                return
        try:
            await self.app(scope, replay, send)
        finally:
            if metered:
                self.admission.leave()

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or ``Refusal`` 413 as soon as it passes the limit, or 408 when it
        is not complete within the body deadline; ``None`` if the client disconnected."""
        limit = self.policy.max_body_bytes
        parts: list[bytes] = []
        seen = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return None
                    chunk = message.get("body", b"")
                    seen += len(chunk)
                    if seen > limit:
                        raise Refusal(413, "body_too_large", close=True)
                    parts.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(parts)
        except TimeoutError:
            raise Refusal(408, "body_timeout", close=True) from None

    async def _refuse_unread(
        self, refusal: Refusal, scope: Scope, receive: Receive, send: Send, seconds: float
    ) -> None:
        """Answer a refusal made from the headers alone. A body declared past ``DRAIN_LIMIT``
        for a 413 (past the body limit otherwise, or malformed) is refused at once and the
        connection closed. A smaller one is read and dropped first, within ``seconds``: closing
        a socket with unread data in it resets the connection, and the reset can destroy the
        refusal before the client (or a reverse proxy) has read it."""
        declared = declared_length(scope)
        limit = DRAIN_LIMIT if refusal.status == 413 else self.policy.max_body_bytes
        oversized = declared is not None and not 0 <= declared <= limit
        if oversized or not await _drain(receive, limit, seconds):
            refusal.close = True
        await refusal.send(send)


def peer_of(scope: Scope) -> str:
    """The socket peer's address: the only peer identity the gateway trusts."""
    client = scope.get("client")
    return str(client[0]) if client else "local-socket"


def declared_length(scope: Scope) -> int | None:
    """The ``Content-Length`` the request declared, ``None`` without one, -1 if malformed or
    repeated."""
    values = [value for name, value in scope.get("headers", ()) if name == b"content-length"]
    if not values:
        return None
    if len(values) != 1:
        return -1
    try:
        declared = int(values[0])
    except ValueError:
        return -1
    return declared if declared >= 0 else -1


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that yields the already-read body once, then the client's own events (a
    disconnect, which the app listens for)."""
    pending = True

    async def replay() -> MutableMapping[str, Any]:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _drain(receive: Receive, limit: int, seconds: float) -> bool:
    """Read and discard a refused body of up to ``limit`` bytes within ``seconds``; ``False``
    when it was larger, slower, or the client left."""
    seen = 0
    try:
        async with asyncio.timeout(seconds):
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return False
                seen += len(message.get("body", b""))
                if seen > limit:
                    return False
                if not message.get("more_body", False):
                    return True
    except TimeoutError:
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
