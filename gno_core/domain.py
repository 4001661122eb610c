"""Domain values shared by sync, storage and retrieval (plain frozen dataclasses, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass

#: Bump to force every document to be re-processed on the next sync (chunker or parser change).
INGEST_VERSION = 1


@dataclass(frozen=True, slots=True)
class Chunk:
    """A passage of a canonical mirror. ``pos`` is the character offset of ``text`` in the mirror,
    ``start_line``/``end_line`` are 1-based and inclusive."""

    seq: int
    pos: int
    text: str
    start_line: int
    end_line: int
    language: str | None = None
    token_count: int = 0


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """What sync extracts from a document besides its text."""

    title: str | None = None
    tags: tuple[str, ...] = ()
    content_type: str | None = None
    categories: tuple[str, ...] = ()
    author: str | None = None
    date: str | None = None  # ISO 8601 from frontmatter, when present
    language: str | None = None


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


@dataclass(frozen=True, slots=True)
class StoredDocument:
    """A document as the store returns it."""

    collection: str
    rel_path: str
    abs_path: str
    docid: str
    source_hash: str
    source_mime: str
    source_ext: str
    source_size: int
    source_mtime_ns: int
    mirror_hash: str
    meta: DocumentMeta
    converter_id: str
    converter_version: str
    active: bool
    indexed_at: str


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """The eligible set of a search, applied BEFORE any candidate limit."""

    collections: tuple[str, ...] | None = None
    path_prefix: str | None = None
    tags_all: tuple[str, ...] = ()
    tags_any: tuple[str, ...] = ()
    since_ns: int | None = None  # on the document date (frontmatter date, else mtime)
    until_ns: int | None = None
    categories: tuple[str, ...] = ()
    author: str | None = None
    lang: str | None = None
    exclude_terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LexicalHit:
    """A document the lexical index matched, with its raw BM25 relevance (larger is better)."""

    document: StoredDocument
    bm25: float


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


# -- the keyword query, as the lexical index receives it -------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """One lowercase word; ``prefix`` matches any word starting with it."""

    text: str
    prefix: bool = False


@dataclass(frozen=True, slots=True)
class Phrase:
    """Consecutive lowercase words."""

    words: tuple[str, ...]


Clause = Term | Phrase


@dataclass(frozen=True, slots=True)
class LexicalQuery:
    raw: str
    optional: tuple[Clause, ...] = ()
    required: tuple[Clause, ...] = ()
    excluded: tuple[Clause, ...] = ()

    def positive_words(self) -> tuple[str, ...]:
        """Every word of the optional and required clauses, in query order, without repeats."""
        seen: dict[str, None] = {}
        for clause in (*self.required, *self.optional):
            for word in clause.words if isinstance(clause, Phrase) else (clause.text,):
                seen.setdefault(word, None)
        return tuple(seen)
