"""Port: BM25 keyword retrieval over the active documents of one index."""

from __future__ import annotations

from typing import Protocol

from gno_core.domain import LexicalHit, LexicalQuery, SearchFilters


class LexicalIndex(Protocol):
    """BM25 keyword retrieval over active documents (fields path, title and body)."""

    @property
    def tokenizer(self) -> str:
        """A short description of the tokenization in use (reported by status)."""
        ...

    def search(self, query: LexicalQuery, filters: SearchFilters, limit: int) -> list[LexicalHit]:
        """Documents matching ``query`` among those ``filters`` make eligible, best first, at most
        ``limit``. Filters define the eligible set before the limit applies, so an ineligible
        document never displaces an eligible one. Optional terms rank but are not required;
        required terms and phrases must all match; excluded ones must not. Chinese, Japanese and
        Korean text matches by substring. Ties break by collection then path."""
        ...
