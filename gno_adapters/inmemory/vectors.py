"""``InMemoryVectors``: the ``VectorIndex`` port in memory, searching every vector exactly."""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence

from gno_adapters.inmemory import bm25
from gno_adapters.inmemory.state import InMemoryState, eligible
from gno_core.domain import (
    SearchFilters,
)
from gno_core.errors import ValidationError
from gno_core.ports.embedder import Vector, dot
from gno_core.ports.vectors import (
    ChunkVector,
    Coverage,
    Cursor,
    PendingChunk,
    Scope,
    VectorHit,
)
from gno_core.read_values import exclusion_clauses


class InMemoryVectors:
    """The ``VectorIndex`` port: exact search over every vector."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state

    @property
    def vector_backend(self) -> str:
        return "exact"

    def pending_chunks(
        self, fingerprint: str, limit: int, *, collections: Scope = None, after: Cursor = None
    ) -> list[PendingChunk]:
        space = self._s.vectors.get(fingerprint, {})
        start = after or ("", -1)
        out: list[PendingChunk] = []
        for mirror, title in sorted(self._s.active_mirrors(collections or None).items()):
            for c in self._s.chunks.get(mirror, ()):
                if (mirror, c.seq) > start and (mirror, c.seq) not in space:
                    out.append(PendingChunk(mirror, c.seq, c.text, c.start_line, title))
        return out[: max(limit, 0)]

    def put_vectors(self, fingerprint: str, model_id: str, vectors: Sequence[ChunkVector]) -> int:
        if not vectors:
            return 0
        dims = len(vectors[0].vector)
        space = self._s.vectors.get(fingerprint)
        known = len(next(iter(space.values()))) if space else dims
        if any(len(v.vector) != dims for v in vectors) or known != dims:
            raise ValidationError("vectors of one space must all have the same length")
        space = self._s.vectors.setdefault(fingerprint, {})
        stored = 0
        for item in vectors:
            texts = {c.seq: c.text for c in self._s.chunks.get(item.mirror_hash, ())}
            if item.seq in texts and item.text in (None, texts[item.seq]):
                space[(item.mirror_hash, item.seq)] = array("f", item.vector)
                stored += 1
        return stored

    def delete_vectors(self, fingerprint: str, collections: Scope = None) -> int:
        space = self._s.vectors.get(fingerprint, {})
        mirrors = None
        if collections:
            mirrors = {r.doc.mirror_hash for (c, _), r in self._s.rows.items() if c in collections}
        doomed = [k for k in space if mirrors is None or k[0] in mirrors]
        for key in doomed:
            del space[key]
        return len(doomed)

    def fingerprints(self) -> list[str]:
        return sorted(f for f, space in self._s.vectors.items() if space)

    def has_vectors(self, fingerprint: str) -> bool:
        return bool(self._s.vectors.get(fingerprint))

    def vector_count(self, fingerprint: str) -> int:
        space = self._s.vectors.get(fingerprint, {})
        active = self._s.active_mirrors(None)
        return sum(1 for mirror, _ in space if mirror in active)

    def coverage(self, fingerprint: str, collections: Scope = None) -> Coverage | None:
        space = self._s.vectors.get(fingerprint, {})
        keys = [
            (mirror, c.seq)
            for mirror in self._s.active_mirrors(collections or None)
            for c in self._s.chunks.get(mirror, ())
        ]
        embedded = sum(1 for key in keys if key in space)
        return None if embedded == len(keys) else Coverage(embedded, len(keys))

    def chunk_vectors(self, mirror_hash: str, fingerprint: str) -> list[tuple[int, Vector]]:
        space = self._s.vectors.get(fingerprint, {})
        return sorted((seq, v) for (m, seq), v in space.items() if m == mirror_hash)

    def nearest(
        self, query: Vector, fingerprint: str, filters: SearchFilters, limit: int
    ) -> list[VectorHit]:
        space = self._s.vectors.get(fingerprint, {})
        if not space or limit <= 0:
            return []
        dims = len(next(iter(space.values())))
        if len(query) != dims:
            raise ValidationError(f"query vector has {len(query)} dimensions; the index has {dims}")
        excluded = [
            u
            for u in map(bm25.compile_clause, exclusion_clauses(filters.exclude_terms))
            if u is not None
        ]
        qnorm = math.sqrt(dot(query, query))
        best: dict[str, tuple[float, int]] = {}
        for (mirror, seq), vector in space.items():
            norm = math.sqrt(dot(vector, vector)) * qnorm
            distance = 1.0 - (dot(vector, query) / norm if norm > 0 else 0.0)
            if mirror not in best or (distance, seq) < best[mirror]:
                best[mirror] = (distance, seq)
        hits: list[VectorHit] = []
        for row in self._s.rows.values():
            found = best.get(row.doc.mirror_hash)
            if found is None or not row.doc.active or not eligible(row, filters, self._s):
                continue
            if any(bm25.phrase_count(f, u) for u in excluded for f in row.fields):
                continue
            hits.append(VectorHit(row.doc, found[1], found[0]))
        hits.sort(key=lambda h: (h.distance, h.document.collection, h.document.rel_path))
        return hits[:limit]
