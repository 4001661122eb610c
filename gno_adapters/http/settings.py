"""Gateway settings: flags over the ``gateway`` config block, and the startup bind rules.

``gno serve`` (REST + ``/mcp``) listens on loopback only. ``gno daemon`` may bind a wildcard or
non-loopback address, but only with all three controls: a bearer token file, at least one exact
``Host`` and at least one exact HTTP(S) ``Origin``. Every violation is a ``VALIDATION`` error
raised before any socket is opened.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from gno_adapters.mcp.registry import parse_profile
from gno_core.config import GatewayConfig
from gno_core.errors import ValidationError

Mode = Literal["serve", "daemon"]
WILDCARDS = frozenset({"", "*", "0.0.0.0", "::", "[::]"})


@dataclass(frozen=True, slots=True)
class GatewaySettings:
    """Everything the gateway needs to start; ``port`` 0 asks the OS for a free port."""

    mode: Mode = "serve"
    host: str = "127.0.0.1"
    port: int = 3000
    tool_profile: str = "full"
    enable_write: bool = False
    token_file: Path | None = None
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    max_body_bytes: int = 1024 * 1024
    rate_limit_per_minute: int = 120
    max_active_requests: int = 64
    max_queued_requests: int = 16
    max_sessions: int = 32
    session_idle_seconds: float = 300.0
    #: Requests in flight at once per socket peer (body reading included); 0 turns it off.
    max_connections_per_peer: int = 16
    #: A request body must arrive whole within this many seconds of its headers (408).
    body_timeout_seconds: float = 10.0
    #: A connection must complete its request headers within this many seconds of opening
    #: (or of its previous response); otherwise it is closed.
    header_timeout_seconds: float = 5.0
    #: Seconds between SSE keep-alive comments on a 2025-era GET stream.
    keepalive_seconds: float = 15.0
    #: How long shutdown waits for in-flight requests before closing the listener.
    drain_seconds: float = 5.0
    #: Worker threads for facade calls (reads); writes run on one more, alone. SQLite releases
    #: the GIL, so about one per core; more only contend for the GIL with the event loop.
    workers: int = field(default_factory=lambda: max(2, min(4, os.cpu_count() or 2)))

    @property
    def bind_host(self) -> str:
        """The address to bind: ``localhost`` means the IPv4 loopback literal."""
        host = self.host.strip()
        if host.lower() == "localhost":
            return "127.0.0.1"
        return host.removeprefix("[").removesuffix("]")

    @property
    def wildcard(self) -> bool:
        return self.host.strip() in WILDCARDS

    @property
    def loopback(self) -> bool:
        if self.wildcard:
            return False
        try:
            return ipaddress.ip_address(self.bind_host).is_loopback
        except ValueError:
            return False

    def with_port(self, port: int) -> GatewaySettings:
        return replace(self, port=port)


def resolve_settings(
    mode: Mode,
    config: GatewayConfig,
    *,
    host: str | None = None,
    port: int | None = None,
    tool_profile: str | None = None,
    enable_write: bool | None = None,
    token_file: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
) -> GatewaySettings:
    """Flags (when given) over config keys over defaults; then the bind rules are checked."""
    profile = parse_profile((tool_profile or config.tool_profile).strip().lower())
    token = token_file if token_file is not None else config.token_file
    settings = GatewaySettings(
        mode=mode,
        host=host if host is not None else config.host,
        port=port if port is not None else config.port,
        tool_profile=profile,
        enable_write=bool(enable_write) or config.enable_write,
        token_file=Path(token).expanduser().resolve() if token else None,
        allowed_hosts=tuple(
            normalize_host(h) for h in (allowed_hosts or config.allowed_hosts) if h.strip()
        ),
        allowed_origins=tuple(
            normalize_origin(o) for o in (allowed_origins or config.allowed_origins) if o.strip()
        ),
        max_body_bytes=config.max_body_bytes,
        rate_limit_per_minute=config.rate_limit_per_minute,
        max_active_requests=config.max_active_requests,
        max_queued_requests=config.max_queued_requests,
        max_sessions=config.max_sessions,
        session_idle_seconds=config.session_idle_seconds,
        max_connections_per_peer=config.max_connections_per_peer,
        body_timeout_seconds=config.body_timeout_seconds,
        header_timeout_seconds=config.header_timeout_seconds,
        keepalive_seconds=config.keepalive_seconds,
    )
    check_bind(settings)
    return settings


def check_bind(settings: GatewaySettings) -> None:
    """The startup rules for where a gateway may listen and with which controls."""
    if not 0 <= settings.port <= 65535:
        raise ValidationError(f"Port must be 0-65535, not {settings.port}")
    if settings.loopback:
        return
    where = settings.host or "(wildcard)"
    if settings.mode == "serve":
        raise ValidationError(
            f"gno serve listens on loopback only (127.0.0.1, ::1 or localhost), not {where}: "
            "it shares its listener with the REST API. Use `gno daemon` with --mcp-token-file, "
            "--mcp-allowed-host and --mcp-allowed-origin for an authenticated non-loopback "
            "MCP listener.",
            details={"host": settings.host},
        )
    missing = []
    if settings.token_file is None:
        missing.append("a bearer token file (--mcp-token-file or gateway.tokenFile)")
    if not settings.allowed_hosts:
        missing.append("at least one exact Host (--mcp-allowed-host or gateway.allowedHosts)")
    if not settings.allowed_origins:
        missing.append(
            "at least one exact HTTP(S) Origin (--mcp-allowed-origin or gateway.allowedOrigins)"
        )
    if missing:
        raise ValidationError(
            f"A wildcard or non-loopback bind ({where}) needs " + "; ".join(missing),
            details={"host": settings.host},
        )


def normalize_host(value: str) -> str:
    """An exact ``Host`` value: ``name[:port]`` or ``[v6][:port]``, compared case-insensitively."""
    host = value.strip().lower()
    if not host or any(c in host for c in "/?#@ \t") or "://" in host:
        raise ValidationError(
            f"Invalid allowed Host {value!r}: give host[:port], e.g. gno.example.com:443",
            details={"host": value},
        )
    return host


def normalize_origin(value: str) -> str:
    """An exact HTTP(S) origin: ``scheme://host[:port]`` with no path, query or fragment."""
    origin = value.strip()
    parts = urlsplit(origin)
    try:
        parts.port  # noqa: B018  (validates the port)
    except ValueError as exc:
        raise ValidationError(f"Invalid allowed Origin {value!r}: {exc}") from exc
    if (
        parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
        or parts.password
    ):
        raise ValidationError(
            f"Invalid allowed Origin {value!r}: give http(s)://host[:port], e.g. "
            "https://gno.example.com",
            details={"origin": value},
        )
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def default_hosts(port: int) -> tuple[str, ...]:
    """The loopback ``Host`` values a loopback listener accepts without configuration."""
    return (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}")


def default_origins(port: int) -> tuple[str, ...]:
    return tuple(f"http://{host}" for host in default_hosts(port))
