"""The ``error@1.0`` envelope every ``--json`` failure prints."""

from __future__ import annotations

from typing import Any

from gno_core.contracts.base import WireModel


class ErrorBody(WireModel):
    code: str
    message: str
    details: dict[str, Any]


class ErrorEnvelope(WireModel):
    error: ErrorBody
