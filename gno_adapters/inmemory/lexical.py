"""``InMemoryLexical``: the ``LexicalIndex`` port in memory, scoring with an FTS5-compatible
BM25 (see ``bm25.py``)."""

from __future__ import annotations

from gno_adapters.inmemory import bm25
from gno_adapters.inmemory.state import InMemoryState, eligible
from gno_core.domain import (
    LexicalHit,
    LexicalQuery,
    SearchFilters,
    StoredDocument,
)
from gno_core.read_values import exclusion_clauses
from gno_core.text.cjk import SEGMENTER_ID

TOKENIZER = f"porter-step1 unicode61 remove_diacritics 2 + {SEGMENTER_ID} (in memory)"


class InMemoryLexical:
    """The ``LexicalIndex`` port: an FTS5-compatible BM25 over the rows."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state

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
        # The same phrase list, in the same order, as the FTS5 expression ApswLexical compiles:
        # ``req AND ... AND (req OR ... OR opt ...) NOT (excl OR ...)``.
        group = [*required, *optional] if optional else []
        phrases = [*required, *group, *excluded]
        active = [r for r in self._s.rows.values() if r.doc.active]
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
            if not eligible(row, filters, self._s):
                continue
            score = bm25.bm25(f, sum(map(len, row.fields)), avg_len, doc_freqs, n_docs)
            scored.append((score, row.doc))
        scored.sort(key=lambda sd: (-sd[0], sd[1].collection, sd[1].rel_path))
        return [LexicalHit(doc, score) for score, doc in scored[:limit]]
