"""The in-memory adapter set: the real ``Gno`` over fakes (config, index, source tree, clock,
resident probe, hash embedder, overlap reranker), for tests and for trying gno without a disk.

``in_memory(notes)`` holds the given notes under ``/notes`` as collection ``notes``; sync (or
``index``) them before searching, as with real folders."""

from __future__ import annotations

from collections.abc import Mapping

from gno_adapters.bootstrap.adapters import Adapters
from gno_adapters.bootstrap.lazy import LazyTokenCounter
from gno_adapters.converters.registry import InProcessConverters
from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_adapters.generation.extractive import ExtractiveGenerator
from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.inmemory.config import InMemoryConfigRepository
from gno_adapters.inmemory.embedder import HashEmbedder
from gno_adapters.inmemory.index import in_memory_index
from gno_adapters.inmemory.lease import InMemoryWriteLease
from gno_adapters.inmemory.notes import InMemoryNoteFiles
from gno_adapters.inmemory.refactor_commit import InMemoryRefactorCommit
from gno_adapters.inmemory.reranker import OverlapReranker
from gno_adapters.inmemory.resident import FixedResidentProbe
from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_adapters.watch.feed import ManualFeed
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.ports import Clock, Index

__all__ = ["MemoryIndexProvider", "in_memory"]

NOTES_ROOT = "/notes"


class MemoryIndexProvider:
    """``IndexProvider`` over one in-memory index, created on first open and kept for the
    provider's lifetime (closing the facade does not lose it)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._index: Index | None = None

    @property
    def location(self) -> str:
        return "memory://index"

    def exists(self) -> bool:
        return self._index is not None

    def open(self) -> Index:
        if self._index is None:
            self._index = in_memory_index(self._clock)
        index = self._index
        # The facade closes what it opened; the data must outlive that, as a file would.
        return Index(
            index.documents,
            index.ledger,
            index.stats,
            index.lexical,
            index.vectors,
            index.links,
            index.memory,
            journal=index.journal,
            egress_policies=index.egress_policies,
            egress_receipts=index.egress_receipts,
            traces=index.traces,
        )


def in_memory(
    notes: Mapping[str, str | bytes] | None = None,
    *,
    index_name: str = "default",
    embedder: bool = True,
    reranker: bool = False,
) -> Adapters:
    """Fakes for every port; ``notes`` (relative path -> content) become collection ``notes``."""
    clock = FixedClock()
    tree = InMemorySourceTree()
    config = InMemoryConfigRepository()
    if notes is not None:
        tree.mkdir(NOTES_ROOT)
        for rel, content in notes.items():
            tree.write(f"{NOTES_ROOT}/{rel}", content)
        config.save(GnoConfig(collections=[CollectionConfig(name="notes", path=NOTES_ROOT)]))
    return Adapters(
        index_name=index_name,
        config=config,
        provider=MemoryIndexProvider(clock),
        tree=tree,
        frontmatter=YamlFrontmatterParser(),
        clock=clock,
        resident=FixedResidentProbe(),
        lease=InMemoryWriteLease(),
        notes=InMemoryNoteFiles(tree),
        embedder=HashEmbedder() if embedder else None,
        reranker=OverlapReranker() if reranker else None,
        token_counter=LazyTokenCounter(),
        generator=ExtractiveGenerator(),
        # Tests hand in their own bytes: converting in process is enough, and fast.
        converter=InProcessConverters(),
        changes=ManualFeed(),
        refactor_commit=InMemoryRefactorCommit(tree),
    )
