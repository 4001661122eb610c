"""Port: whether a resident server (``gno serve`` / ``gno daemon``) is running for this data dir."""

from __future__ import annotations

from typing import Protocol


class ResidentProbe(Protocol):
    def serve_url(self) -> str | None:
        """The URL of a live resident server found through its pid file, or None. Never probes
        over HTTP."""
        ...
