"""Embedding runs: vectors for the chunks that lack one for the active embedder, batch by batch.

Only missing or stale chunks are embedded: vectors are keyed by the embedder's fingerprint, so
a new model (or text profile) finds every chunk pending while the old vectors stay unused. Each
batch is committed on its own, so a run that is killed resumes where it stopped: the next run
sees the committed batches as done. A batch the model fails on is counted and skipped (its
chunks stay pending); a model that cannot load at all stops the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gno_core.contracts.embedding import EmbedFailure, EmbedResult
from gno_core.defaults import DEFAULT_EMBED_BATCH_SIZE
from gno_core.errors import CancelledError, GnoError, ModelUnavailableError
from gno_core.ports.clock import Clock
from gno_core.ports.embedder import Embedder
from gno_core.ports.index import Index
from gno_core.ports.vectors import ChunkVector, PendingChunk
from gno_core.retrieval.snippets import frontmatter_lines
from gno_core.text.canonical import collapse_blank_runs

DEFAULT_BATCH_SIZE = DEFAULT_EMBED_BATCH_SIZE
MAX_REPORTED_FAILURES = 20


@dataclass(frozen=True, slots=True)
class EmbedProgress:
    """``done`` of about ``total`` pending chunks handled so far (``failed`` of them failed)."""

    done: int
    total: int
    failed: int


def passage_text(embedder: Embedder, chunk: PendingChunk) -> str:
    """The text embedded for ``chunk``: blank runs collapsed (as they were before mirrors kept
    every source line, so that text embedded then is the text embedded now), frontmatter left out,
    the document title in front (through the model's profile) unless the chunk already opens
    with it. A function of ``reuse.embedding_key`` of the chunk only (vectors are carried over on
    that promise)."""
    text = collapse_blank_runs(chunk.text)
    if chunk.start_line == 1:
        skip = frontmatter_lines(text)
        if skip:
            text = text.split("\n", skip)[-1] if text.count("\n") >= skip else ""
    title = (chunk.title or "").strip()
    first = next((line for line in text.split("\n") if line.strip()), "")
    if title and title.casefold() in first.casefold():
        title = ""
    return embedder.profile.document(text, title or None)


class BacklogEmbedder:
    """Runs embedding over an ``Index`` with one ``Embedder``."""

    def __init__(self, index: Index, embedder: Embedder, clock: Clock) -> None:
        self._index = index
        self._embedder = embedder
        self._clock = clock

    def backlog(self, collections: tuple[str, ...] | None = None) -> int:
        """Chunks of active documents (of ``collections``) without a vector for this model."""
        fingerprint = self._embedder.fingerprint
        return sum(
            max(0, c.chunks - c.embedded)
            for c in self._index.stats.counts(fingerprint)
            if not collections or c.collection in collections
        )

    def run(
        self,
        collections: tuple[str, ...] | None = None,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        force: bool = False,
        dry_run: bool = False,
        progress: Callable[[EmbedProgress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> EmbedResult:
        """Embed what is pending (everything with ``force``); ``dry_run`` only counts it.
        ``CANCELLED`` before the next batch once ``cancelled()`` is true."""
        started = self._clock.now_ns()
        embedder, index = self._embedder, self._index
        fingerprint = embedder.fingerprint
        if force and not dry_run:
            index.vectors.delete_vectors(fingerprint, collections)
        total = self.backlog(collections)
        embedded = failed = 0
        failures: list[EmbedFailure] = []
        cursor: tuple[str, int] | None = None
        while not dry_run:
            if cancelled is not None and cancelled():
                raise CancelledError(
                    f"Embedding cancelled after {embedded} chunks (committed batches stay)",
                    details={"embedded": embedded},
                )
            batch = index.vectors.pending_chunks(
                fingerprint, max(1, batch_size), collections=collections, after=cursor
            )
            if not batch:
                break
            cursor = (batch[-1].mirror_hash, batch[-1].seq)
            try:
                vectors = embedder.embed_batch([passage_text(embedder, c) for c in batch])
            except ModelUnavailableError:
                raise
            except GnoError as exc:
                failed += len(batch)
                if len(failures) < MAX_REPORTED_FAILURES:
                    failures.append(
                        EmbedFailure(message=exc.message, chunks=len(batch), code=exc.code)
                    )
            else:
                index.vectors.put_vectors(
                    fingerprint,
                    embedder.model_id,
                    [
                        ChunkVector(c.mirror_hash, c.seq, v)
                        for c, v in zip(batch, vectors, strict=True)
                    ],
                )
                embedded += len(batch)
            if progress is not None:
                progress(EmbedProgress(embedded + failed, max(total, embedded + failed), failed))
        seconds = max(0, self._clock.now_ns() - started) / 1e9
        return EmbedResult(
            embedded=embedded,
            errors=failed,
            failures=failures,
            pending=self.backlog(collections),
            model=embedder.model_id,
            fingerprint=fingerprint,
            dimensions=embedder.dimensions,
            duration_ms=seconds * 1000,
            chunks_per_second=round(embedded / seconds, 2) if embedded and seconds > 0 else None,
            search_available=index.vectors.vector_count(fingerprint) > 0,
            dry_run=dry_run,
            forced=force,
            collections=list(collections) if collections else None,
        )
