"""Embedding runs: vectors for the chunks that lack one for the active embedder, batch by batch.

Only missing or stale chunks are embedded: vectors are keyed by the embedder's fingerprint, so
a new model (or text profile) finds every chunk pending while the old vectors stay unused. Each
batch is committed on its own, so a run that is killed resumes where it stopped: the next run
sees the committed batches as done. A batch the model fails on is counted and skipped (its
chunks stay pending); a model that cannot load at all stops the run.

Writes never wait on embedding: the run holds the write lease (``writing``) only to read the
next batch and to commit the previous one, never while the model computes, so a capture or a
sync slips in between two batches. A vector is stored only if its chunk still has the text it
was computed from (a concurrent write may have re-chunked it); what such writes added or
changed behind the run's cursor is picked up by another sweep, at most ``MAX_SWEEPS`` in all.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
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
#: Passes over the pending chunks in one run: the first, then again for what concurrent
#: writes added behind the cursor (bounded, so a run under constant churn still ends).
MAX_SWEEPS = 3

#: Holds the write lease for one read or commit of a run (no lease: ``nullcontext``).
Writing = Callable[[], AbstractContextManager[object]]


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
    with it. A function of ``text.embedding_key`` of the chunk only (vectors are carried over on
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
        writing: Writing = nullcontext,
    ) -> EmbedResult:
        """Embed what is pending (everything with ``force``); ``dry_run`` only counts it.
        ``CANCELLED`` before the next batch once ``cancelled()`` is true. ``writing()`` holds
        the write lease around each read and commit (see the module doc)."""
        started = self._clock.now_ns()
        embedder, index = self._embedder, self._index
        fingerprint = embedder.fingerprint
        with writing():
            if force and not dry_run:
                index.vectors.delete_vectors(fingerprint, collections)
            total = self.backlog(collections)
        run = _Run(index, embedder, self.backlog, collections, max(1, batch_size), writing)
        sweeps = 0
        while not dry_run and sweeps < MAX_SWEEPS:
            sweeps += 1
            if not run.sweep(progress, cancelled, total):
                break
        with writing():
            pending = self.backlog(collections)
            available = index.vectors.vector_count(fingerprint) > 0
        seconds = max(0, self._clock.now_ns() - started) / 1e9
        embedded = run.embedded
        return EmbedResult(
            embedded=embedded,
            errors=run.failed,
            failures=run.failures,
            pending=pending,
            model=embedder.model_id,
            fingerprint=fingerprint,
            dimensions=embedder.dimensions,
            duration_ms=seconds * 1000,
            chunks_per_second=round(embedded / seconds, 2) if embedded and seconds > 0 else None,
            search_available=available,
            dry_run=dry_run,
            forced=force,
            collections=list(collections) if collections else None,
        )


class _Run:
    """The state of one run across its sweeps: counts, failures, the chunks not to retry."""

    def __init__(
        self,
        index: Index,
        embedder: Embedder,
        backlog: Callable[[tuple[str, ...] | None], int],
        collections: tuple[str, ...] | None,
        batch_size: int,
        writing: Writing,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.backlog = backlog
        self.collections = collections
        self.batch_size = batch_size
        self.writing = writing
        self.embedded = self.failed = self.discarded = 0
        self.failures: list[EmbedFailure] = []
        self.skip: set[tuple[str, int]] = set()  # failed this run: not retried by a later sweep

    def sweep(
        self,
        progress: Callable[[EmbedProgress], None] | None,
        cancelled: Callable[[], bool] | None,
        total: int,
    ) -> bool:
        """One pass over the pending chunks in key order; whether another pass may find more
        (a concurrent write added or re-chunked something, or a vector was discarded)."""
        fingerprint = self.embedder.fingerprint
        cursor: tuple[str, int] | None = None
        done: list[ChunkVector] = []
        while True:
            committed = bool(done)
            with self.writing():
                if done:
                    stored = self.index.vectors.put_vectors(
                        fingerprint, self.embedder.model_id, done
                    )
                    self.embedded += stored
                    self.discarded += len(done) - stored
                    done = []
                if cancelled is not None and cancelled():
                    raise CancelledError(
                        f"Embedding cancelled after {self.embedded} chunks (committed batches "
                        "stay)",
                        details={"embedded": self.embedded},
                    )
                batch = self._next(cursor)
                more = self.backlog_beyond_skipped() > 0 if not batch else False
            if committed:
                self._report(progress, total)
            if not batch:
                return more
            cursor = (batch[-1].mirror_hash, batch[-1].seq)
            batch = [c for c in batch if (c.mirror_hash, c.seq) not in self.skip]
            if batch:
                done = self._embed(batch, progress, total)

    def _next(self, cursor: tuple[str, int] | None) -> list[PendingChunk]:
        return self.index.vectors.pending_chunks(
            self.embedder.fingerprint,
            self.batch_size,
            collections=self.collections,
            after=cursor,
        )

    def _report(self, progress: Callable[[EmbedProgress], None] | None, total: int) -> None:
        if progress is not None:
            handled = self.embedded + self.failed + self.discarded
            progress(EmbedProgress(handled, max(total, handled), self.failed))

    def backlog_beyond_skipped(self) -> int:
        return self.backlog(self.collections) - len(self.skip)

    def _embed(
        self,
        batch: list[PendingChunk],
        progress: Callable[[EmbedProgress], None] | None,
        total: int,
    ) -> list[ChunkVector]:
        """The batch's vectors (outside the lease), or none when the model failed on it."""
        embedder = self.embedder
        try:
            vectors = embedder.embed_batch([passage_text(embedder, c) for c in batch])
        except ModelUnavailableError:
            raise
        except GnoError as exc:
            self.failed += len(batch)
            self.skip.update((c.mirror_hash, c.seq) for c in batch)
            if len(self.failures) < MAX_REPORTED_FAILURES:
                self.failures.append(
                    EmbedFailure(message=exc.message, chunks=len(batch), code=exc.code)
                )
            self._report(progress, total)
            return []
        return [
            ChunkVector(c.mirror_hash, c.seq, v, c.text)
            for c, v in zip(batch, vectors, strict=True)
        ]
