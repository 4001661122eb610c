"""The adapter edge: APSW / SQLite exceptions become ``gno_core.errors.RuntimeFailure``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import apsw

from gno_core.errors import LockedError, RuntimeFailure, ValidationError


@contextmanager
def translate_errors(action: str) -> Iterator[None]:
    """Run a block of database work; any ``apsw.Error`` leaves it as ``RUNTIME`` with the
    SQLite error class in ``details`` (the original is chained, never leaked)."""
    try:
        yield
    except apsw.BusyError as exc:
        # Writers serialise on the write lease first, so this is a writer that bypassed it
        # (an older gno, a manual sqlite3 shell): still the typed LOCKED, never SQLite's text.
        raise LockedError(
            f"Index database is busy (another process is writing) while {action}",
            details={"sqlite_error": type(exc).__name__},
        ) from exc
    except UnicodeEncodeError as exc:
        # A lone surrogate cannot be bound as SQLite text; the core refuses such text at its
        # edges, and this keeps any path it missed a typed refusal rather than a crash.
        raise ValidationError(
            f"Text is not valid Unicode while {action}",
            details={"reason": "invalid_unicode"},
        ) from exc
    except apsw.Error as exc:
        raise RuntimeFailure(
            f"Index database error while {action}: {exc}",
            details={"sqlite_error": type(exc).__name__},
        ) from exc
