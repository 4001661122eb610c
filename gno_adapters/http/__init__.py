"""The resident Streamable HTTP gateway: ``/mcp`` (both protocol eras) on Quart + Hypercorn,
the pre-parse security boundary, legacy sessions and admission limits.

Modules, outside in: ``runner`` (Hypercorn, sockets, signals, graceful drain), ``app`` (the
Quart app and its boundary middleware), ``boundary`` (peer, Host, Origin, bearer, body size,
rate), ``admission`` (active/queued slots), ``transport`` (``/mcp``: era routing, the 2026 ladder,
2025 sessions), ``sessions``, ``workers`` (facade calls off the event loop), ``token``,
``settings``. The protocol itself is ``gno_adapters.mcp``; nothing here re-implements it. The
process lifecycle (pid file, owner lock, detach, stop) is ``gno_adapters.resident``.
"""

from __future__ import annotations

__all__: list[str] = []
