"""The Web UI of ``gno serve``: server-rendered pages over the facade, on the same listener and
behind the same boundary as ``/mcp`` and the REST API (``gno_adapters.web.pages``)."""

from __future__ import annotations

from gno_adapters.web.pages import register_web

__all__ = ["register_web"]
