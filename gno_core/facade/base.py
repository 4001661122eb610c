"""``FacadeBase``: what every part of the ``Gno`` facade shares: the adapters it was built with,
the ``IndexHandle`` of its index, and the capabilities, each built on first use. The operations
themselves are the mixins beside this module, one per room (see ``gno_core.facade``)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Self

from gno_core.errors import ValidationError
from gno_core.index_handle import IndexHandle, IndexOpener

if TYPE_CHECKING:
    # The capabilities and the contracts they answer with are imported on first use: a new
    # ``gno search`` process builds the search contracts only, not the sync, embedding, status
    # or document ones (see docs/reference/benchmarks.md, cold start).
    from collections.abc import Callable

    from gno_core.config import GnoConfig
    from gno_core.documents import Documents
    from gno_core.evidence.capability import Evidence
    from gno_core.health import Health
    from gno_core.indexing.collections import Collections
    from gno_core.indexing.live import LiveIndexer
    from gno_core.indexing.runs import IndexRuns
    from gno_core.links.graph import Graph
    from gno_core.links.reads import Links
    from gno_core.memory.capability import Memory
    from gno_core.ports import (
        ClaimVerifier,
        Clock,
        ConfigRepository,
        Embedder,
        FrontmatterParser,
        Generator,
        IndexProvider,
        NoteFiles,
        ResidentProbe,
        SemanticModels,
        SourceTree,
        TokenCounter,
        WriteLease,
    )
    from gno_core.ports.changes import ChangeFeed
    from gno_core.ports.converters import DocumentConverter
    from gno_core.ports.refactors import RefactorCommit
    from gno_core.refactors.capability import Refactors
    from gno_core.retrieval.modes import Retrieval
    from gno_core.traces.capability import Traces
    from gno_core.writes.service import Writes

__all__ = ["FacadeBase"]


class FacadeBase:
    """The adapters of one index and its capabilities, each built on first use."""

    def __init__(
        self,
        *,
        index_name: str,
        config: ConfigRepository,
        provider: IndexProvider,
        tree: SourceTree,
        frontmatter: FrontmatterParser,
        clock: Clock,
        resident: ResidentProbe,
        models: SemanticModels,
        lease: WriteLease,
        notes: NoteFiles,
        open_index: IndexOpener | None = None,
        token_counter: TokenCounter | None = None,
        generator: Generator | None = None,
        verifier: Callable[[], ClaimVerifier | None] | None = None,
        converter: DocumentConverter | None = None,
        changes: ChangeFeed | None = None,
        refactor_commit: RefactorCommit | None = None,
    ) -> None:
        self.index_name = index_name
        self.handle = IndexHandle(
            name=index_name, config=config, provider=provider, clock=clock, lease=lease
        )
        # Optional models, looked up on first use: without an embedder retrieval is
        # keyword-only (``bm25_only``); without a reranker hybrid results are not reranked.
        self._models = models
        self._open_index = open_index
        self._tree = tree
        self._frontmatter = frontmatter
        self._resident = resident
        self._notes = notes
        # Evidence budgets count with ``token_counter`` (None: the conservative byte count);
        # Ask drafts with ``generator`` and supports claims only by ``verifier``'s verdicts
        # (chosen on first use; None: Ask abstains, and status says it cannot answer).
        self._token_counter = token_counter
        self._generator = generator
        self._choose_verifier = verifier
        self._converter = converter
        self._changes = changes
        self._refactor_commit = refactor_commit

    @cached_property
    def verifier(self) -> ClaimVerifier | None:
        """Ask's semantic claim verifier, chosen on first use (None: there is none)."""
        return None if self._choose_verifier is None else self._choose_verifier()

    @cached_property
    def documents(self) -> Documents:
        from gno_core.documents import Documents

        return Documents(self.handle, self._open_index)

    @cached_property
    def retrieval(self) -> Retrieval:
        from gno_core.retrieval.modes import Retrieval

        return Retrieval(self.handle, self._models)

    @cached_property
    def evidence(self) -> Evidence:
        from gno_core.evidence.capability import Evidence

        return Evidence(
            self.handle,
            lambda: self.retrieval,
            lambda: self.documents,
            self._models,
            self._token_counter,
            self._generator,
            lambda: self.verifier,
        )

    @cached_property
    def collections(self) -> Collections:
        from gno_core.indexing.collections import Collections

        return Collections(self.handle)

    @cached_property
    def runs(self) -> IndexRuns:
        from gno_core.indexing.runs import IndexRuns

        return IndexRuns(
            self.handle,
            self.collections,
            self._tree,
            self._frontmatter,
            self._models,
            self._converter,
            self._refactor_commit,
        )

    @cached_property
    def live(self) -> LiveIndexer:
        """Live indexing over the file-change feed (a ``ValidationError`` without one)."""
        from gno_core.indexing.live import LiveIndexer

        if self._changes is None:
            raise ValidationError("This gno has no file-change feed to watch with")
        return LiveIndexer(self.runs, self.collections, self._models, self._changes)

    @cached_property
    def writes(self) -> Writes:
        from gno_core.writes.service import Writes

        return Writes(
            self.handle,
            self._notes,
            self._frontmatter,
            self.collections,
            lambda: self.fingerprint,
        )

    @cached_property
    def linking(self) -> Links:
        from gno_core.links.reads import Links

        return Links(self.handle, lambda: self.documents)

    @cached_property
    def graphing(self) -> Graph:
        from gno_core.links.graph import Graph

        return Graph(self.handle, lambda: self.documents, lambda: self._models.embedder)

    @cached_property
    def memory(self) -> Memory:
        from gno_core.memory.capability import Memory

        return Memory(self.handle, self._models, self._notes, self._frontmatter)

    @cached_property
    def refactors(self) -> Refactors:
        """Rename, move, duplicate (a ``ValidationError`` without a multi-file commit)."""
        from gno_core.refactors.capability import Refactors

        if self._refactor_commit is None:
            raise ValidationError("This gno has no multi-file commit to refactor with")
        commit = self._refactor_commit
        return Refactors(
            self.handle, self._notes, self._frontmatter, commit, lambda: self.documents
        )

    @cached_property
    def tracing(self) -> Traces:
        """Retrieval traces (``gno_core.traces``): recording when enabled, the receipts."""
        from gno_core.traces.capability import Traces

        return Traces(self.handle, lambda: self.fingerprint)

    @cached_property
    def health(self) -> Health:
        from gno_core.health import Health

        return Health(
            self.handle,
            self._resident,
            lambda: self.fingerprint,
            answer=lambda: self._generator is not None and self.verifier is not None,
        )

    def close(self) -> None:
        self.handle.close()
        if self._converter is not None:
            self._converter.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def config(self) -> GnoConfig:
        return self.handle.load_config()

    @property
    def embedder(self) -> Embedder | None:
        """The embedding model vectors are made and searched with (None: none available)."""
        return self._models.embedder

    @property
    def fingerprint(self) -> str | None:
        """The embedder's fingerprint: which vectors count as embedded."""
        embedder = self._models.embedder
        return embedder.fingerprint if embedder is not None else None
