"""gno's MCP server: a JSON-RPC 2.0 protocol engine serving both eras (2025-11-25 handshake and
2026-07-28 per-request envelope), the tool registry, resources, and the stdio transport.

Importing this package is cheap on purpose: ``gno mcp`` must answer its first message before
pydantic, the contracts or the index are loaded. Heavy modules are imported on first use.
"""

from __future__ import annotations

__all__: list[str] = []
