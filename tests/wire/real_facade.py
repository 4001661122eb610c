"""The real ``Gno`` over the in-memory adapter set, for the MCP and HTTP wire tests, and
``Peer``, an in-process MCP client of it.

``adapters()`` is a fresh set holding ``NOTES`` (synced, and embedded unless asked not to);
``factory(adapters)`` builds facades over one set, as a transport
does (one set per server: its in-memory index outlives each facade, as a file would).
``DOCIDS`` holds the content-derived docids of the notes, for tests that render them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.facade import Gno

#: Two notes in one collection, one under a folder with a space (URIs escape it), with
#: nested tags; only ``alpha.md`` mentions foam, so a search for it has one answer;
#: ``beta.md`` has enough English stopwords for a language hint (``alpha.md`` has none).
NOTES: dict[str, str] = {
    "alpha.md": (
        "---\ntags: [work, work/project]\n---\n# Alpha\n\nFoam notes link ideas.\nSecond line.\n"
    ),
    "sub dir/beta.md": (
        "---\ntags: [work, personal]\n---\n# Beta\n\n"
        "Another note on ideas, and the things that we have to write down before they are gone.\n"
    ),
}
ALPHA = "gno://notes/alpha.md"
BETA = "gno://notes/sub%20dir/beta.md"


def adapters(*, embedded: bool = True) -> Adapters:
    """A fresh in-memory set with ``NOTES`` synced (and embedded when ``embedded``)."""
    made = in_memory(NOTES)
    with build(made) as gno:
        gno.sync()
        if embedded:
            gno.embed()
    return made


def factory(made: Adapters | None = None) -> Callable[[], Gno]:
    """A facade factory over one adapter set (by default a fresh synced one, made at the first
    call, so a server that never calls a tool syncs nothing), shared by every facade it builds
    (a gateway's pool builds one per worker)."""
    lazy = _Lazy(made)
    return lambda: build(lazy.get())


class _Lazy:
    """One adapter set, made once even when two pool workers open facades at once."""

    def __init__(self, made: Adapters | None) -> None:
        self._made = made
        self._lock = threading.Lock()

    def get(self) -> Adapters:
        with self._lock:
            if self._made is None:
                self._made = adapters()
            return self._made


@cache
def docids() -> dict[str, str]:
    """``{"alpha": "#...", "beta": "#..."}``: docids are content hashes, so read them once."""
    with build(adapters(embedded=False)) as gno:
        return {
            "alpha": gno.get("notes/alpha.md").docid,
            "beta": gno.get("notes/sub dir/beta.md").docid,
        }


MODERN = "2026-07-28"


def envelope(version: str = MODERN, **extra: object) -> dict[str, object]:
    """A 2026-07-28 request ``_meta`` envelope (plus any custom keys)."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "1"},
        **extra,
    }


class Peer:
    """An in-process client of the engine over the real in-memory facade (or ``facade``): one
    connection, work run inline."""

    def __init__(
        self,
        *,
        profile: str = "full",
        enable_write: bool = False,
        facade: Callable[[], Any] | None = None,
    ) -> None:
        from gno_adapters.mcp.context import Connection
        from gno_adapters.mcp.server import GnoHandlers, build_engine
        from gno_adapters.mcp.stdio import stdio_status

        self.handlers = GnoHandlers(
            facade or factory(),
            profile=profile,
            enable_write=enable_write,
            transport_status=stdio_status,
        )
        self.engine = build_engine(self.handlers)
        self.connection = Connection.pinned_by_first_request("test")
        self._next = 0

    def send(self, message: object) -> dict[str, Any] | None:
        reply = self.engine.handle(self.connection, message)
        if reply.work is not None:
            return reply.work()
        return reply.response

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params is not None:
            message["params"] = params
        response = self.send(message)
        assert response is not None and response["id"] == self._next
        return response

    def initialize(self, version: str = "2025-11-25") -> dict[str, Any]:
        params = {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        response = self.request("initialize", params)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return response

    def modern(
        self, method: str, params: dict[str, Any] | None = None, **meta: object
    ) -> dict[str, Any]:
        return self.request(method, {**(params or {}), "_meta": envelope(**meta)})  # type: ignore[arg-type]


def write_peer(notes: Mapping[str, str | bytes]) -> tuple[Peer, Adapters]:
    """A write-enabled ``Peer`` over a fresh in-memory set holding ``notes`` (synced), and
    that set, whose tree a test reads to see what a tool wrote."""
    made = in_memory(notes)
    with build(made) as gno:
        gno.sync()
    peer = Peer(enable_write=True, facade=lambda: build(made))
    peer.initialize()
    return peer, made
