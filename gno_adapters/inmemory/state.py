"""What the in-memory index ports share: one index's rows, mirrors, chunks, failures and
vectors, and the eligibility rule of search filters."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from gno_adapters.inmemory.link_state import LinkState
from gno_core.domain import (
    Chunk,
    DocumentMeta,
    FailureRecord,
    SearchFilters,
    StoredDocument,
)
from gno_core.facts import FactRecord, InvalidFact
from gno_core.identity import parse_uri
from gno_core.journal.entries import JournalEntry
from gno_core.journal.structure import Structure
from gno_core.metadata.evaluate import matches
from gno_core.metadata.extract import VALID_EMPTY, DocumentMetadata
from gno_core.ports.clock import Clock
from gno_core.ports.embedder import Vector


@dataclass(slots=True)
class _Row:
    doc: StoredDocument
    ingest_version: int
    fields: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    tags: frozenset[str]
    date_ns: int
    fact: FactRecord | InvalidFact | None = None
    chunking: str | None = None
    metadata: DocumentMetadata = VALID_EMPTY
    structure: Structure | None = None


def normalize_tag(tag: str) -> str:
    return unicodedata.normalize("NFC", tag.strip()).lower()


@dataclass
class InMemoryState:
    """What the in-memory ports share: one index's rows, mirrors, chunks, failures, vectors."""

    clock: Clock
    rows: dict[tuple[str, str], _Row] = field(default_factory=dict)
    content: dict[str, str] = field(default_factory=dict)
    chunks: dict[str, tuple[Chunk, ...]] = field(default_factory=dict)
    failures: dict[tuple[str, str], FailureRecord] = field(default_factory=dict)
    failure_seq: dict[tuple[str, str], int] = field(default_factory=dict)
    seq: int = 0
    # fingerprint -> (mirror_hash, seq) -> vector
    vectors: dict[str, dict[tuple[str, int], Vector]] = field(default_factory=dict)
    links: LinkState = field(default_factory=LinkState)
    closed: bool = False
    # the change journal: retained entries (oldest first), its epoch, last purged seq
    journal: list[JournalEntry] = field(default_factory=list)
    journal_epoch: str = "0f" * 16
    journal_seq: int = 0
    journal_purged: int = 0

    def active(self) -> list[StoredDocument]:
        docs = [r.doc for r in self.rows.values() if r.doc.active]
        return sorted(docs, key=lambda d: (d.collection, d.rel_path))

    def valid_fact(self, key: tuple[str, str]) -> FactRecord | None:
        """The valid fact record of the active document ``key``, if it has one."""
        row = self.rows.get(key)
        if row is None or not row.doc.active or not isinstance(row.fact, FactRecord):
            return None
        return row.fact

    def successors(self, collection: str, rel_path: str) -> list[tuple[str, str]]:
        """Active documents of ``collection`` holding a valid fact that names the one at
        ``rel_path`` and shares one of its scopes."""
        predecessor = self.valid_fact((collection, rel_path))
        if predecessor is None:
            return []
        out = []
        for key in sorted(self.rows):
            fact = self.valid_fact(key)
            if (
                fact is not None
                and key[0] == collection
                and set(fact.scopes) & set(predecessor.scopes)
                and any(_uri_key(uri) == (collection, rel_path) for uri in fact.supersedes)
            ):
                out.append(key)
        return out

    def ignored_supersedes(self, key: tuple[str, str]) -> list[tuple[str, str]]:
        """The ``supersedes`` entries of the valid fact ``key`` that supersede nothing: another
        collection's path, or a valid fact of this one that shares no scope with it."""
        fact = self.valid_fact(key)
        if fact is None:
            return []
        out = []
        for target in sorted({_uri_key(uri) for uri in fact.supersedes}):
            other = self.valid_fact(target)
            if target[0] != key[0] or (
                other is not None and not set(other.scopes) & set(fact.scopes)
            ):
                out.append(target)
        return out

    def current_fact_in(self, row: _Row, scopes: tuple[str, ...]) -> bool:
        """Whether ``row`` holds a valid fact sharing a scope with ``scopes`` that no active
        valid fact supersedes (the memory recall filter)."""
        d = row.doc
        fact = self.valid_fact((d.collection, d.rel_path))
        if fact is None or not set(fact.scopes) & set(scopes):
            return False
        return not self.successors(d.collection, d.rel_path)

    def active_mirrors(self, collections: tuple[str, ...] | None) -> dict[str, str | None]:
        """Mirror hash -> title of its first active document (of ``collections``)."""
        out: dict[str, str | None] = {}
        for doc in self.active():
            if collections is None or doc.collection in collections:
                out.setdefault(doc.mirror_hash, doc.meta.title)
        return out


def fold(value: str) -> str:
    return unicodedata.normalize("NFC", value).casefold()


def _uri_key(uri: str) -> tuple[str, str]:
    ref = parse_uri(uri)
    return (ref.collection or "", ref.rel_path or "")


def eligible(row: _Row, f: SearchFilters, state: InMemoryState) -> bool:
    d = row.doc
    if f.memory_scopes is not None and not state.current_fact_in(row, f.memory_scopes):
        return False
    if f.metadata is not None and not matches(row.metadata.state, row.metadata.values, f.metadata):
        return False
    meta: DocumentMeta = d.meta
    if f.collections and d.collection not in f.collections:
        return False
    if f.path_prefix and not d.rel_path.startswith(f.path_prefix):
        return False
    if f.tags_all and not all(normalize_tag(t) in row.tags for t in f.tags_all):
        return False
    if f.tags_any and not any(normalize_tag(t) in row.tags for t in f.tags_any):
        return False
    if f.since_ns is not None and row.date_ns < f.since_ns:
        return False
    if f.until_ns is not None and row.date_ns > f.until_ns:
        return False
    if f.categories:
        have = {fold(c) for c in (meta.content_type, *meta.categories) if c}
        if not have & {fold(c) for c in f.categories}:
            return False
    if f.author and fold(f.author) not in fold(meta.author or ""):
        return False
    if f.lang:
        lang, want = fold(meta.language or ""), fold(f.lang)
        if lang != want and not lang.startswith(want + "-"):
            return False
    return True
