"""2025-era HTTP sessions: ``Mcp-Session-Id`` issued on ``initialize``, bound to its caller.

A session is one protocol ``Connection`` (the engine's per-peer state) plus who opened it: the
security identity and the token epoch at the time. A lookup by another identity, under a newer
epoch (token rotated or revoked), after ``DELETE`` or after ``idle_seconds`` without a request
finds nothing, which the transport answers with 404 so the client re-initializes. Runs on the
event loop only.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gno_adapters.http.refusals import Refusal
from gno_adapters.mcp.context import Connection


@dataclass(eq=False)
class LegacySession:
    id: str
    connection: Connection
    identity: str
    epoch: int
    last_seen: float
    #: Set when the session ends; its GET stream (if any) closes on it.
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    streaming: bool = False


class SessionStore:
    def __init__(
        self,
        max_sessions: int,
        idle_seconds: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._sessions: dict[str, LegacySession] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def open(self, *, identity: str, label: str, epoch: int) -> LegacySession:
        """A new session for ``identity``; ``Refusal(429)`` when ``max_sessions`` are open."""
        self.expire_idle()
        if len(self._sessions) >= self.max_sessions:
            raise Refusal(429, "too_many_sessions", retry_after=1.0)
        sid = secrets.token_hex(16)
        connection = Connection.legacy("http", identity=label, session_id=sid)
        session = LegacySession(sid, connection, identity, epoch, self._clock())
        self._sessions[sid] = session
        return session

    def find(self, sid: str, *, identity: str, epoch: int) -> LegacySession | None:
        """The live session ``sid`` of ``identity``, touched; ``None`` otherwise. A session of
        an older epoch is ended on sight (its credentials were rotated or revoked)."""
        session = self._sessions.get(sid)
        if session is None:
            return None
        now = self._clock()
        if session.epoch != epoch or now - session.last_seen > self.idle_seconds:
            self.end(sid)
            return None
        if session.identity != identity:
            return None
        session.last_seen = now
        return session

    def end(self, sid: str) -> bool:
        session = self._sessions.pop(sid, None)
        if session is None:
            return False
        session.ended.set()
        return True

    def expire_idle(self) -> int:
        now = self._clock()
        stale = [s for s, v in self._sessions.items() if now - v.last_seen > self.idle_seconds]
        for sid in stale:
            self.end(sid)
        return len(stale)

    def revoke_older_than(self, epoch: int) -> int:
        stale = [s for s, v in self._sessions.items() if v.epoch != epoch]
        for sid in stale:
            self.end(sid)
        return len(stale)

    def end_all(self) -> None:
        for sid in list(self._sessions):
            self.end(sid)
