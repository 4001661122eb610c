"""Port: text embedding, plus the vector type, text profiles and fingerprint it is keyed by.

A vector is an ``array.array('f')`` (float32, unit length): the core passes it around, compares
it and stores its little-endian bytes without numpy.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from array import array
from collections.abc import Sequence
from typing import NamedTuple, Protocol, TypeAlias

#: A unit-length float32 vector (``array('f')``). Treat it as immutable once returned.
Vector: TypeAlias = "array[float]"


class TextProfile(NamedTuple):
    """How a model wants passages and queries phrased before they are embedded.

    ``id`` names the phrasing and enters the embedding fingerprint: change the phrasing, change
    the id, and stored vectors become stale instead of silently mismatched.
    """

    id: str
    query_prefix: str = ""
    document_prefix: str = ""

    def document(self, text: str, title: str | None = None) -> str:
        """The text to embed for a passage of a document titled ``title``."""
        body = f"{title}\n{text}" if title else text
        return self.document_prefix + body

    def query(self, text: str) -> str:
        """The text to embed for a search query."""
        return self.query_prefix + text


#: Models trained on raw sentences (all-MiniLM-L6-v2): no prefixes.
PLAIN_PROFILE = TextProfile(id="plain-v1")
#: E5 models: asymmetric ``query:`` / ``passage:`` prefixes.
E5_PROFILE = TextProfile(id="e5-v1", query_prefix="query: ", document_prefix="passage: ")


def embedding_fingerprint(model_id: str, dimensions: int, max_tokens: int, profile_id: str) -> str:
    """SHA-256 (hex) identifying the vector space an embedder produces; stored vectors are keyed
    by it, and a change of any input makes them stale."""
    payload = json.dumps(
        {"model": model_id, "dims": dimensions, "maxTokens": max_tokens, "profile": profile_id},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors (dot product = cosine similarity).

    Identity (``model_id``, ``dimensions``, ``max_tokens``, ``profile``, ``fingerprint``) is known
    without loading the model, so status reports and planning never pay for a load; the model
    loads on the first ``embed_batch``.
    """

    @property
    def model_id(self) -> str:
        """The model's stable identifier (e.g. ``sentence-transformers/all-MiniLM-L6-v2``)."""
        ...

    @property
    def dimensions(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    @property
    def max_tokens(self) -> int:
        """Tokens the model reads per text; the rest of a longer text is ignored."""
        ...

    @property
    def profile(self) -> TextProfile:
        """How callers phrase passages and queries for this model before ``embed_batch``."""
        ...

    @property
    def fingerprint(self) -> str:
        """``embedding_fingerprint`` of this embedder's model, dimensions, max tokens and
        profile."""
        ...

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        """One vector per text, in input order (an empty input gives an empty list).

        Deterministic: the same text gives the same vector, bit for bit, whatever else is in the
        batch and however the work is split. Every vector has L2 norm 1 (within float32
        rounding), including the one for the empty string. Text past ``max_tokens`` is truncated,
        never rejected. Raises ``MODEL_UNAVAILABLE`` when the model cannot be found or loaded,
        and ``RUNTIME`` when inference fails.
        """
        ...


def vector_to_bytes(vector: Vector) -> bytes:
    """The little-endian float32 bytes of ``vector`` (the storage form)."""
    if sys.byteorder == "little":
        return vector.tobytes()
    swapped = array("f", vector)
    swapped.byteswap()
    return swapped.tobytes()


def vector_from_bytes(data: bytes) -> Vector:
    """The vector stored as little-endian float32 ``data``."""
    vector = array("f")
    vector.frombytes(data)
    if sys.byteorder != "little":
        vector.byteswap()
    return vector


def dot(a: Vector, b: Vector) -> float:
    """Dot product of two vectors of the same length (the cosine, for unit vectors)."""
    if len(a) != len(b):
        raise ValueError(f"vector lengths differ: {len(a)} != {len(b)}")
    return math.fsum(x * y for x, y in zip(a, b, strict=True))
