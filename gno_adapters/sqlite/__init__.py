"""The SQLite index adapter (APSW + FTS5 + sqlite-vec): one class per port over one connection."""

from gno_adapters.sqlite.index import ApswIndexProvider, open_apsw_index

__all__ = ["ApswIndexProvider", "open_apsw_index"]
