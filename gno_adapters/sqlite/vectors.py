"""``ApswVectors``: chunk vectors, the sqlite-vec accelerator, nearest search.

``content_vectors`` rows are the truth; each vector space (embedder fingerprint) has a ``vec0``
table copy for k-NN, rebuilt from the rows whenever it is missing or was left behind (written
while the extension could not load). Search over the whole index asks vec0 for more neighbours
than needed and keeps the eligible ones; when too few survive (inactive or orphaned
neighbours), and whenever filters apply, it scans the eligible set exactly instead
(``vec_distance_cosine`` in SQL, or numpy when the extension is missing). Either way an
ineligible neighbour can never push out an eligible hit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import NamedTuple

import apsw

from gno_adapters.sqlite import lexical
from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.rows import DOC_COLUMNS, Rows, to_document
from gno_core.errors import ValidationError
from gno_core.ports.clock import Clock
from gno_core.ports.embedder import Vector, vector_from_bytes, vector_to_bytes
from gno_core.ports.vectors import (
    ChunkVector,
    Coverage,
    Cursor,
    PendingChunk,
    Scope,
    VectorHit,
)
from gno_core.read_values import SearchFilters, StoredDocument, exclusion_clauses
from gno_core.text.dates import iso_from_ns

#: vec0 is asked for this many times the wanted documents (chunks of one document, inactive
#: documents and orphans share the neighbour list), within sqlite-vec's k limit.
KNN_OVERSAMPLE = 4
KNN_MIN_EXTRA = 64
KNN_MAX_K = 4096
NO_FILTERS = SearchFilters()
#: Mirrors fetched past the limit, so that documents tied at the cut still order by path.
TIE_ROOM = 16


class Space(NamedTuple):
    fingerprint: str
    dimensions: int
    vec_table: str
    vec_synced: bool


def vec_table_name(fingerprint: str) -> str:
    return "vec_" + fingerprint[:16]


def pending_sql(collections: int) -> str:
    """Chunks of active documents (of ``collections`` names) without a vector, after a cursor.
    Parameters: the collection names, cursor mirror hash and seq, fingerprint, the collection
    names again, limit.

    ``+d.active`` keeps SQLite off the ``active`` index, which it would otherwise pick to scan
    every active document per chunk instead of looking the chunk's mirror up."""
    scope = f" AND d.collection IN ({', '.join('?' * collections)})" if collections else ""
    return (
        "SELECT c.mirror_hash, c.seq, c.text, c.start_line, "
        " (SELECT d.title FROM documents d WHERE d.mirror_hash = c.mirror_hash "
        f"  AND +d.active = 1{scope} ORDER BY d.collection, d.rel_path LIMIT 1) AS title "
        "FROM chunks c WHERE (c.mirror_hash, c.seq) > (?, ?) "
        "AND NOT EXISTS (SELECT 1 FROM content_vectors v WHERE v.fingerprint = ? "
        " AND v.mirror_hash = c.mirror_hash AND v.seq = c.seq) "
        "AND EXISTS (SELECT 1 FROM documents d WHERE d.mirror_hash = c.mirror_hash "
        f" AND +d.active = 1{scope}) "
        "ORDER BY c.mirror_hash, c.seq LIMIT ?"
    )


