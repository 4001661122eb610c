"""The one error of the evidence room: a capsule request that cannot be compiled or verified."""

from __future__ import annotations

from typing import Any

from gno_core.errors import ValidationError

__all__ = ["ContextError"]


class ContextError(ValidationError):
    """A capsule request that cannot be compiled or verified as given; ``details.reason`` is
    the stable Context error code (invalid_goal, invalid_filter, invalid_uri, invalid_budget,
    retrieval_failed, index_mismatch, invalid_capsule)."""

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, details={"reason": reason, **details})
        self.reason = reason
