"""The SQLite index adapter (APSW + FTS5): ``ApswStore``."""

from gno_adapters.sqlite.store import ApswStore

__all__ = ["ApswStore"]
