"""Index health: ``status`` (counts per collection, embedding backlog, recent ingest errors,
capabilities) and ``peek`` (a cheap, model-free snapshot that never creates an index)."""

from __future__ import annotations

from collections.abc import Callable

from gno_core.config import LEGACY_CHUNKING_KEY, ChunkingConfig
from gno_core.contracts import (
    ChunkingPolicy,
    CollectionStatus,
    IngestErrorInfo,
    Peek,
    PeekBacklog,
    PeekCounts,
    PeekRecent,
    PeekServe,
    ResidentStatus,
    Status,
    StatusCapabilities,
)
from gno_core.contracts.status import (
    ChunkingState,
    ChunkingStatus,
    ContentTypeBoost,
    FactDiagnosticInfo,
    MemoryStatus,
)
from gno_core.index_handle import IndexHandle
from gno_core.indexing.roots import overlapping_root
from gno_core.links.reads import link_totals
from gno_core.ports import ResidentProbe
from gno_core.ports.index import Index
from gno_core.text.dates import iso_from_ns
from gno_core.version import __version__

__all__ = ["Health", "capabilities_line"]


def capabilities_line(caps: StatusCapabilities) -> str:
    """``status``'s capabilities in words, Ask's included (it answers only with a verifier)."""

    def yn(value: bool) -> str:
        return "yes" if value else "no"

    answer = (
        "yes"
        if caps.answer
        else "no (Ask abstains: no semantic verifier; configure generation.endpoint or "
        "gno models pull nli)"
    )
    return (
        f"Capabilities: bm25 {yn(caps.bm25)}, vector {yn(caps.vector)}, "
        f"hybrid {yn(caps.hybrid)}, answer {answer}"
    )


class Health:
    def __init__(
        self,
        handle: IndexHandle,
        resident: ResidentProbe,
        fingerprint: Callable[[], str | None],
        *,
        answer: Callable[[], bool] = lambda: False,
    ) -> None:
        self.handle = handle
        self._resident = resident
        self._fingerprint = fingerprint
        # Ask can answer only with a generator and a semantic verifier: without one it abstains.
        self._answer = answer

    def status(self) -> Status:
        config = self.handle.load_config()
        index = self.handle.index
        counts = {c.collection: c for c in index.stats.counts(self._fingerprint())}
        collections = []
        for coll in config.collections:
            c = counts.get(coll.name)
            collections.append(
                CollectionStatus(
                    name=coll.name,
                    path=coll.path,
                    document_count=c.documents if c else 0,
                    chunk_count=c.chunks if c else 0,
                    embedded_count=c.embedded if c else 0,
                    inactive_count=c.inactive if c else 0,
                    failed_count=c.failed if c else 0,
                    overlaps=[
                        o.name
                        for o in config.collections
                        if o is not coll and overlapping_root(coll.path, [(o.name, o.path)])
                    ]
                    or None,
                )
            )
        errors = [
            IngestErrorInfo(
                collection=r.failure.collection,
                rel_path=r.failure.rel_path,
                code=r.failure.code,
                message=r.failure.message,
                occurred_at=r.occurred_at,
            )
            for r in index.stats.recent_failures(10)
        ]
        total_chunks = sum(c.chunk_count for c in collections)
        embedded = sum(c.embedded_count for c in collections)
        return Status(
            index_name=self.handle.name,
            config_path=self.handle.config.location,
            db_path=self.handle.provider.location,
            collections=collections,
            total_documents=sum(c.document_count for c in collections),
            total_chunks=total_chunks,
            embedding_backlog=max(0, total_chunks - embedded),
            recent_errors=errors,
            last_updated=index.stats.last_indexed_at(),
            healthy=bool(config.collections) and not any(c.overlaps for c in collections),
            capabilities=StatusCapabilities(
                bm25=True, vector=embedded > 0, hybrid=embedded > 0, answer=self._answer()
            ),
            # No content-type ranking rules exist in gno: the neutral projection.
            content_type_boost=ContentTypeBoost(),
            chunking=_chunking_status(index, config.chunking),
            fts_tokenizer=index.lexical.tokenizer,
            # How this process serves is the transport's to say: a stdio server or a resident
            # gateway replaces this with its own ``ResidentStatus``.
            resident=ResidentStatus(mode="direct-cli", resident=False),
            links=link_totals(index.links.counts()),
            memory=_memory_status(index, [c.name for c in config.collections if c.memory_managed]),
        )

    def peek(self) -> Peek:
        """An uninitialized index is a successful payload (``initialized: false``)."""
        url = self._resident.serve_url()
        serve = PeekServe(running=url is not None, url=url)
        generated = iso_from_ns(self.handle.clock.now_ns())
        if not (self.handle.config.exists() and self.handle.provider.exists()):
            return Peek(
                gno_version=__version__,
                generated_at=generated,
                initialized=False,
                index_name=None,
                counts=None,
                backlog=None,
                last_indexed_at=None,
                recent=[],
                serve=serve,
            )
        index = self.handle.index
        counts = index.stats.counts(self._fingerprint())
        chunks = sum(c.chunks for c in counts)
        embedded = sum(c.embedded for c in counts)
        return Peek(
            gno_version=__version__,
            generated_at=generated,
            initialized=True,
            index_name=self.handle.name,
            counts=PeekCounts(
                documents=sum(c.documents for c in counts),
                collections=len(self.handle.load_config().collections),
            ),
            backlog=PeekBacklog(
                pending=max(0, chunks - embedded), failed=sum(c.failed for c in counts)
            ),
            last_indexed_at=index.stats.last_indexed_at(),
            recent=[
                PeekRecent(
                    docid=d.docid,
                    uri=self.handle.uri(d),
                    title=d.meta.title,
                    collection=d.collection,
                    abs_path=d.abs_path,
                    modified_at=iso_from_ns(d.source_mtime_ns),
                )
                for d in index.documents.recent_documents(10)
            ],
            serve=serve,
        )


