"""Embedding contracts: ``embed-result@1.0`` (one ``gno embed`` run) and ``index-result@1.0``
(``gno index``: sync, then embed)."""

from __future__ import annotations

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.collections import SyncResult


class EmbedFailure(WireModel):
    """A batch of chunks the embedder could not turn into vectors (they stay pending)."""

    message: str
    chunks: int = Field(ge=1)
    code: str


class EmbedResult(WireModel):
    """What one embedding run did. ``errors`` counts chunks that failed; they stay pending and
    the next run retries them."""

    embedded: int = Field(ge=0)
    errors: int = Field(ge=0)
    failures: list[EmbedFailure] = Field(default_factory=list, max_length=20)
    pending: int = Field(ge=0, description="chunks still without a vector after the run")
    model: str
    fingerprint: str
    dimensions: int = Field(ge=1)
    duration_ms: float = Field(ge=0)
    chunks_per_second: float | None = Field(default=None, ge=0)
    search_available: bool
    dry_run: bool = False
    forced: bool = False
    collections: list[str] | None = None


class IndexResult(WireModel):
    """``gno index``: the sync, then the embedding run (skipped without a model or when asked)."""

    sync_result: SyncResult
    embed_skipped: bool
    embed_skip_reason: str | None = None
    embed_result: EmbedResult | None = None
