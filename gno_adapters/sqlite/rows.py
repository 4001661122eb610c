"""What every SQLite port reads through: one connection, SQLite errors translated at this edge,
and the document row shape (``DOC_COLUMNS``) with its conversion to ``StoredDocument``."""

from __future__ import annotations

import json
from typing import Any

import apsw

from gno_adapters.sqlite.errors import translate_errors
from gno_core.identity import make_docid
from gno_core.read_values import DocumentMeta, StoredDocument

DOC_COLUMNS = (
    "d.collection, d.rel_path, d.abs_path, d.source_hash, d.source_mime, d.source_ext, "
    "d.source_size, d.source_mtime_ns, d.mirror_hash, d.title, d.content_type, d.categories, "
    "d.author, d.date, d.language, d.tags, d.converter_id, d.converter_version, d.active, "
    "d.indexed_at, d.converter_warnings"
)


def to_document(row: tuple[Any, ...]) -> StoredDocument:
    """A ``DOC_COLUMNS`` row as a ``StoredDocument``."""
    meta = DocumentMeta(
        title=row[9],
        tags=tuple(json.loads(row[15])),
        content_type=row[10],
        categories=tuple(json.loads(row[11])),
        author=row[12],
        date=row[13],
        language=row[14],
    )
    return StoredDocument(
        collection=row[0],
        rel_path=row[1],
        abs_path=row[2],
        docid=make_docid(row[3]),
        source_hash=row[3],
        source_mime=row[4],
        source_ext=row[5],
        source_size=row[6],
        source_mtime_ns=row[7],
        mirror_hash=row[8],
        meta=meta,
        converter_id=row[16],
        converter_version=row[17],
        active=bool(row[18]),
        indexed_at=row[19],
        converter_warnings=tuple(json.loads(row[20])),
    )


class Rows:
    """Queries over the shared connection of one open index."""

    def __init__(self, conn: apsw.Connection) -> None:
        self.conn = conn

    def rows(self, action: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with translate_errors(action):
            return list(self.conn.execute(sql, params))

    def documents(
        self, action: str, where: str, params: tuple[Any, ...] = ()
    ) -> list[StoredDocument]:
        sql = f"SELECT {DOC_COLUMNS} FROM documents d WHERE {where}"
        return [to_document(r) for r in self.rows(action, sql, params)]
