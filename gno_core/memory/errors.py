"""The ``MEMORY_*`` error codes of remember and recall, with their HTTP statuses and CLI exits.

Each code is its own ``GnoError`` class (made from the table, so the code, the status and the
exit live in one row); ``memory_error(code, message)`` builds one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gno_core.errors import GnoError

#: code -> (HTTP status, CLI exit code). Add, never rename: the codes are a wire contract.
MEMORY_CODES: dict[str, tuple[int, int]] = {
    "MEMORY_TEXT_REQUIRED": (400, 1),
    "MEMORY_TEXT_TOO_LARGE": (400, 1),
    # NUL or another control character, a lone surrogate: text a fact file cannot store.
    "MEMORY_TEXT_INVALID": (400, 1),
    "MEMORY_QUERY_REQUIRED": (400, 1),
    "MEMORY_BUDGET_INVALID": (400, 1),
    "MEMORY_COLLECTION_REQUIRED": (400, 1),
    "MEMORY_COLLECTION_UNMANAGED": (400, 1),
    "MEMORY_COLLECTION_NOT_FOUND": (404, 1),
    "MEMORY_SCOPES_REQUIRED": (400, 1),
    "MEMORY_SCOPES_INVALID": (400, 1),
    "MEMORY_IDENTITY_REQUIRED": (400, 1),
    "MEMORY_DECISION_INVALID": (400, 1),
    "MEMORY_PREDECESSOR_REQUIRED": (400, 1),
    "MEMORY_PREDECESSOR_NOT_FOUND": (404, 1),
    # A state the caller can re-read and retry from: exit 4, as a lost supersede race.
    "MEMORY_PREDECESSOR_HASH_MISMATCH": (409, 4),
    "MEMORY_SUPERSEDE_CONFLICT": (409, 4),
    "MEMORY_FENCED_REPLAY": (400, 1),
    "MEMORY_FENCED_DERIVED": (400, 1),
    "MEMORY_WRITE_LEASE_BUSY": (409, 4),
    "MEMORY_SYNC_FAILED": (500, 2),
    "MEMORY_QUERY_FAILED": (500, 2),
    "MEMORY_SUPERSEDE_PROJECTION_FAILED": (500, 2),
}


class MemoryFailure(GnoError):
    """Base of every ``MEMORY_*`` error; ``http_status`` and ``exit_code`` come from the table."""

    code = "MEMORY_QUERY_FAILED"
    http_status: ClassVar[int | None] = 500
    exit_code: ClassVar[int | None] = 2


def _class_name(code: str) -> str:
    return "".join(part.title() for part in code.split("_")) + "Error"


#: One class per code (``MemoryFencedReplayError`` for ``MEMORY_FENCED_REPLAY`` ...), so callers
#: and tests can catch a precise failure.
MEMORY_ERRORS: dict[str, type[MemoryFailure]] = {
    code: type(
        _class_name(code),
        (MemoryFailure,),
        {"code": code, "http_status": status, "exit_code": exit_code, "__module__": __name__},
    )
    for code, (status, exit_code) in MEMORY_CODES.items()
}


def memory_error(code: str, message: str, **details: Any) -> MemoryFailure:
    """The error of ``code`` (one of ``MEMORY_CODES``) with ``message`` and ``details``."""
    return MEMORY_ERRORS[code](message, details=details)
