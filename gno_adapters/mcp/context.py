"""Per-connection and per-request state, shared by every transport.

A ``Connection`` is one protocol peer: a stdio process, a 2025-era HTTP session, or (for the
sessionless 2026 leg) a single HTTP request. A ``RequestContext`` is one request in flight on
it; its ``cancelled`` event is how ``notifications/cancelled`` reaches the work.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Literal

from gno_adapters.mcp.envelope import Envelope
from gno_adapters.mcp.jsonrpc import JSONObject, RequestId

Era = Literal["legacy", "modern"]


class Connection:
    """Protocol state of one peer. ``era`` is ``None`` until the first request pins it (stdio);
    transports that route by era up front build the connection already pinned."""

    def __init__(
        self,
        *,
        transport: str,
        era: Era | None = None,
        identity: str | None = None,
        session_id: str | None = None,
    ) -> None:
        self.transport = transport
        self.era: Era | None = era
        #: Opaque per-caller label (``http:<16 hex>`` on HTTP); never a credential.
        self.identity = identity
        #: The 2025-era HTTP session this connection is, if any.
        self.session_id = session_id
        self.protocol_version: str | None = None
        self.initialized = False
        self.client_info: JSONObject | None = None
        self._in_flight: dict[RequestId, RequestContext] = {}
        self._lock = threading.Lock()

    @classmethod
    def pinned_by_first_request(cls, transport: str = "stdio") -> Connection:
        return cls(transport=transport)

    @classmethod
    def legacy(
        cls, transport: str, *, identity: str | None = None, session_id: str | None = None
    ) -> Connection:
        return cls(transport=transport, era="legacy", identity=identity, session_id=session_id)

    @classmethod
    def modern(cls, transport: str, *, identity: str | None = None) -> Connection:
        return cls(transport=transport, era="modern", identity=identity)

    def track(self, ctx: RequestContext) -> None:
        with self._lock:
            self._in_flight[ctx.request_id] = ctx

    def finish(self, ctx: RequestContext) -> None:
        with self._lock:
            if self._in_flight.get(ctx.request_id) is ctx:
                del self._in_flight[ctx.request_id]

    def cancel(self, request_id: object) -> bool:
        """Mark the in-flight request ``request_id`` cancelled; ``False`` when none matches
        (it already finished, or never existed: both are normal races)."""
        with self._lock:
            ctx = self._in_flight.get(request_id) if isinstance(request_id, str | int) else None
        if ctx is None:
            return False
        ctx.cancelled.set()
        return True

    def in_flight(self) -> int:
        with self._lock:
            return len(self._in_flight)


@dataclass(slots=True)
class RequestContext:
    """One request: what was asked, on which connection, under which claim.

    ``meta`` holds the caller's own ``_meta`` keys unchanged; on a modern request the reserved
    ``io.modelcontextprotocol/*`` keys are lifted out into ``envelope``.
    """

    request_id: RequestId
    method: str
    params: JSONObject
    connection: Connection
    envelope: Envelope | None = None
    meta: JSONObject = field(default_factory=dict)
    cancelled: threading.Event = field(default_factory=threading.Event)
    #: The work answers even when cancelled: its answer then says it is incomplete
    #: (``gno_audit``'s partial report). Every other cancelled request gets no answer.
    answers_cancelled: bool = False

    @property
    def modern(self) -> bool:
        return self.connection.era == "modern"

    @property
    def request_identity(self) -> str | None:
        """Who is asking, as an opaque label: the transport's per-caller identity (the memory
        ``session`` when no transport session exists), or ``None`` on stdio."""
        return self.connection.identity

    @property
    def protocol_version(self) -> str | None:
        if self.envelope is not None:
            return self.envelope.protocol_version
        return self.connection.protocol_version