class ApswVectors:
    """The ``VectorIndex`` port over an open SQLite index."""

    def __init__(self, rows: Rows, clock: Clock, vec_version: str | None) -> None:
        self._db = rows
        self._conn = rows.conn
        self._clock = clock
        self._vec_version = vec_version

    @property
    def vector_backend(self) -> str:
        return f"sqlite-vec {self._vec_version}" if self._vec_version else "exact"

    # -- writes --------------------------------------------------------------------------------

    def put_vectors(self, fingerprint: str, model_id: str, vectors: Sequence[ChunkVector]) -> int:
        if not vectors:
            return 0
        dims = len(vectors[0].vector)
        if any(len(v.vector) != dims for v in vectors):
            raise ValidationError("vectors of one batch must have the same length")
        now = iso_from_ns(self._clock.now_ns())
        conn = self._conn
        stored = 0
        with translate_errors("storing vectors"), write_transaction(conn):
            space = self._space(fingerprint)
            if space is None:
                conn.execute(
                    "INSERT INTO vector_spaces(fingerprint, model_id, dimensions, vec_table, "
                    "vec_synced, created_at) VALUES (?, ?, ?, ?, 0, ?)",
                    (fingerprint, model_id, dims, vec_table_name(fingerprint), now),
                )
                space = Space(fingerprint, dims, vec_table_name(fingerprint), False)
            elif space.dimensions != dims:
                raise ValidationError(
                    f"vectors of {fingerprint[:12]} have {space.dimensions} dimensions, not {dims}"
                )
            accelerated = self._prepare_vec(space)
            for item in vectors:
                blob = vector_to_bytes(item.vector)
                row = conn.execute(
                    "INSERT INTO content_vectors(mirror_hash, seq, fingerprint, embedding, "
                    "embedded_at) SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM chunks "
                    "WHERE mirror_hash = ? AND seq = ? AND (? IS NULL OR text = ?)) "
                    "ON CONFLICT(fingerprint, mirror_hash, seq) "
                    "DO UPDATE SET embedding = excluded.embedding, "
                    "embedded_at = excluded.embedded_at RETURNING id",
                    (
                        item.mirror_hash,
                        item.seq,
                        fingerprint,
                        blob,
                        now,
                        item.mirror_hash,
                        item.seq,
                        item.text,
                        item.text,
                    ),
                ).fetchone()
                stored += row is not None
                if row is not None and accelerated:
                    conn.execute(f"DELETE FROM {space.vec_table} WHERE rowid = ?", (row[0],))
                    conn.execute(
                        f"INSERT INTO {space.vec_table}(rowid, embedding) VALUES (?, ?)",
                        (row[0], blob),
                    )
        return stored

    def delete_vectors(self, fingerprint: str, collections: Scope = None) -> int:
        conn = self._conn
        with translate_errors("deleting vectors"), write_transaction(conn):
            if collections:
                marks = ", ".join("?" * len(collections))
                conn.execute(
                    "DELETE FROM content_vectors WHERE fingerprint = ? AND mirror_hash IN "
                    f"(SELECT mirror_hash FROM documents WHERE collection IN ({marks}))",
                    (fingerprint, *collections),
                )
            else:
                conn.execute("DELETE FROM content_vectors WHERE fingerprint = ?", (fingerprint,))
            deleted = conn.changes()
            space = self._space(fingerprint)
            if space is not None:
                self._prepare_vec(space)
        return int(deleted)

    def _prepare_vec(self, space: Space) -> bool:
        """Inside a write transaction: make the vec0 copy of ``space`` current (replay
        tombstones, or rebuild it from the rows); False when the extension is missing."""
        conn = self._conn
        if self._vec_version is None:
            if space.vec_synced:  # writes now go where vec0 cannot follow
                conn.execute(
                    "UPDATE vector_spaces SET vec_synced = 0 WHERE fingerprint = ?",
                    (space.fingerprint,),
                )
            return False
        if space.vec_synced and self._table_exists(space.vec_table):
            conn.execute(
                f"DELETE FROM {space.vec_table} WHERE rowid IN "
                "(SELECT id FROM vector_tombstones WHERE fingerprint = ?)",
                (space.fingerprint,),
            )
        else:
            conn.execute(f"DROP TABLE IF EXISTS {space.vec_table}")
            conn.execute(
                f"CREATE VIRTUAL TABLE {space.vec_table} USING vec0("
                f"embedding float[{space.dimensions}] distance_metric=cosine)"
            )
            conn.execute(
                f"INSERT INTO {space.vec_table}(rowid, embedding) "
                "SELECT id, embedding FROM content_vectors WHERE fingerprint = ?",
                (space.fingerprint,),
            )
            conn.execute(
                "UPDATE vector_spaces SET vec_synced = 1 WHERE fingerprint = ?",
                (space.fingerprint,),
            )
        conn.execute("DELETE FROM vector_tombstones WHERE fingerprint = ?", (space.fingerprint,))
        return True

    # -- reads ---------------------------------------------------------------------------------

    def _space(self, fingerprint: str) -> Space | None:
        row = self._conn.execute(
            "SELECT fingerprint, dimensions, vec_table, vec_synced FROM vector_spaces "
            "WHERE fingerprint = ?",
            (fingerprint,),
        ).fetchone()
        return None if row is None else Space(row[0], int(row[1]), row[2], bool(row[3]))

    def _table_exists(self, name: str) -> bool:
        row = self._conn.execute(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return row is not None

    def pending_chunks(
        self, fingerprint: str, limit: int, *, collections: Scope = None, after: Cursor = None
    ) -> list[PendingChunk]:
        scope = tuple(collections or ())
        start = after or ("", -1)
        rows = self._db.rows(
            "listing chunks to embed",
            pending_sql(len(scope)),
            (*scope, start[0], start[1], fingerprint, *scope, max(limit, 0)),
        )
        return [PendingChunk(r[0], int(r[1]), r[2], int(r[3]), r[4]) for r in rows]

    def fingerprints(self) -> list[str]:
        rows = self._db.rows(
            "listing vector fingerprints",
            "SELECT DISTINCT fingerprint FROM content_vectors ORDER BY fingerprint",
            (),
        )
        return [str(r[0]) for r in rows]

    def has_vectors(self, fingerprint: str) -> bool:
        rows = self._db.rows(
            "looking for vectors",
            "SELECT 1 FROM content_vectors WHERE fingerprint = ? LIMIT 1",
            (fingerprint,),
        )
        return bool(rows)

    def vector_count(self, fingerprint: str) -> int:
        rows = self._db.rows(
            "counting vectors",
            "SELECT COUNT(*) FROM content_vectors v WHERE v.fingerprint = ? AND EXISTS "
            "(SELECT 1 FROM documents d WHERE d.mirror_hash = v.mirror_hash AND +d.active = 1)",
            (fingerprint,),
        )
        return int(rows[0][0])

    def coverage(self, fingerprint: str, collections: Scope = None) -> Coverage | None:
        # Vectors only exist for existing chunks, one per chunk and space: equal store-wide
        # counts (two index counts, ~1 ms on 38k pages) mean every chunk has its vector, so no
        # scope can miss one. Only a store with a backlog (a passing state) pays the join.
        (chunks, vectors), *_ = self._db.rows(
            "counting vectors",
            "SELECT (SELECT COUNT(*) FROM chunks), "
            "(SELECT COUNT(*) FROM content_vectors WHERE fingerprint = ?)",
            (fingerprint,),
        )
        if int(chunks) == int(vectors):
            return None
        scope = tuple(collections or ())
        where = f" AND d.collection IN ({', '.join('?' * len(scope))})" if scope else ""
        (total, embedded), *_ = self._db.rows(
            "counting vectors",
            "SELECT COUNT(*), COUNT(v.id) FROM chunks c LEFT JOIN content_vectors v "
            "ON v.fingerprint = ? AND v.mirror_hash = c.mirror_hash AND v.seq = c.seq "
            "WHERE EXISTS (SELECT 1 FROM documents d WHERE d.mirror_hash = c.mirror_hash "
            f"AND +d.active = 1{where})",
            (fingerprint, *scope),
        )
        if int(total) == int(embedded):
            return None
        return Coverage(int(embedded), int(total))

    def chunk_vectors(self, mirror_hash: str, fingerprint: str) -> list[tuple[int, Vector]]:
        rows = self._db.rows(
            "reading vectors",
            "SELECT seq, embedding FROM content_vectors WHERE mirror_hash = ? AND fingerprint = ? "
            "ORDER BY seq",
            (mirror_hash, fingerprint),
        )
        return [(int(seq), vector_from_bytes(blob)) for seq, blob in rows]

    def nearest(
        self, query: Vector, fingerprint: str, filters: SearchFilters, limit: int
    ) -> list[VectorHit]:
        with translate_errors("searching vectors"):
            space = self._space(fingerprint)
            if space is None or limit <= 0:
                return []
            if len(query) != space.dimensions:
                raise ValidationError(
                    f"query vector has {len(query)} dimensions; the index has {space.dimensions}"
                )
            blob = vector_to_bytes(query)
            if filters == NO_FILTERS and self._vec_ready(space):
                hits, exhausted = self._knn(space, blob, limit)
                if len(hits) >= limit or exhausted:
                    return hits[:limit]
            return self._exact(space, blob, filters, limit)

    def _vec_ready(self, space: Space) -> bool:
        if self._vec_version is None:
            return False
        if space.vec_synced and self._table_exists(space.vec_table):
            return True
        try:  # first search after the extension came back: rebuild the accelerator once
            with write_transaction(self._conn):
                current = self._space(space.fingerprint)
                if current is None:
                    return False
                return self._prepare_vec(current)
        except apsw.BusyError:
            return False  # a writer holds the lock: answer exactly now, rebuild later

    def _knn(self, space: Space, blob: bytes, limit: int) -> tuple[list[VectorHit], bool]:
        """Nearest documents among vec0's neighbours; ``exhausted`` when vec0 returned fewer
        neighbours than asked, i.e. every stored vector was considered."""
        k = min(KNN_MAX_K, max(limit * KNN_OVERSAMPLE, limit + KNN_MIN_EXTRA))
        knn = list(
            self._conn.execute(
                f"SELECT rowid, distance FROM {space.vec_table} WHERE embedding MATCH ? AND k = ?",
                (blob, k),
            )
        )
        where = {int(r[0]): float(r[1]) for r in knn}
        chunks = self._conn.execute(
            "SELECT id, mirror_hash, seq FROM content_vectors "
            "WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(where)),),
        )
        ranked = sorted((where[i], str(m), int(seq)) for i, m, seq in chunks)
        best: dict[str, tuple[int, float]] = {}
        for distance, mirror, seq in ranked:
            best.setdefault(mirror, (seq, distance))
        return self._hits(best, NO_FILTERS), len(knn) < k

    def _exact(
        self, space: Space, blob: bytes, filters: SearchFilters, limit: int
    ) -> list[VectorHit]:
        eligible = _eligible(filters)
        ctes = eligible.with_(
            "eligible(mirror_hash) AS MATERIALIZED "
            f"(SELECT DISTINCT d.mirror_hash FROM documents d WHERE {eligible.condition})"
        )
        if self._vec_version is not None:
            sql = (
                f"{ctes.rstrip()}, scored(m, seq, dist) AS ("
                " SELECT v.mirror_hash, v.seq, vec_distance_cosine(v.embedding, ?)"
                f" FROM {_ELIGIBLE_VECTORS}"
                " WHERE v.fingerprint = ?)"
                " SELECT m, seq, MIN(dist) FROM scored GROUP BY m HAVING MIN(dist) <= ?"
                " ORDER BY 3, m LIMIT ?"
            )
            params = (*eligible.params, blob, space.fingerprint)
            fetch = limit + TIE_ROOM
            rows = [
                (str(m), int(seq), float(d))
                for m, seq, d in self._conn.execute(sql, (*params, 4.0, fetch))
            ]
            if len(rows) == fetch and rows[-1][2] == rows[limit - 1][2]:  # ties fill the room
                rows = [
                    (str(m), int(seq), float(d))
                    for m, seq, d in self._conn.execute(sql, (*params, rows[-1][2], -1))
                ]
            best = _with_ties(rows, limit)
        else:
            best = self._exact_numpy(space, blob, ctes, eligible.params, limit)
        return self._hits(best, filters)[:limit]

    def _exact_numpy(
        self,
        space: Space,
        blob: bytes,
        ctes: str,
        params: tuple[object, ...],
        limit: int,
    ) -> dict[str, tuple[int, float]]:
        import numpy as np  # only when sqlite-vec is missing: keep it off the CLI start

        rows = list(
            self._conn.execute(
                f"{ctes}SELECT v.mirror_hash, v.seq, v.embedding FROM {_ELIGIBLE_VECTORS} "
                "WHERE v.fingerprint = ?",
                (*params, space.fingerprint),
            )
        )
        if not rows:
            return {}
        matrix = np.frombuffer(b"".join(r[2] for r in rows), dtype="<f4").reshape(
            len(rows), space.dimensions
        )
        query = np.frombuffer(blob, dtype="<f4").astype(np.float32)
        norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query))
        with np.errstate(divide="ignore", invalid="ignore"):
            cosine = np.where(norms > 0, (matrix @ query) / norms, 0.0)
        distances = 1.0 - cosine.astype(np.float64)
        nearest: dict[str, tuple[str, int, float]] = {}
        cut = math.inf  # the distance of the limit-th mirror, once known
        for index in np.lexsort((np.array([r[0] for r in rows]), distances)):
            mirror = str(rows[index][0])
            if mirror not in nearest:
                distance = float(distances[index])
                if distance > cut:
                    break
                nearest[mirror] = (mirror, int(rows[index][1]), distance)
                if len(nearest) == limit:
                    cut = distance
        return _with_ties(list(nearest.values()), limit)

    def _hits(self, best: dict[str, tuple[int, float]], filters: SearchFilters) -> list[VectorHit]:
        """Eligible documents of the mirrors in ``best`` (mirror -> nearest chunk, distance),
        ordered by distance then collection and path."""
        if not best:
            return []
        eligible = _eligible(filters)
        # The unary plus keeps SQLite off the ``active`` index: looking the few mirrors up by
        # their own index beats scanning every active document.
        condition = eligible.condition.replace("d.active = 1", "+d.active = 1", 1)
        rows = self._conn.execute(
            f"{eligible.with_()}SELECT {DOC_COLUMNS} FROM documents d "
            f"WHERE {condition} AND d.mirror_hash IN (SELECT value FROM json_each(?))",
            (*eligible.params, json.dumps(list(best))),
        )
        docs: list[StoredDocument] = [to_document(r) for r in rows]
        hits = [VectorHit(d, best[d.mirror_hash][0], best[d.mirror_hash][1]) for d in docs]
        hits.sort(key=lambda h: (h.distance, h.document.collection, h.document.rel_path))
        return hits


