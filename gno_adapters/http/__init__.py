"""The resident Streamable HTTP gateway: ``/mcp`` (both protocol eras) on Quart + Hypercorn,
the pre-parse security boundary, legacy sessions, admission limits, and process lifecycle.

Modules, outside in: ``runner`` (Hypercorn, sockets, signals, graceful drain), ``app`` (the
Quart app and its boundary middleware), ``boundary`` (peer, Host, Origin, bearer, body size,
rate), ``admission`` (active/queued slots), ``transport`` (``/mcp``: era routing, the 2026 ladder,
2025 sessions), ``sessions``, ``workers`` (facade calls off the event loop), ``token``,
``settings`` and ``process`` (pid file, single owner lock, detach, status, stop). The protocol
itself is ``gno_adapters.mcp``; nothing here re-implements it.
"""

from __future__ import annotations

__all__: list[str] = []