def _memory_status(index: Index, names: list[str]) -> MemoryStatus | None:
    if not names:
        return None
    current, superseded, invalid = index.memory.count_facts(names)
    return MemoryStatus(
        collections=names,
        current_facts=current,
        superseded_facts=superseded,
        invalid_facts=invalid,
        diagnostics=[
            FactDiagnosticInfo(
                collection=d.collection,
                rel_path=d.rel_path,
                code=d.problem.code,
                message=d.problem.message,
            )
            for d in index.memory.diagnostics(names, 10)
        ],
    )


def _policy(config: ChunkingConfig) -> ChunkingPolicy:
    return ChunkingPolicy(max_tokens=config.max_tokens, overlap_percent=config.overlap_percent)


def _chunking_status(index: Index, configured: ChunkingConfig) -> ChunkingStatus:
    """Which policy the active documents' chunks were made with, against the configured one
    (read only: status never chunks again)."""
    current = configured.policy_key()
    layouts = index.stats.chunk_layouts(current, LEGACY_CHUNKING_KEY)
    made = {key or LEGACY_CHUNKING_KEY for key, n in layouts.documents.items() if n}
    pending = sum(
        n for key, n in layouts.documents.items() if (key or LEGACY_CHUNKING_KEY) != current
    )
    applied: ChunkingPolicy | None = None
    state: ChunkingState
    if not made:
        state = "empty"
    elif len(made) > 1:
        state = "mixed"
    else:
        (key,) = made
        applied = _policy(ChunkingConfig.from_policy_key(key))
        if key != current:
            state = "pending"
        elif any(n and k is not None for k, n in layouts.documents.items()):
            state = "current"
        else:
            state = "legacy-default"
    return ChunkingStatus(
        configured=_policy(configured),
        applied=applied,
        state=state,
        pending_documents=pending,
        pending_mirrors=layouts.pending_mirrors,
    )
