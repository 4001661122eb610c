"""Port: the links between documents — what each document links to, what links to it, and
the resolution state sync maintains.

Links are written by the ``SyncLedger`` in the same batch as their document (so a document and
its links are never out of step), each new link ``pending``. The ledger also marks pending every
link carrying a name (``ExtractedLink.keys``) of a document that appears, changes its names or
goes; ``gno_core.links.resolve`` then resolves what is pending through this port
(``resolve_pending``: the store hands batches of pending rows and the name rows they hit to
the shared pure rules and records their answer). Reads only ever see active documents at both
ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, Protocol

from gno_core.domain import (
    Edge,
    ExtractedLink,
    LinkCounts,
    LinkGraph,
    LinkRecord,
    Mention,
    NameHit,
    PendingLink,
)


class DocumentLinks(NamedTuple):
    """The links ingest extracted from an active document's mirror (every field, ``keys``
    included, in link order) with the hashes of the source bytes and of the mirror they were
    extracted from."""

    source_hash: str
    mirror_hash: str
    links: tuple[ExtractedLink, ...]


class PendingRow(NamedTuple):
    """A pending link as resolution reads it: the store's handle, its active source document
    and the link fields the rules look at (``ExtractedLink``'s names)."""

    link_id: int
    collection: str
    rel_path: str
    link_type: str
    target_ref: str
    alias: str | None
    target_collection: str | None
    keys: tuple[str, ...]

    @property
    def scope(self) -> str:
        """The collection the link resolves in: the one it names, else its own."""
        return self.target_collection or self.collection


class NamedDoc(NamedTuple):
    """An active document carrying a name, with the store's handle for it (``doc_id``)."""

    doc_id: int
    collection: str
    rel_path: str


#: A name a document carries, as resolution reads it: ``(kind, key, document)``.
NameRow = tuple[str, str, NamedDoc]
#: What a pending link resolves to: ``(link_id, ((doc_id, confidence, method), ...))``.
Resolution = tuple[int, tuple[tuple[int, str, str], ...]]
#: The rules over one batch: given the pending rows and the name rows their keys hit, one
#: ``Resolution`` per row, in row order (no targets: unresolved).
BatchResolver = Callable[[Sequence[PendingRow], Sequence[NameRow]], list[Resolution]]


class LinkStore(Protocol):
    """Storage failures raise ``RUNTIME``."""

    def outgoing(self, collection: str, rel_path: str) -> list[LinkRecord]:
        """The links of one active document in document order (none if it is not active)."""
        ...

    def document_links(
        self, documents: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], DocumentLinks]:
        """Of each active document among ``documents`` ((collection, rel_path) pairs): its
        stored links as the ledger wrote them, with the hashes of the version they belong to,
        read together (a refactor reads the links of a hub's 2,000 linking notes at once)."""
        ...

    def incoming(
        self, collection: str, rel_path: str, source_collection: str | None = None
    ) -> list[LinkRecord]:
        """The links of active documents (of ``source_collection`` when given) that resolve to
        this document, ordered by source collection, path and link order; each record's
        ``targets`` holds this document only."""
        ...

    def mentions(
        self, collection: str, rel_path: str, source_collection: str | None = None
    ) -> list[Mention]:
        """The links ``incoming`` returns, in the same order, as flat ``Mention`` tuples (what
        a backlink list shows, without building a record per link)."""
        ...

    def edges(self, collection: str | None = None, relation: str | None = None) -> Iterator[Edge]:
        """Every resolved link between two active documents (with its source in
        ``collection``, of edge type ``relation``, when given), one edge per target, streamed
        in source order."""
        ...

    def graph(self, collection: str | None = None) -> LinkGraph:
        """Every active document of ``collection`` (all when None) and the edges of ``edges``
        with both ends among them, in no particular order: the whole graph in one read, as
        plain tuples (a report over tens of thousands of links costs its rows, not an object
        per edge)."""
        ...

    def adjacent(
        self, documents: Sequence[tuple[str, str]], relation: str | None = None
    ) -> list[Edge]:
        """The edges of ``edges`` with either end among ``documents`` ((collection, rel_path)
        pairs), each once, in source order: one read per breadth-first level, so a walk costs
        its frontier, not the whole graph."""
        ...

    def degrees(
        self, documents: Sequence[tuple[str, str]], collection: str | None = None
    ) -> dict[tuple[str, str], int]:
        """How many graph links touch each of ``documents``: resolved links between two
        active documents (both in ``collection`` when given), self-links left out, merged per
        (source, target, link type), counted once at each end. Documents with none are left
        out. What ``adjacent`` would give to count, as one count-only read."""
        ...

    def unresolved(self, collection: str | None = None, limit: int = 100) -> list[LinkRecord]:
        """Links to documents that are not in the index (external links excluded), ordered by
        source collection, path and link order."""
        ...

    def crowded(self, count: int) -> list[tuple[str, str]]:
        """The active documents with at least ``count`` stored links (numbered ``0 ..``), as
        (collection, rel_path) pairs in that order: the notes whose extraction reached the
        cap (``MAX_LINKS``), so links past it are not stored."""
        ...

    def counts(self, collection: str | None = None) -> LinkCounts:
        """Totals over the links of active documents; ``edge_types`` and ``confidence`` count
        resolved links by relation and by confidence, most frequent first."""
        ...

    def pending(self, limit: int) -> list[PendingLink]:
        """Up to ``limit`` links of active documents waiting for resolution."""
        ...

    def candidates(self, collection: str, keys: Sequence[str]) -> list[NameHit]:
        """The names among ``keys`` carried by active documents of ``collection``."""
        ...

    def resolve_pending(self, resolve: BatchResolver, batch: int) -> int:
        """Resolve every pending link; returns how many were resolved. The store reads its
        pending links of active documents up to ``batch`` at a time, in link order, as
        ``PendingRow``s, with the name rows their keys hit: each ``(kind, key, NamedDoc)`` of
        an active document of a link's ``scope`` carrying one of that link's ``keys``. It
        hands both to ``resolve`` (the rules, pure and shared: ``gno_core.links.resolve``),
        and stores what that returns for each link in one transaction: its ``(doc_id,
        confidence, method)`` targets replace the old ones (none: unresolved; several:
        ambiguous; else resolved) and its pending mark is cleared. A store may settle some
        pending links itself first, in bulk, provided each gets exactly what ``resolve``
        would give it (the SQLite store settles most ``[[Name]]`` and path links in SQL; the
        contract suite holds the two equal)."""
        ...
