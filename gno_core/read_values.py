"""The domain values a read needs: documents and chunks as the store returns them, the search
filters, the keyword query and the lexical hits (immutable values, no I/O).

``gno_core.domain`` names them too; they live apart so that a keyword search (``gno search``)
creates these classes and not the sync, link and memory values it never uses. They are
``NamedTuple``s (copy one with ``_replace``): Python 3.11 creates such a class several times
faster than a frozen dataclass, which costs over a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from gno_core.text.words import words_of

if TYPE_CHECKING:
    from gno_core.contracts.metadata import MetadataPredicate

__all__ = [
    "Chunk",
    "Clause",
    "DocumentMeta",
    "LexicalHit",
    "LexicalQuery",
    "Phrase",
    "SearchFilters",
    "StoredDocument",
    "Term",
    "exclusion_clauses",
]


class Chunk(NamedTuple):
    """A passage of a canonical mirror. ``pos`` is the character offset of ``text`` in the mirror,
    ``start_line``/``end_line`` are 1-based and inclusive."""

    seq: int
    pos: int
    text: str
    start_line: int
    end_line: int
    language: str | None = None
    token_count: int = 0


class DocumentMeta(NamedTuple):
    """What sync extracts from a document besides its text."""

    title: str | None = None
    tags: tuple[str, ...] = ()
    content_type: str | None = None
    categories: tuple[str, ...] = ()
    author: str | None = None
    date: str | None = None  # ISO 8601 from frontmatter, when present
    language: str | None = None


class StoredDocument(NamedTuple):
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
    converter_warnings: tuple[str, ...] = ()


class SearchFilters(NamedTuple):
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
    # Memory recall: only current, valid fact records sharing a scope with these.
    memory_scopes: tuple[str, ...] | None = None
    #: The typed metadata predicate (``gno_core.metadata.evaluate`` says what matches).
    metadata: MetadataPredicate | None = None


class LexicalHit(NamedTuple):
    """A document the lexical index matched, with its raw BM25 relevance (larger is better)."""

    document: StoredDocument
    bm25: float


# -- the keyword query, as the lexical index receives it -------------------------------------


class Term(NamedTuple):
    """One lowercase word; ``prefix`` matches any word starting with it."""

    text: str
    prefix: bool = False


class Phrase(NamedTuple):
    """Consecutive lowercase words."""

    words: tuple[str, ...]


Clause = Term | Phrase


class LexicalQuery(NamedTuple):
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


def exclusion_clauses(terms: Sequence[str]) -> list[Clause]:
    """``SearchFilters.exclude_terms`` as clauses: one word is a term, several a phrase."""
    out: list[Clause] = []
    for term in terms:
        words = words_of(term)
        if words:
            out.append(Term(words[0]) if len(words) == 1 else Phrase(tuple(words)))
    return out
