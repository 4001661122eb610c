"""Opening an index connection (pragmas, SQL functions) and its write transactions."""

from __future__ import annotations

import importlib.util
import os
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import apsw

BUSY_TIMEOUT_MS = 5_000
#: Page cache of a connection, in KiB (an upper bound: pages are allocated as they are used).
CACHE_KIB = 32 * 1024


def fold(value: Any) -> str:
    """Case- and normalization-insensitive form used by author, category and language filters
    (registered in SQL as ``gno_fold``; SQLite's ``lower()`` only folds ASCII)."""
    return unicodedata.normalize("NFC", str(value)).casefold() if value else ""


def _sql_fold(*args: Any) -> str:
    return fold(args[0])


def connect(path: str) -> apsw.Connection:
    """A connection in WAL mode with a busy timeout and foreign keys enforced."""
    conn = apsw.Connection(path)
    try:
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode: a killed process never corrupts or half-applies a transaction;
        # only a power loss may drop the last commits, which the next sync redoes.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA temp_store = MEMORY")
        # Up to 32 MiB of page cache (SQLite's default is 2 MiB): a sync's batches insert into
        # B-trees whose keys come in no order (names, link keys and targets, the FTS index);
        # with 2 MiB their pages spill to the WAL mid-transaction and are read back. First sync
        # of a 50,000-note vault with 300,000 links: 1.66M cache misses and 646k page writes
        # -> 0.31M and 394k (CPU ~1-2 s less of ~33 s, within the shared machine's noise).
        # Reads too: a hub's 2,500 backlinks touch ~2,500 link rows, which 2 MiB could not keep
        # between calls (the join alone 2.5-3.0 -> 0.8-1.0 ms). A page cache, not a result cache.
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        conn.create_scalar_function("gno_fold", _sql_fold, 1, deterministic=True)
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def write_transaction(conn: apsw.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction: the write lock is taken up front (waiting up to the
    busy timeout) so that a batch never fails half-way on a lock upgrade; rolled back on any
    exception, ``KeyboardInterrupt`` included."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def load_vector_extension(conn: apsw.Connection) -> str | None:
    """Load sqlite-vec into ``conn``; returns its version, or None when it cannot be loaded
    (package missing, platform without a build, SQLite without extension loading). Callers then
    fall back to exact search over the stored vectors."""
    try:
        # Locate the bundled extension without executing the package: its __init__ imports
        # numpy and sqlite3, which would add ~80 ms to every CLI start.
        spec = importlib.util.find_spec("sqlite_vec")
        if spec is None or spec.origin is None:
            return None
        conn.enable_load_extension(True)
        try:
            conn.load_extension(os.path.join(os.path.dirname(spec.origin), "vec0"))
        finally:
            conn.enable_load_extension(False)
        row = conn.execute("SELECT vec_version()").fetchone()
    except (ImportError, ValueError, OSError, AttributeError, apsw.Error):
        return None
    return str(row[0]) if row else None
