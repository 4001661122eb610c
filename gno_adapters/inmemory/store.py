"""``InMemoryStore``: the document store, lexical and vector index as plain Python, for tests.

A first-class fake: it implements ``DocumentStore``, ``LexicalIndex`` and ``VectorIndex`` with
the same rules as ``ApswStore`` (the contract suites in ``tests/contract`` run against both),
keeping documents in dicts, scoring with an FTS5-compatible BM25 (see ``bm25.py``) and
searching vectors exactly.
"""

from __future__ import annotations

import math
import time
import unicodedata
from array import array
from collections.abc import Sequence
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
from gno_core.errors import DuplicateError, ValidationError
from gno_core.identity import make_docid
from gno_core.ports.clock import Clock
from gno_core.ports.embedder import Vector, dot
from gno_core.ports.vectors import ChunkVector, PendingChunk, VectorHit
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
        # fingerprint -> (mirror_hash, seq) -> vector
        self._vectors: dict[str, dict[tuple[str, int], Vector]] = {}
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
        for rel in batch.forget_failures:
            self._failures.pop((coll, rel), None)
            self._failure_seq.pop((coll, rel), None)
        for failure in batch.failures:
            key = (failure.collection, failure.rel_path)
            self._seq += 1
            self._failures[key] = FailureRecord(failure, now)
            self._failure_seq[key] = self._seq
        self._collect_garbage()

    def _upsert(self, item: IndexedDocument, now: str) -> None:
        key = (item.collection, item.rel_path)
        self._content[item.mirror_hash] = item.markdown
        chunks = tuple(sorted(item.chunks, key=lambda c: c.seq))
        if self._chunks.get(item.mirror_hash) != chunks:
            self._drop_vectors({item.mirror_hash})
        self._chunks[item.mirror_hash] = chunks
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
        gone = {m for m in self._content if m not in used}
        for mirror in gone:
            del self._content[mirror]
            self._chunks.pop(mirror, None)
        self._drop_vectors(gone)

    def _drop_vectors(self, mirrors: set[str]) -> None:
        if not mirrors:
            return
        for space in self._vectors.values():
            for key in [k for k in space if k[0] in mirrors]:
                del space[key]

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

    def chunks_for(self, mirror_hashes: Sequence[str]) -> dict[str, tuple[Chunk, ...]]:
        return {m: self._chunks[m] for m in dict.fromkeys(mirror_hashes) if m in self._chunks}

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

    def counts(self, fingerprint: str | None = None) -> list[IndexCounts]:
        names = sorted({c for c, _ in self._rows} | {c for c, _ in self._failures})
        space = self._vectors.get(fingerprint or "", {})
        out = []
        for name in names:
            rows = [r for (c, _), r in self._rows.items() if c == name]
            active = [r for r in rows if r.doc.active]
            embedded = sum(
                1
                for r in active
                for c in self._chunks.get(r.doc.mirror_hash, ())
                if (r.doc.mirror_hash, c.seq) in space
            )
            out.append(
                IndexCounts(
                    collection=name,
                    documents=len(active),
                    inactive=len(rows) - len(active),
                    chunks=sum(len(self._chunks.get(r.doc.mirror_hash, ())) for r in active),
                    embedded=embedded,
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

    # -- VectorIndex ---------------------------------------------------------------------------

    @property
    def vector_backend(self) -> str:
        return "exact"

    def _active_mirrors(self, collections: tuple[str, ...] | None) -> dict[str, str | None]:
        """Mirror hash -> title of its first active document (of ``collections``)."""
        out: dict[str, str | None] = {}
        for doc in self._active():
            if collections is None or doc.collection in collections:
                out.setdefault(doc.mirror_hash, doc.meta.title)
        return out

    def pending_chunks(
        self,
        fingerprint: str,
        limit: int,
        *,
        collections: tuple[str, ...] | None = None,
        after: tuple[str, int] | None = None,
    ) -> list[PendingChunk]:
        space = self._vectors.get(fingerprint, {})
        start = after or ("", -1)
        out: list[PendingChunk] = []
        for mirror, title in sorted(self._active_mirrors(collections or None).items()):
            for c in self._chunks.get(mirror, ()):
                if (mirror, c.seq) > start and (mirror, c.seq) not in space:
                    out.append(PendingChunk(mirror, c.seq, c.text, c.start_line, title))
        return out[: max(limit, 0)]

    def put_vectors(self, fingerprint: str, model_id: str, vectors: Sequence[ChunkVector]) -> None:
        if not vectors:
            return
        dims = len(vectors[0].vector)
        space = self._vectors.get(fingerprint)
        known = len(next(iter(space.values()))) if space else dims
        if any(len(v.vector) != dims for v in vectors) or known != dims:
            raise ValidationError("vectors of one space must all have the same length")
        space = self._vectors.setdefault(fingerprint, {})
        for item in vectors:
            seqs = {c.seq for c in self._chunks.get(item.mirror_hash, ())}
            if item.seq in seqs:
                space[(item.mirror_hash, item.seq)] = array("f", item.vector)

    def delete_vectors(self, fingerprint: str, collections: tuple[str, ...] | None = None) -> int:
        space = self._vectors.get(fingerprint, {})
        mirrors = None
        if collections:
            mirrors = {r.doc.mirror_hash for (c, _), r in self._rows.items() if c in collections}
        doomed = [k for k in space if mirrors is None or k[0] in mirrors]
        for key in doomed:
            del space[key]
        return len(doomed)

    def has_vectors(self, fingerprint: str) -> bool:
        return bool(self._vectors.get(fingerprint))

    def vector_count(self, fingerprint: str) -> int:
        space = self._vectors.get(fingerprint, {})
        active = self._active_mirrors(None)
        return sum(1 for mirror, _ in space if mirror in active)

    def chunk_vectors(self, mirror_hash: str, fingerprint: str) -> list[tuple[int, Vector]]:
        space = self._vectors.get(fingerprint, {})
        return sorted((seq, v) for (m, seq), v in space.items() if m == mirror_hash)

    def nearest(
        self, query: Vector, fingerprint: str, filters: SearchFilters, limit: int
    ) -> list[VectorHit]:
        space = self._vectors.get(fingerprint, {})
        if not space or limit <= 0:
            return []
        dims = len(next(iter(space.values())))
        if len(query) != dims:
            raise ValidationError(f"query vector has {len(query)} dimensions; the index has {dims}")
        excluded = [
            u
            for u in map(bm25.compile_clause, exclusion_clauses(filters.exclude_terms))
            if u is not None
        ]
        qnorm = math.sqrt(dot(query, query))
        best: dict[str, tuple[float, int]] = {}
        for (mirror, seq), vector in space.items():
            norm = math.sqrt(dot(vector, vector)) * qnorm
            distance = 1.0 - (dot(vector, query) / norm if norm > 0 else 0.0)
            if mirror not in best or (distance, seq) < best[mirror]:
                best[mirror] = (distance, seq)
        hits: list[VectorHit] = []
        for row in self._rows.values():
            found = best.get(row.doc.mirror_hash)
            if found is None or not row.doc.active or not _eligible(row, filters):
                continue
            if any(bm25.phrase_count(f, u) for u in excluded for f in row.fields):
                continue
            hits.append(VectorHit(row.doc, found[1], found[0]))
        hits.sort(key=lambda h: (h.distance, h.document.collection, h.document.rel_path))
        return hits[:limit]


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
