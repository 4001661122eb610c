"""Domain values shared by sync, storage and retrieval (plain frozen dataclasses, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gno_core.facts import FactRecord, InvalidFact
from gno_core.metadata.extract import VALID_EMPTY, DocumentMetadata

# The values of the read path, named here too (see ``gno_core.read_values``).
from gno_core.read_values import (
    Chunk,
    Clause,
    DocumentMeta,
    LexicalHit,
    LexicalQuery,
    Phrase,
    SearchFilters,
    StoredDocument,
    Term,
)

__all__ = [
    "AMBIGUOUS",
    "EMBEDS",
    "EXPLICIT",
    "FRONTMATTER_RELATION",
    "INFERRED",
    "INGEST_VERSION",
    "LINKS_TO",
    "MARKDOWN",
    "MARKDOWN_LINK",
    "WIKI",
    "WIKILINK",
    "Chunk",
    "ChunkLayouts",
    "Clause",
    "DocRef",
    "DocumentMeta",
    "Edge",
    "ExtractedLink",
    "FailureRecord",
    "IndexCounts",
    "IndexedDocument",
    "IngestFailure",
    "LexicalHit",
    "LexicalQuery",
    "LinkCounts",
    "LinkGraph",
    "LinkRecord",
    "LinkTarget",
    "Mention",
    "NameHit",
    "NameKey",
    "PendingLink",
    "Phrase",
    "SearchFilters",
    "SourceFile",
    "SourceState",
    "StoredDocument",
    "SyncBatch",
    "Term",
]

#: Bump to force every document to be re-processed on the next sync (chunker or parser change).
# 2: links and document names extracted at sync; 3: converters; 4: inline tags; 5: Markdown and
# text mirrors keep every source line (line numbers are the file's); 6: link reference
# definitions are links; 7: typed ``gno.metadata`` extracted
INGEST_VERSION = 7


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file the walker found under a collection root."""

    rel_path: str  # POSIX separators, relative to the collection root
    abs_path: str
    size: int
    mtime_ns: int
    # Why this entry cannot be indexed whatever its content (e.g. a name that is not UTF-8):
    # sync records it as a failure with this code without reading it.
    unindexable: str | None = None


@dataclass(frozen=True, slots=True)
class SourceState:
    """What the store remembers of a source, to decide whether it changed."""

    rel_path: str
    source_hash: str
    size: int
    mtime_ns: int
    active: bool
    ingest_version: int
    failed: bool = False  # the last attempt failed; retried only when size or mtime change
    failure_code: str = ""  # the failure's code (a missing converter is retried once one exists)
    #: which extractor made the active document, and its version ("" when not known): a file
    #: whose extractor changed since (a converter installed or upgraded) is extracted again
    converter_id: str = ""
    converter_version: str = ""
    #: the chunking policy (``ChunkingConfig.policy_key``) the active document's chunks were
    #: made with; None for documents indexed before the policy was recorded (the defaults)
    chunking: str | None = None


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    """One document as sync writes it: identity, source facts, canonical mirror, chunks, meta."""

    collection: str
    rel_path: str
    abs_path: str
    source_hash: str
    source_mime: str
    source_ext: str
    source_size: int
    source_mtime_ns: int
    mirror_hash: str
    markdown: str
    chunks: tuple[Chunk, ...]
    meta: DocumentMeta
    converter_id: str
    converter_version: str
    ingest_version: int = INGEST_VERSION
    #: what the converter could not keep (empty for Markdown and text)
    converter_warnings: tuple[str, ...] = ()
    # Links found in the mirror and the names other notes can link to this one by
    # (``gno_core.links``); empty for documents that are not Markdown.
    links: tuple[ExtractedLink, ...] = ()
    names: tuple[NameKey, ...] = ()
    # The fact record a memory collection's ``facts/`` file states, or why it is not one.
    fact: FactRecord | InvalidFact | None = None
    #: the chunking policy its chunks were made with (``ChunkingConfig.policy_key``)
    chunking: str | None = None
    #: the typed ``gno.metadata`` map and its extraction state (``gno_core.metadata``)
    metadata: DocumentMetadata = VALID_EMPTY


@dataclass(frozen=True, slots=True)
class IngestFailure:
    """A file that could not be indexed, and why (``code`` is stable: BINARY, ENCODING, ...)."""

    collection: str
    rel_path: str
    code: str
    message: str
    source_hash: str | None = None
    size: int = 0
    mtime_ns: int = 0


@dataclass(frozen=True, slots=True)
class SyncBatch:
    """One transaction's worth of sync work for one collection."""

    collection: str
    upserts: tuple[IndexedDocument, ...] = ()
    touched: tuple[SourceState, ...] = ()  # unchanged content, new mtime/size to remember
    deactivate: tuple[str, ...] = ()  # rel_paths no longer on disk
    failures: tuple[IngestFailure, ...] = ()
    # rel_paths whose failure record ends: the file is gone (a fixed file's upsert clears it)
    forget_failures: tuple[str, ...] = ()
    # (old rel_path, new rel_path) of notes moved within the collection (a refactor): the change
    # journal records each as one ``rename``, not an inactivate and a create
    renamed: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class FailureRecord:
    """A recorded ingest failure with the time it was seen."""

    failure: IngestFailure
    occurred_at: str


