"""Serving a gateway with Hypercorn: the listening socket, signals and graceful shutdown.

The socket is bound here (so ``port`` 0 gets a free port and the loopback allowlists can name
it) and handed to Hypercorn. Shutdown (SIGTERM, SIGINT or ``stop``): new requests get 503 while
in-flight ones finish (up to ``drain_seconds``), sessions end so their GET streams close, then
Hypercorn stops listening and the worker threads and facades close.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from collections.abc import Callable, Iterable
from typing import Any

from gno_adapters.http.gateway import Gateway
from gno_adapters.http.settings import GatewaySettings
from gno_adapters.http.token import BearerToken
from gno_adapters.mcp.registry import ToolDef
from gno_core.surface import OPERATIONS, FacadeFactory

log = logging.getLogger("gno.http")
#: Pending connections the kernel queues for accept. Hypercorn re-listens the socket with its
#: own ``backlog`` (100 by default), so both are set from this; a burst past the queue waits
#: for SYN retransmits instead of being served.
LISTEN_BACKLOG = 1024


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (a wildcard binds every address)."""
    address: tuple[Any, ...]
    if host in ("", "*", "0.0.0.0"):
        family, address = socket.AF_INET, ("0.0.0.0", port)
    elif host == "::":
        family, address = socket.AF_INET6, ("::", port)
    else:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        family, address = info[0], info[4][:2]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def open_gateway(
    settings: GatewaySettings,
    factory: FacadeFactory,
    *,
    capabilities: Iterable[str] = OPERATIONS,
    tools: tuple[ToolDef, ...] | None = None,
) -> tuple[Gateway, socket.socket]:
    """Check the token file, bind, and build the gateway for the bound port. Raises
    ``gno_core.errors.ValidationError`` (token) or ``OSError`` (bind) before serving."""
    token = BearerToken.open(settings.token_file) if settings.token_file else None
    sock = bind_socket(settings.bind_host, settings.port)
    try:
        port = sock.getsockname()[1]
        gateway = Gateway(
            settings, factory, port=port, token=token, capabilities=capabilities, tools=tools
        )
    except BaseException:
        sock.close()
        raise
    return gateway, sock


async def serve_gateway(
    gateway: Gateway,
    sock: socket.socket,
    stop: asyncio.Event,
    *,
    ready: Callable[[Gateway], None] | None = None,
) -> None:
    """Serve until ``stop`` is set, then shut down gracefully."""
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    from gno_adapters.http.app import create_app

    app = create_app(gateway)
    config = Config()
    config.bind = [f"fd://{sock.detach()}"]  # Hypercorn owns the socket from here
    config.accesslog = None
    config.errorlog = logging.getLogger("hypercorn.error")
    config.graceful_timeout = 3.0
    config.include_server_header = False
    config.backlog = LISTEN_BACKLOG
    # Hypercorn's idle timer runs from accept (and from each response) until a request's
    # headers are complete, and trickled header bytes do not reset it: it is the header
    # deadline that drops slowloris peers. Bodies have their own deadline in the boundary.
    config.keep_alive_timeout = gateway.settings.header_timeout_seconds

    async def shutdown_trigger() -> None:
        await stop.wait()
        log.info("shutting down: finishing in-flight requests")
        await gateway.shutdown()

    async def announce() -> None:
        await gateway.ready.wait()  # set by the app's startup, once warmed up
        if ready is not None:
            ready(gateway)

    announcer = asyncio.create_task(announce())
    try:
        await serve(app, config, shutdown_trigger=shutdown_trigger)  # type: ignore[arg-type]
    finally:
        announcer.cancel()
        await asyncio.get_running_loop().run_in_executor(None, gateway.close)


def run_gateway(
    settings: GatewaySettings,
    factory: FacadeFactory,
    *,
    ready: Callable[[Gateway], None] | None = None,
) -> int:
    """Run a gateway in this process until SIGTERM/SIGINT; returns the exit status."""
    gateway, sock = open_gateway(settings, factory)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - Windows
                signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))
        await serve_gateway(gateway, sock, stop, ready=ready)

    asyncio.run(main())
    return 0
