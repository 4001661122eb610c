"""The REST API of ``gno serve`` (first slice): health, status, search, query and one document,
each returning the same contract as the CLI's ``--json``."""

from __future__ import annotations

from gno_adapters.rest.routes import register_rest

__all__ = ["register_rest"]