@dataclass(frozen=True, slots=True)
class IndexCounts:
    collection: str
    documents: int
    inactive: int
    chunks: int
    embedded: int
    failed: int


@dataclass(frozen=True, slots=True)
class ChunkLayouts:
    """How the chunks of the active documents were made: active documents per recorded
    chunking policy (None: recorded before policies were), and the distinct mirrors of the
    active documents whose policy is not the current one."""

    documents: dict[str | None, int]
    pending_mirrors: int


# -- links between documents (``gno_core.links``) --------------------------------------------

#: Link syntaxes (``linkType`` on the wire).
WIKI = "wiki"
MARKDOWN = "markdown"
#: Where an edge was written (``edgeSource``).
WIKILINK = "wikilink"
MARKDOWN_LINK = "markdown-link"
FRONTMATTER_RELATION = "frontmatter-relation"
#: Relations of links written in the body; frontmatter keys give their own (``works_at``).
LINKS_TO = "links_to"
EMBEDS = "embeds"
#: Confidence of a resolved link.
EXPLICIT = "explicit"
INFERRED = "inferred"
AMBIGUOUS = "ambiguous"


@dataclass(frozen=True, slots=True)
class ExtractedLink:
    """One link as written in a document's canonical mirror.

    ``target_ref`` is the target as written (percent-decoded, without ``#anchor`` and without a
    ``collection:`` qualifier); ``alias`` is the other half of ``[[a|b]]`` (the label in
    Obsidian's order, the target in Dendron's). Positions are 1-based mirror coordinates,
    ``end_col`` inclusive. ``keys`` are the lookup names (NFC, casefolded) of every document
    that could be its target: when a document with one of those names appears, changes or goes,
    the link is resolved again. ``context`` is the source line, trimmed around the link."""

    seq: int
    link_type: str
    edge_source: str
    relation: str
    target_ref: str
    target_anchor: str | None
    target_collection: str | None
    link_text: str | None
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    alias: str | None = None
    external: bool = False
    embed: bool = False
    context: str = ""
    keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NameKey:
    """A name a document can be linked by: ``kind`` is ``path`` (relative path without its
    extension), ``stem`` (file name without extension), ``dendron`` (path with ``/`` as ``.``),
    ``title`` or ``alias``; ``key`` is NFC and casefolded."""

    kind: str
    key: str


@dataclass(frozen=True, slots=True)
class DocRef:
    """A document at one end of a link."""

    collection: str
    rel_path: str
    title: str | None = None
    source_hash: str = ""


@dataclass(frozen=True, slots=True)
class LinkTarget:
    """A document a link resolves to, how (``method``: ``path``, ``name``, ``title`` ...) and
    how sure that is (``explicit``, ``inferred``, ``ambiguous``)."""

    document: DocRef
    confidence: str
    method: str


@dataclass(frozen=True, slots=True)
class LinkRecord:
    """A stored link of an active document and what it resolves to. ``state`` is ``resolved``,
    ``ambiguous`` (several targets, all kept), ``unresolved``, ``external`` or ``pending`` (not
    resolved yet: a sync was interrupted before its resolution step)."""

    source: DocRef
    link: ExtractedLink
    targets: tuple[LinkTarget, ...]
    state: str


@dataclass(frozen=True, slots=True)
class PendingLink:
    """A link whose resolution must be (re)computed; ``link_id`` is the store's handle."""

    link_id: int
    source: DocRef
    link: ExtractedLink


@dataclass(frozen=True, slots=True)
class NameHit:
    """An active document carrying the name ``key`` of ``kind``."""

    document: DocRef
    kind: str
    key: str


@dataclass(frozen=True, slots=True)
class Edge:
    """One resolved link as a graph edge between two active documents."""

    source: DocRef
    target: DocRef
    relation: str
    link_type: str
    edge_source: str
    confidence: str


class Mention(NamedTuple):
    """One link to a document as a backlink list shows it: the active source document (its
    collection, path, title and source hash), how and where the link is written, the
    confidence of its resolution to this document, and its context line. A flat tuple: a hub
    has thousands."""

    collection: str
    rel_path: str
    title: str | None
    source_hash: str
    link_text: str | None
    link_type: str
    edge_source: str
    relation: str
    target_anchor: str | None
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    confidence: str
    context: str


@dataclass(frozen=True, slots=True)
class LinkGraph:
    """Every active document (of one collection or all, in collection and path order) and the
    resolved links between two of them, compactly: ``(source, target, link_type, confidence)``
    with ``source`` and ``target`` positions in ``documents``, one per link target."""

    documents: tuple[DocRef, ...]
    edges: tuple[tuple[int, int, str, str], ...]


@dataclass(frozen=True, slots=True)
class LinkCounts:
    """Totals over the links of active documents (of one collection or all)."""

    links: int = 0
    resolved: int = 0
    ambiguous: int = 0
    unresolved: int = 0
    external: int = 0
    pending: int = 0
    edge_types: tuple[tuple[str, int], ...] = ()
    confidence: tuple[tuple[str, int], ...] = ()
