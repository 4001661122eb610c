"""``ApswDocuments``: the ``DocumentStore`` port over an open SQLite index."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from gno_adapters.sqlite import lexical
from gno_core.metadata.extract import DocumentMetadata
from gno_core.read_values import Chunk, StoredDocument

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gno_adapters.sqlite.rows import Rows

#: Paths looked up per statement by ``get_documents``.
_BATCH = 500
_HEX = re.compile(r"^[0-9a-f]{1,64}$")


class ApswDocuments:
    """Active documents, their mirrors, chunks and tags."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows

    def get_document(self, collection: str, rel_path: str) -> StoredDocument | None:
        docs = self._db.documents(
            "reading a document",
            "d.collection = ? AND d.rel_path = ? AND d.active = 1",
            (collection, rel_path),
        )
        return docs[0] if docs else None

    def document_metadata(self, collection: str, rel_path: str) -> DocumentMetadata | None:
        rows = self._db.rows(
            "reading document metadata",
            "SELECT metadata_state, metadata, metadata_error FROM documents "
            "WHERE collection = ? AND rel_path = ? AND active = 1",
            (collection, rel_path),
        )
        if not rows:
            return None
        state, raw, error = rows[0]
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(raw).items()}
        return DocumentMetadata(str(state), values, error)

    def find_by_docid(self, prefix: str) -> list[StoredDocument]:
        prefix = prefix.lower().lstrip("#")
        if not _HEX.match(prefix):
            return []
        # A range on the indexed hash: every hex string starting with prefix sorts below prefix+"g".
        return self._db.documents(
            "looking up a docid",
            "d.source_hash >= ? AND d.source_hash < ? AND d.active = 1 "
            "ORDER BY d.collection, d.rel_path",
            (prefix, prefix + "g"),
        )

    def get_documents(self, keys: list[tuple[str, str]]) -> list[StoredDocument]:
        # One statement per collection and batch (a refactor of a hub asks for thousands).
        paths: dict[str, list[str]] = {}
        for collection, rel_path in dict.fromkeys(keys):
            paths.setdefault(collection, []).append(rel_path)
        found: dict[tuple[str, str], StoredDocument] = {}
        for collection, wanted in paths.items():
            for start in range(0, len(wanted), _BATCH):
                for doc in self._db.documents(
                    "reading documents",
                    "d.collection = ? AND d.rel_path IN (SELECT value FROM json_each(?)) "
                    "AND d.active = 1",
                    (collection, json.dumps(wanted[start : start + _BATCH])),
                ):
                    found[(doc.collection, doc.rel_path)] = doc
        return [found[k] for k in keys if k in found]

    def markdown(self, mirror_hash: str) -> str | None:
        rows = self._db.rows(
            "reading a mirror", "SELECT markdown FROM content WHERE mirror_hash = ?", (mirror_hash,)
        )
        return str(rows[0][0]) if rows else None

    def chunks(self, mirror_hash: str) -> tuple[Chunk, ...]:
        return tuple(
            Chunk(*r)
            for r in self._db.rows(
                "reading chunks",
                "SELECT seq, pos, text, start_line, end_line, language, token_count FROM chunks "
                "WHERE mirror_hash = ? ORDER BY seq",
                (mirror_hash,),
            )
        )

    def chunks_for(self, mirror_hashes: Sequence[str]) -> dict[str, tuple[Chunk, ...]]:
        wanted = list(dict.fromkeys(mirror_hashes))
        found: dict[str, list[Chunk]] = {}
        # Bounded batches keep each statement well under SQLite's bound-parameter limit.
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            for row in self._db.rows(
                "reading chunks",
                "SELECT mirror_hash, seq, pos, text, start_line, end_line, language, token_count "
                f"FROM chunks WHERE mirror_hash IN ({marks}) ORDER BY mirror_hash, seq",
                tuple(batch),
            ):
                found.setdefault(row[0], []).append(Chunk(*row[1:]))
        return {mirror: tuple(chunks) for mirror, chunks in found.items()}

    def list_documents(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> list[StoredDocument]:
        where, params = _active_in(collection)
        if prefix:
            where.append("substr(d.rel_path, 1, ?) = ?")
            params.extend((len(prefix), prefix))
        sql = " AND ".join(where) + " ORDER BY d.collection, d.rel_path"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(limit, 0))
        return self._db.documents("listing documents", sql, tuple(params))

    def recent_documents(self, limit: int) -> list[StoredDocument]:
        return self._db.documents(
            "listing recent documents",
            "d.active = 1 ORDER BY d.source_mtime_ns DESC, d.collection, d.rel_path LIMIT ?",
            (max(limit, 0),),
        )

    def tag_counts(self, collection: str | None, prefix: str | None) -> list[tuple[str, int]]:
        where, params = _active_in(collection)
        if prefix:
            want = lexical.normalize_tag(prefix)
            where.append("substr(t.tag, 1, ?) = ?")
            params.extend((len(want), want))
        sql = (
            "SELECT t.tag, COUNT(*) FROM doc_tags t JOIN documents d ON d.id = t.doc_id "
            f"WHERE {' AND '.join(where)} GROUP BY t.tag ORDER BY 2 DESC, 1"
        )
        return [(str(t), int(n)) for t, n in self._db.rows("counting tags", sql, tuple(params))]


def _active_in(collection: str | None) -> tuple[list[str], list[object]]:
    """The WHERE terms and parameters of active documents (of ``collection`` when given)."""
    where: list[str] = ["d.active = 1"]
    params: list[object] = []
    if collection is not None:
        where.append("d.collection = ?")
        params.append(collection)
    return where, params
