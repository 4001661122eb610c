"""Port: the vector index (chunk embeddings keyed by embedder fingerprint) and its k-NN search.

Vectors belong to a chunk of a canonical mirror (``mirror_hash``, ``seq``) in the vector space of
one embedder (its ``fingerprint``): vectors of different fingerprints are never compared, so a
model change leaves the old vectors unused (and the chunks pending) instead of mixing spaces.
Vectors follow their chunks: when a mirror's chunks change or the mirror is dropped, its vectors
go with it; deactivating a document keeps them (a reactivated document needs no re-embedding).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from gno_core.ports.embedder import Vector
from gno_core.read_values import SearchFilters, StoredDocument

#: The collections an operation covers (None: all of them).
Scope = tuple[str, ...] | None
#: Where a paged read resumes: after this ``(mirror_hash, seq)`` (None: from the start).
Cursor = tuple[str, int] | None


class PendingChunk(NamedTuple):
    """A chunk that has no vector yet for some fingerprint, with what embedding it needs."""

    mirror_hash: str
    seq: int
    text: str
    start_line: int
    title: str | None = None  # the title of an active document using the mirror


class ChunkVector(NamedTuple):
    """The vector of one chunk; ``text``, when given, is the chunk text it was computed from
    (stored only while the chunk still has that text)."""

    mirror_hash: str
    seq: int
    vector: Vector
    text: str | None = None


class Coverage(NamedTuple):
    """How much of a scope can be searched by meaning: ``embedded`` of the ``total`` chunks of
    its active documents have a vector in one space."""

    embedded: int
    total: int

    @property
    def percent(self) -> int:
        """The embedded share in whole percent, rounded down (never 100 while one is missing)."""
        return self.embedded * 100 // self.total if self.total else 100


class VectorHit(NamedTuple):
    """An eligible document and its chunk nearest to the query (cosine distance in [0, 2])."""

    document: StoredDocument
    seq: int
    distance: float


class VectorIndex(Protocol):
    """Chunk vectors per embedder fingerprint, and nearest-document search over them."""

    def pending_chunks(
        self, fingerprint: str, limit: int, *, collections: Scope = None, after: Cursor = None
    ) -> list[PendingChunk]:
        """Up to ``limit`` chunks of active documents (of ``collections`` when given) without a
        vector for ``fingerprint``, ordered by (mirror_hash, seq) and strictly after ``after``
        (a keyset cursor: pass the last chunk of the previous page). A mirror shared by several
        documents is listed once."""
        ...

    def put_vectors(self, fingerprint: str, model_id: str, vectors: Sequence[ChunkVector]) -> int:
        """Store ``vectors`` (all of one length) for ``fingerprint`` in one transaction,
        replacing any vector the same chunks had; returns how many were stored. A vector whose
        chunk no longer exists, or (``text`` given) no longer has that text, is skipped: it was
        computed for a chunk a concurrent write replaced. Atomic: a process killed mid-call
        leaves all or none of them. Raises ``RUNTIME``."""
        ...

    def delete_vectors(self, fingerprint: str, collections: Scope = None) -> int:
        """Drop the vectors of ``fingerprint`` (only those of mirrors used by documents of
        ``collections`` when given); returns how many were dropped."""
        ...

    def fingerprints(self) -> list[str]:
        """Every fingerprint with at least one stored vector, sorted (the current model's and
        the stale ones of models used before)."""
        ...

    def has_vectors(self, fingerprint: str) -> bool:
        """Whether any vector of ``fingerprint`` is stored (cheap; active or not)."""
        ...

    def vector_count(self, fingerprint: str) -> int:
        """How many chunks of active documents have a vector for ``fingerprint``."""
        ...

    def nearest(
        self, query: Vector, fingerprint: str, filters: SearchFilters, limit: int
    ) -> list[VectorHit]:
        """The ``limit`` eligible documents whose nearest chunk is closest to ``query``, best
        first (ties by collection then path), each with that chunk's ``seq`` and distance.

        ``filters`` (active documents only, collection, path, tags, dates, categories, author,
        language, excluded terms) define the eligible set BEFORE the nearest neighbours are
        chosen: an ineligible or inactive document never displaces an eligible one. Documents
        without a vector for ``fingerprint`` are not returned."""
        ...

    def coverage(self, fingerprint: str, collections: Scope = None) -> Coverage | None:
        """How many chunks of the active documents of ``collections`` (all when None) have a
        vector for ``fingerprint``, of how many; None when every one of them has one (or there
        are none). Cheap when the whole store is embedded, the usual state: only a store with a
        backlog pays the count over the scope."""
        ...

    def chunk_vectors(self, mirror_hash: str, fingerprint: str) -> list[tuple[int, Vector]]:
        """The (seq, vector) pairs stored for a mirror's chunks, ordered by seq."""
        ...

    @property
    def vector_backend(self) -> str:
        """How ``nearest`` runs: an accelerator name and version, or ``exact``."""
        ...
