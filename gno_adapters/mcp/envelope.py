"""Protocol revisions and the 2026-07-28 per-request ``_meta`` envelope.

Legacy (handshake) revisions negotiate through ``initialize``; the modern revision carries its
claim on every request in ``params._meta``. The ladder here is transport-free: an HTTP transport
runs its header checks (``-32020``) between ``read_envelope`` and ``check_version``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gno_adapters.mcp.jsonrpc import (
    INVALID_PARAMS,
    UNSUPPORTED_PROTOCOL_VERSION,
    JSONObject,
    RpcError,
)

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE_VERSION = "2025-11-25"
MODERN_VERSIONS = ("2026-07-28",)

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
RESERVED_PREFIX = "io.modelcontextprotocol/"


@dataclass(frozen=True, slots=True)
class Envelope:
    """The validated modern claim of one request, plus the caller's own ``_meta`` keys."""

    protocol_version: str
    client_capabilities: JSONObject
    client_info: JSONObject | None = None
    reserved: JSONObject = field(default_factory=dict)
    custom: JSONObject = field(default_factory=dict)


def negotiate_handshake(requested: object) -> str:
    """``initialize`` echoes a handshake revision it knows and otherwise offers 2025-11-25;
    a 2026 revision named in ``initialize`` is a legacy opening by definition."""
    if isinstance(requested, str) and requested in HANDSHAKE_VERSIONS:
        return requested
    return LATEST_HANDSHAKE_VERSION


def claims_modern(params: object) -> bool:
    """Whether a request claims the modern era: its ``params._meta`` names a protocol version.
    A bare ``_meta`` is no claim (legacy requests put ``progressToken`` there)."""
    if not isinstance(params, Mapping):
        return False
    meta = params.get("_meta")
    return isinstance(meta, Mapping) and PROTOCOL_VERSION_KEY in meta


def read_envelope(params: object) -> Envelope:
    """Shape rung of the ladder: a missing or malformed envelope is ``-32602``."""
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    if not isinstance(meta, Mapping):
        raise RpcError(
            INVALID_PARAMS,
            "Missing _meta envelope: a 2026-07-28 request carries "
            f"{PROTOCOL_VERSION_KEY!r} and {CLIENT_CAPABILITIES_KEY!r} in params._meta",
        )
    missing = [k for k in (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY) if k not in meta]
    if missing:
        raise RpcError(
            INVALID_PARAMS, "Invalid _meta envelope", {"missing": missing, "field": missing[0]}
        )
    version = meta[PROTOCOL_VERSION_KEY]
    capabilities = meta[CLIENT_CAPABILITIES_KEY]
    info = meta.get(CLIENT_INFO_KEY)
    if not isinstance(version, str) or not version:
        raise _malformed(PROTOCOL_VERSION_KEY)
    if not isinstance(capabilities, Mapping):
        raise _malformed(CLIENT_CAPABILITIES_KEY)
    if info is not None and not _is_implementation(info):
        raise _malformed(CLIENT_INFO_KEY)
    reserved = {k: v for k, v in meta.items() if str(k).startswith(RESERVED_PREFIX)}
    custom = {k: v for k, v in meta.items() if not str(k).startswith(RESERVED_PREFIX)}
    return Envelope(
        protocol_version=version,
        client_capabilities=dict(capabilities),
        client_info=dict(info) if isinstance(info, Mapping) else None,
        reserved=reserved,
        custom=custom,
    )


def check_version(envelope: Envelope) -> None:
    """Version rung: a revision this server does not serve is ``-32022``."""
    if envelope.protocol_version not in MODERN_VERSIONS:
        raise unsupported_version(envelope.protocol_version)


def unsupported_version(requested: object) -> RpcError:
    data: JSONObject = {"supported": list(MODERN_VERSIONS)}
    if isinstance(requested, str):
        data["requested"] = requested
    shown = requested if isinstance(requested, str) else "(none)"
    return RpcError(UNSUPPORTED_PROTOCOL_VERSION, f"Unsupported protocol version: {shown}", data)


def _malformed(key: str) -> RpcError:
    return RpcError(INVALID_PARAMS, "Invalid _meta envelope", {"field": key})


def _is_implementation(value: Any) -> bool:
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("name"), str)
        and isinstance(value.get("version"), str)
    )
