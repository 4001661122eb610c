"""``InMemoryStore``: the document store and lexical index as plain Python, for fast tests.

A first-class fake: it implements ``DocumentStore`` and ``LexicalIndex`` with the same rules
as ``ApswStore`` (the contract suites in ``tests/contract`` run against both), keeping
documents in dicts and scoring with an FTS5-compatible BM25 (see ``bm25.py``).
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Self

from gno_adapters.inmemory import bm25
from gno_core.domain import (
    Chunk,
    DocumentMeta,
    FailureRecord,
    IndexCounts,
    IndexedDocument,
    LexicalHit,
    SearchFilters,
    SourceState,
    StoredDocument,
    SyncBatch,
)
from gno_core.errors import DuplicateError
from gno_core.identity import make_docid
from gno_core.ports.clock import Clock
from gno_core.retrieval.dates import iso_from_ns, parse_document_date
from gno_core.retrieval.query import Clause, LexicalQuery, Phrase, Term, words_of
from gno_core.text.cjk import SEGMENTER_ID

TOKENIZER = f"porter-step1 unicode61 remove_diacritics 2 + {SEGMENTER_ID} (in memory)"


class _SystemClock:
    def now_ns(self) -> int:
        return time.time_ns()


@dataclass(slots=True)
class _Row:
    doc: StoredDocument
    ingest_version: int
    fields: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    tags: frozenset[str]
    date_ns: int


def normalize_tag(tag: str) -> str:
    return unicodedata.normalize("NFC", tag.strip()).lower()


def exclusion_clauses(terms: tuple[str, ...]) -> list[Clause]:
    """``SearchFilters.exclude_terms`` as clauses: one word is a term, several a phrase."""
    out: list[Clause] = []
    for term in terms:
        words = words_of(term)
        if words:
            out.append(Term(words[0]) if len(words) == 1 else Phrase(tuple(words)))
    return out


class InMemoryStore:
    """Documents, mirrors, chunks, tags, failures and BM25 search, all in memory."""

    def __init__(self, clock: Clock | None = None) -> None:
        self._clock: Clock = clock or _SystemClock()
        self._rows: dict[tuple[str, str], _Row] = {}
        self._content: dict[str, str] = {}
        self._chunks: dict[str, tuple[Chunk, ...]] = {}
        self._failures: dict[tuple[str, str], FailureRecord] = {}
        self._failure_seq: dict[tuple[str, str], int] = {}
        self._seq = 0
        self.closed = False

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- DocumentStore -------------------------------------------------------------------------

    def source_states(self, collection: str) -> dict[str, SourceState]:
        out: dict[str, SourceState] = {}
        for (coll, rel), row in self._rows.items():
            if coll == collection:
                d = row.doc
                out[rel] = SourceState(
                    rel,
                    d.source_hash,
                    d.source_size,
                    d.source_mtime_ns,
                    d.active,
                    row.ingest_version,
                )
        for (coll, rel), rec in self._failures.items():
            if coll != collection:
                continue
            f = rec.failure
            known = out.get(rel)
            out[rel] = SourceState(
                rel_path=rel,
                source_hash=f.source_hash or (known.source_hash if known else ""),
                size=f.size,
                mtime_ns=f.mtime_ns,
                active=known.active if known else False,
                ingest_version=known.ingest_version if known else 0,
                failed=True,
            )
        return out

    def apply_batch(self, batch: SyncBatch) -> None:
        now = iso_from_ns(self._clock.now_ns())
        coll = batch.collection
        for item in batch.upserts:
            self._upsert(item, now)
        for state in batch.touched:
            row = self._rows.get((coll, state.rel_path))
            if row is not None:
                doc = replace(row.doc, source_size=state.size, source_mtime_ns=state.mtime_ns)
                if state.active:
                    doc = replace(doc, active=True)
                row.doc = doc
                row.date_ns = parse_document_date(doc.meta.date) or doc.source_mtime_ns
        for rel in batch.deactivate:
            row = self._rows.get((coll, rel))
            if row is not None:
                row.doc = replace(row.doc, active=False)
        for failure in batch.failures:
            key = (failure.collection, failure.rel_path)
            self._seq += 1
            self._failures[key] = FailureRecord(failure, now)
            self._failure_seq[key] = self._seq
        self._collect_garbage()

    def _upsert(self, item: IndexedDocument, now: str) -> None:
        key = (item.collection, item.rel_path)
        self._content[item.mirror_hash] = item.markdown
        self._chunks[item.mirror_hash] = tuple(sorted(item.chunks, key=lambda c: c.seq))
        doc = StoredDocument(
            collection=item.collection,
            rel_path=item.rel_path,
            abs_path=item.abs_path,
            docid=make_docid(item.source_hash),
            source_hash=item.source_hash,
            source_mime=item.source_mime,
            source_ext=item.source_ext,
            source_size=item.source_size,
            source_mtime_ns=item.source_mtime_ns,
            mirror_hash=item.mirror_hash,
            meta=item.meta,
            converter_id=item.converter_id,
            converter_version=item.converter_version,
            active=True,
            indexed_at=now,
        )
        fields = (
            bm25.index_tokens(item.rel_path),
            bm25.index_tokens(item.meta.title or ""),
            bm25.index_tokens(item.markdown),
        )
        tags = frozenset(normalize_tag(t) for t in item.meta.tags if t.strip())
        date_ns = parse_document_date(item.meta.date) or item.source_mtime_ns
        self._rows[key] = _Row(doc, item.ingest_version, fields, tags, date_ns)
        self._failures.pop(key, None)
        self._failure_seq.pop(key, None)

    def _collect_garbage(self) -> None:
        used = {row.doc.mirror_hash for row in self._rows.values()}
        for mirror in [m for m in self._content if m not in used]:
            del self._content[mirror]
            self._chunks.pop(mirror, None)

    def _active(self) -> list[StoredDocument]:
        docs = [r.doc for r in self._rows.values() if r.doc.active]
        return sorted(docs, key=lambda d: (d.collection, d.rel_path))

    def get_document(self, collection: str, rel_path: str) -> StoredDocument | None:
        row = self._rows.get((collection, rel_path))
        return row.doc if row is not None and row.doc.active else None

    def find_by_docid(self, prefix: str) -> list[StoredDocument]:
        prefix = prefix.lower().lstrip("#")
        return [d for d in self._active() if d.source_hash.startswith(prefix)]

    def get_documents(self, keys: list[tuple[str, str]]) -> list[StoredDocument]:
        found = (self.get_document(c, r) for c, r in keys)
        return [d for d in found if d is not None]

    def markdown(self, mirror_hash: str) -> str | None:
        return self._content.get(mirror_hash)

    def chunks(self, mirror_hash: str) -> tuple[Chunk, ...]:
        return self._chunks.get(mirror_hash, ())

    def list_documents(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> list[StoredDocument]:
        docs = [
            d
            for d in self._active()
            if (collection is None or d.collection == collection)
            and (not prefix or d.rel_path.startswith(prefix))
        ]
        return docs if limit is None else docs[: max(limit, 0)]

    def recent_documents(self, limit: int) -> list[StoredDocument]:
        docs = sorted(self._active(), key=lambda d: -d.source_mtime_ns)  # stable: ties stay sorted
        return docs[: max(limit, 0)]

    def counts(self) -> list[IndexCounts]:
        names = sorted({c for c, _ in self._rows} | {c for c, _ in self._failures})
        out = []
        for name in names:
            rows = [r for (c, _), r in self._rows.items() if c == name]
            active = [r for r in rows if r.doc.active]
            out.append(
                IndexCounts(
                    collection=name,
                    documents=len(active),
                    inactive=len(rows) - len(active),
                    chunks=sum(len(self._chunks.get(r.doc.mirror_hash, ())) for r in active),
                    embedded=0,
                    failed=sum(1 for c, _ in self._failures if c == name),
                )
            )
        return out

    def recent_failures(self, limit: int) -> list[FailureRecord]:
        keys = sorted(
            self._failures,
            key=lambda k: (self._failures[k].occurred_at, self._failure_seq[k]),
            reverse=True,
        )
        return [self._failures[k] for k in keys[: max(limit, 0)]]

    def tag_counts(self, collection: str | None, prefix: str | None) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        want = normalize_tag(prefix) if prefix else ""
        for row in self._rows.values():
            if not row.doc.active or (collection is not None and row.doc.collection != collection):
                continue
            for tag in row.tags:
                if tag.startswith(want):
                    counts[tag] = counts.get(tag, 0) + 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def last_indexed_at(self) -> str | None:
        return max((r.doc.indexed_at for r in self._rows.values()), default=None)

    def deactivate_collection(self, collection: str) -> int:
        changed = 0
        for (coll, _), row in self._rows.items():
            if coll == collection and row.doc.active:
                row.doc = replace(row.doc, active=False)
                changed += 1
        return changed

    def rename_collection(self, old: str, new: str) -> None:
        if old == new:
            return
        if any(c == new and r.doc.active for (c, _), r in self._rows.items()):
            raise DuplicateError(
                f"Collection {new!r} already has indexed documents", details={"name": new}
            )
        # Inactive rows of the target are stale leftovers of a removed collection.
        for key in [k for k in self._rows if k[0] == new]:
            del self._rows[key]
        for key in [k for k in self._failures if k[0] == new]:
            del self._failures[key]
            del self._failure_seq[key]
        for key in [k for k in self._rows if k[0] == old]:
            row = self._rows.pop(key)
            row.doc = replace(row.doc, collection=new)
            self._rows[(new, key[1])] = row
        for key in [k for k in self._failures if k[0] == old]:
            rec = self._failures.pop(key)
            self._failures[(new, key[1])] = FailureRecord(
                replace(rec.failure, collection=new), rec.occurred_at
            )
            self._failure_seq[(new, key[1])] = self._failure_seq.pop(key)
        self._collect_garbage()

    # -- LexicalIndex --------------------------------------------------------------------------

    @property
    def tokenizer(self) -> str:
        return TOKENIZER

    def search(self, query: LexicalQuery, filters: SearchFilters, limit: int) -> list[LexicalHit]:
        required = [u for u in map(bm25.compile_clause, query.required) if u is not None]
        optional = [u for u in map(bm25.compile_clause, query.optional) if u is not None]
        excluded_clauses = [*query.excluded, *exclusion_clauses(filters.exclude_terms)]
        excluded = [u for u in map(bm25.compile_clause, excluded_clauses) if u is not None]
        if (not required and not optional) or limit <= 0:
            return []
        # The same phrase list, in the same order, as the FTS5 expression ApswStore compiles:
        # ``req AND ... AND (req OR ... OR opt ...) NOT (excl OR ...)``.
        group = [*required, *optional] if optional else []
        phrases = [*required, *group, *excluded]
        active = [r for r in self._rows.values() if r.doc.active]
        n_docs = len(active)
        avg_len = sum(sum(map(len, r.fields)) for r in active) / n_docs if n_docs else 0.0
        all_freqs = {
            id(r): [[bm25.phrase_count(f, u) for f in r.fields] for u in phrases] for r in active
        }
        doc_freqs = [
            sum(1 for r in active if any(all_freqs[id(r)][i])) for i in range(len(phrases))
        ]
        n_req, n_group = len(required), len(group)
        scored: list[tuple[float, StoredDocument]] = []
        for row in active:
            f = all_freqs[id(row)]
            present = [any(per_field) for per_field in f]
            if not all(present[:n_req]):
                continue
            if group and not any(present[n_req : n_req + n_group]):
                continue
            if any(present[n_req + n_group :]):
                continue
            if not _eligible(row, filters):
                continue
            score = bm25.bm25(f, sum(map(len, row.fields)), avg_len, doc_freqs, n_docs)
            scored.append((score, row.doc))
        scored.sort(key=lambda sd: (-sd[0], sd[1].collection, sd[1].rel_path))
        return [LexicalHit(doc, score) for score, doc in scored[:limit]]


def _fold(value: str) -> str:
    return unicodedata.normalize("NFC", value).casefold()


def _eligible(row: _Row, f: SearchFilters) -> bool:
    d = row.doc
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
        have = {_fold(c) for c in (meta.content_type, *meta.categories) if c}
        if not have & {_fold(c) for c in f.categories}:
            return False
    if f.author and _fold(f.author) not in _fold(meta.author or ""):
        return False
    if f.lang:
        lang, want = _fold(meta.language or ""), _fold(f.lang)
        if lang != want and not lang.startswith(want + "-"):
            return False
    return True
