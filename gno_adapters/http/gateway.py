"""One resident gateway: the MCP engine over a facade pool, sessions, limits and the boundary.

Built once per listener, after the port is known (the loopback ``Host``/``Origin`` defaults
name it). Every HTTP client shares its handlers, tool registry and facades; the tool profile
and the write gate are read here, once.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from gno_adapters.http.admission import Admission, PeerConnections, RateLimiter
from gno_adapters.http.boundary import BoundaryPolicy
from gno_adapters.http.egress import EgressBookOf, facade_book
from gno_adapters.http.sessions import SessionStore
from gno_adapters.http.settings import GatewaySettings, default_hosts, default_origins
from gno_adapters.http.token import BearerToken
from gno_adapters.http.workers import FacadePool
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.server import GnoHandlers, build_engine
from gno_core.surface import OPERATIONS, FacadeFactory

if TYPE_CHECKING:
    from gno_core.contracts import ResidentStatus

log = logging.getLogger("gno.http")


class Gateway:
    def __init__(
        self,
        settings: GatewaySettings,
        factory: FacadeFactory,
        *,
        port: int,
        token: BearerToken | None = None,
        capabilities: Iterable[str] = OPERATIONS,
        tools: tuple[ToolDef, ...] | None = None,
        egress_book: EgressBookOf | None = None,
    ) -> None:
        self.settings = settings.with_port(port)
        self.instance_id = secrets.token_hex(16)
        self.started = time.monotonic()
        if token is None and settings.token_file is not None:
            token = BearerToken.open(settings.token_file)
        self.token = token
        self.capabilities = frozenset(capabilities)
        #: Where a worker's facade keeps the egress policies, their epoch and the receipts.
        self.egress_book: EgressBookOf = egress_book or facade_book
        self.pool = FacadePool(factory, readers=settings.workers)
        self.handlers = GnoHandlers(
            self.pool.get,
            profile=settings.tool_profile,
            enable_write=settings.enable_write,
            capabilities=self.capabilities,
            tools=tools,
            facades=self.pool,
            transport_status=self.resident_status,
            job_factory=factory,
        )
        self.engine = build_engine(self.handlers)
        self.sessions = SessionStore(settings.max_sessions, settings.session_idle_seconds)
        self.admission = Admission(settings.max_active_requests, settings.max_queued_requests)
        self.peers = PeerConnections(settings.max_connections_per_peer)
        hosts = set(settings.allowed_hosts)
        origins = set(settings.allowed_origins)
        if self.settings.loopback:
            hosts.update(default_hosts(port))
            origins.update(default_origins(port))
        self.policy = BoundaryPolicy(
            allowed_hosts=frozenset(hosts),
            allowed_origins=frozenset(origins),
            proxied_hosts=frozenset(settings.allowed_hosts),
            proxied_origins=frozenset(settings.allowed_origins),
            token=token,
            limiter=RateLimiter(settings.rate_limit_per_minute),
            max_body_bytes=settings.max_body_bytes,
            instance_id=self.instance_id,
            on_epoch=self.sessions.revoke_older_than,
        )
        self._reaper: asyncio.Task[None] | None = None
        #: Set once ``start`` has warmed everything up.
        self.ready = asyncio.Event()

    @property
    def port(self) -> int:
        return self.settings.port

    def resident_status(self) -> ResidentStatus:
        """``resident-status@1.0`` of this gateway (redacted: counts and limits only)."""
        from gno_core.contracts import ResidentAdmission, ResidentStatus, ResidentTransport

        s = self.settings
        return ResidentStatus(
            mode=s.mode,
            resident=True,
            uptime_seconds=round(time.monotonic() - self.started, 3),
            listener_port=s.port,
            admission=ResidentAdmission(
                state=self.admission.state,
                active_requests=max(0, self.admission.active),
                queued_requests=self.admission.queued,
            ),
            transport=ResidentTransport(
                sessions=len(self.sessions),
                max_sessions=s.max_sessions,
                max_active_requests=s.max_active_requests,
                max_queued_requests=s.max_queued_requests,
                rate_limit_per_minute=s.rate_limit_per_minute,
                max_body_bytes=s.max_body_bytes,
                tool_profile="core" if s.tool_profile == "core" else "full",
                write_enabled=s.enable_write,
                authenticated=self.token is not None,
            ),
        )

    async def start(self) -> None:
        """Warm the registry, schemas and one facade per reader thread, and start reaping idle
        sessions; the first request then pays none of it."""
        try:
            await self.pool.run(self.handlers.warm_up)
        except Exception:
            log.warning("warm-up failed; the first call will retry", exc_info=True)
        await self.pool.warm_up(self.settings.workers)
        if self._reaper is None:
            self._reaper = asyncio.create_task(self._reap())
        self.ready.set()

    async def _reap(self) -> None:
        interval = max(0.05, min(30.0, self.settings.session_idle_seconds / 4))
        while True:
            await asyncio.sleep(interval)
            expired = self.sessions.expire_idle()
            if expired:
                log.info("ended %d idle session(s)", expired)

    async def shutdown(self) -> None:
        """Refuse new work (503), let in-flight requests finish, then end every session (their
        GET streams close) so the listener can stop."""
        finished = await self.admission.drain(self.settings.drain_seconds)
        if not finished:
            log.warning(
                "shutdown: %d request(s) still running after the drain", self.admission.active
            )
        self.sessions.end_all()
        self.admission.state = "closed"
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None

    def close(self) -> None:
        """Stop the worker threads and close every facade (after the listener stopped)."""
        self.handlers.close()  # closes the pool: its threads, then every facade
