"""The one error tree of gno: every failure a caller can see has a stable string code.

Transports map codes in one table each (CLI exit codes, JSON-RPC errors / MCP ``isError``
results, HTTP statuses). Library exceptions are translated at the adapter edge into these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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


class EgressDeniedError(GnoError):
    """Collection egress policy refuses this content at this destination (``details``: the
    reason code of the decision, the omitted collections and a remediation; never content)."""

    code = "EGRESS_DENIED"
    http_status: ClassVar[int | None] = 403
    exit_code: ClassVar[int | None] = 1


class EgressRelaxationConfirmationError(GnoError):
    """A policy relaxation without the one-use confirmation bound to the collection's current
    policy and revision (``details.mismatch`` says what did not match)."""

    code = "EGRESS_RELAXATION_CONFIRMATION_REQUIRED"
    http_status: ClassVar[int | None] = 409
    exit_code: ClassVar[int | None] = 1


class EgressPolicyChangedError(GnoError):
    """The egress policy changed after this request was admitted: retry (content-free)."""

    code = "EGRESS_POLICY_CHANGED"
    http_status: ClassVar[int | None] = 409
    exit_code: ClassVar[int | None] = 2


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


#: A file or folder name that is not valid UTF-8: it has no faithful relPath or URI (the
#: reason a ``SourceTree`` records for it, beside ``IngestError``'s).
FILENAME_ENCODING = "FILENAME_ENCODING"


class IngestError(GnoError):
    """A source file that cannot be indexed. ``reason`` is the stable failure code recorded for
    it (``BINARY``, ``ENCODING``, ``TOO_LARGE``, ``UNREADABLE``, ``FRONTMATTER``)."""

    code: ClassVar[str] = "VALIDATION"

    def __init__(self, reason: str, message: str, *, rel_path: str) -> None:
        super().__init__(message, details={"code": reason, "relPath": rel_path})
        self.reason = reason


class ContextError(ValidationError):
    """A capsule request that cannot be compiled or verified as given; ``details.reason`` is
    the stable Context error code (invalid_goal, invalid_filter, invalid_uri, invalid_budget,
    retrieval_failed, index_mismatch, invalid_capsule)."""

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, details={"reason": reason, **details})
        self.reason = reason


class AmbiguousAdaptersError(ValidationError):
    """Several adapter sets are installed and nothing says which one to use (``VALIDATION``)."""


class AdaptersNotFoundError(NotFoundError):
    """The requested adapter set is not installed, or none is (``NOT_FOUND``)."""


# The ``MEMORY_*`` codes of remember and recall, with their HTTP statuses and CLI exits: each
# code is its own class (made from the table, so the code, the status and the exit live in one
# row); ``memory_error(code, message)`` builds one.

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


def validation_problems(errors: Iterable[Mapping[str, Any]], *, unnamed: str = "input") -> str:
    """A validation library's error list (pydantic's ``exc.errors()``) as one readable line,
    ``field.path: message; ...``, without the library's ``Value error, `` prefix; an error on
    no field is named ``unnamed`` (empty: the message alone)."""
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ())) or unnamed
        text = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
        parts.append(f"{where}: {text}" if where else text)
    return "; ".join(parts)
