"""The one error tree of gno: every failure a caller can see has a stable string code.

Transports map codes in one table each (CLI exit codes, JSON-RPC errors / MCP ``isError``
results, HTTP statuses). Library exceptions are translated at the adapter edge into these.
"""

from __future__ import annotations

from typing import Any, ClassVar


class GnoError(Exception):
    """Base of every error gno raises on purpose. ``code`` is a wire contract: add, never rename."""

    code: ClassVar[str] = "RUNTIME"
    #: The CLI exit code and HTTP status of a code family with its own table (``MEMORY_*``);
    #: None: the shared tables decide (``EXIT_CODES``, the REST status table).
    exit_code: ClassVar[int | None] = None
    http_status: ClassVar[int | None] = None

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def envelope(self) -> dict[str, Any]:
        """The ``error@1.0`` JSON envelope for this error."""
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


class ValidationError(GnoError):
    """Input that can never succeed as given (bad query syntax, bad name, bad option value)."""

    code = "VALIDATION"


class RuntimeFailure(GnoError):
    """Something failed while doing valid work (I/O, database, model)."""

    code = "RUNTIME"


class NotFoundError(GnoError):
    """A document, collection, index or job that does not exist."""

    code = "NOT_FOUND"


class DuplicateError(GnoError):
    """The thing being created already exists (collection name, path)."""

    code = "DUPLICATE"


class ConflictError(GnoError):
    code = "CONFLICT"


class InvalidPathError(GnoError):
    """A path that violates the safety rules (escapes a root, a dangerous root)."""

    code = "INVALID_PATH"


class PathNotFoundError(GnoError):
    code = "PATH_NOT_FOUND"


class LockedError(GnoError):
    """Another process holds the write lock."""

    code = "LOCKED"


class JobConflictError(GnoError):
    """Another job is already running in this server process (one at a time)."""

    code = "JOB_CONFLICT"


class CaptureSyncFailedError(GnoError):
    """A capture wrote its note but could not make it searchable; ``details.path`` names the
    written file (``gno update`` retries the sync)."""

    code = "CAPTURE_SYNC_FAILED"


class WriteDisabledError(GnoError):
    """A write was asked of a server started without write access (``--enable-write``)."""

    code = "WRITE_DISABLED"


class NotInitializedError(GnoError):
    """The index or config has not been created yet (``gno init``)."""

    code = "NOT_INITIALIZED"


class ModelUnavailableError(GnoError):
    """A model role is needed but no model is installed or reachable for it."""

    code = "MODEL_UNAVAILABLE"


class CancelledError(GnoError):
    code = "CANCELLED"


class UnreadableConfigError(GnoError):
    """A client's config file gno cannot read, or cannot edit without touching more than its
    own entry (``gno mcp install``); the file is left as it was."""

    code = "CONFIG_UNREADABLE"


class UnwritableConfigError(GnoError):
    """A client's config file the system refuses to write (immutable, read-only, permission,
    disk full); ``details``: ``path`` and ``errno`` (its symbolic name). Nothing was changed."""

    code = "CONFIG_UNWRITABLE"


#: CLI exit code per error code. Anything unlisted is a runtime failure (2).
EXIT_CODES: dict[str, int] = {
    "VALIDATION": 1,
    "NOT_FOUND": 1,
    "DUPLICATE": 1,
    "INVALID_PATH": 1,
    "PATH_NOT_FOUND": 1,
    "NOT_INITIALIZED": 1,
    "CONFLICT": 1,
    "CONFIG_UNREADABLE": 1,
    "CONFIG_UNWRITABLE": 1,
    "RUNTIME": 2,
    "LOCKED": 2,
    "JOB_CONFLICT": 2,
    "CAPTURE_SYNC_FAILED": 2,
    "WRITE_DISABLED": 1,
    "MODEL_UNAVAILABLE": 2,
    "CANCELLED": 2,
}


def exit_code_for(error: GnoError) -> int:
    """Process exit code for ``error`` (0 ok, 1 validation-like, 2 runtime)."""
    if error.exit_code is not None:
        return error.exit_code
    return EXIT_CODES.get(error.code, 2)