#: The eligible documents drive the loop (CROSS JOIN fixes the order in SQLite), each looking its
#: vectors up by (fingerprint, mirror_hash); left to itself the planner scanned the materialised
#: eligible set once per vector (dendron-site, one collection: 120-170 ms -> 13-15 ms).
_ELIGIBLE_VECTORS = "eligible e CROSS JOIN content_vectors v ON e.mirror_hash = v.mirror_hash"


def _with_ties(ranked: list[tuple[str, int, float]], limit: int) -> dict[str, tuple[int, float]]:
    """The first ``limit`` of (mirror, seq, distance) rows, best first, plus the rows tied with
    the last of them (documents at equal distance order by collection and path later)."""
    kept = ranked[:limit]
    if kept:
        kept += [r for r in ranked[limit:] if r[2] == kept[-1][2]]
    return {m: (seq, d) for m, seq, d in kept}


class _Eligible(NamedTuple):
    ctes: tuple[str, ...]  # common table expressions the condition needs
    condition: str  # on ``documents AS d``
    params: tuple[object, ...]  # the parameters of ``ctes`` then of ``condition``

    def with_(self, *more: str) -> str:
        """A ``WITH`` clause of these expressions then ``more`` ("" when there are none)."""
        parts = (*self.ctes, *more)
        return "WITH " + ", ".join(parts) + " " if parts else ""


def _eligible(filters: SearchFilters) -> _Eligible:
    """The eligible documents: active, passing ``filters``, and not containing an excluded
    term (FTS5 over path, title and body: the same matching as keyword search)."""
    where = lexical.filter_sql(filters)
    excluded = [p for p in map(lexical.phrase_sql, exclusion_clauses(filters.exclude_terms)) if p]
    if not excluded:
        return _Eligible((), where.where, where.params)
    return _Eligible(
        (
            "excluded(id) AS MATERIALIZED (SELECT rowid FROM documents_fts "
            "WHERE documents_fts MATCH ?)",
        ),
        where.where + " AND d.id NOT IN excluded",
        (" OR ".join(dict.fromkeys(excluded)), *where.params),
    )
