"""Search filters from a request: collections, path, tags, dates, categories, author, language
and excluded terms, plus the recency intent a query can carry ("latest", "this week")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.index_handle import require_collection
from gno_core.read_values import SearchFilters, StoredDocument
from gno_core.retrieval.dates import parse_bound
from gno_core.text.words import words_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.config import GnoConfig
    from gno_core.retrieval.inputs import SearchAsk

__all__ = ["build_filters", "has_recency_intent", "metadata_excluded", "normalize_tags"]

RECENCY_WORDS = frozenset({"latest", "newest", "recent", "recently", "today", "yesterday"})
RECENCY_PHRASES = ("this week", "last week", "this month", "last month", "most recent")


def build_filters(
    config: Callable[[], GnoConfig], request: SearchAsk, now_ns: int
) -> SearchFilters:
    """``NOT_FOUND`` for an unknown collection, ``VALIDATION`` for a bad date bound. The
    configuration is loaded only when the request names a collection."""
    collections = None
    if request.collection:
        collections = (require_collection(config(), request.collection).name,)
    exclude = tuple(w for term in request.exclude for w in words_of(term))
    return SearchFilters(
        collections=collections,
        path_prefix=request.path_prefix,
        tags_all=normalize_tags(request.tags_all),
        tags_any=normalize_tags(request.tags_any),
        since_ns=parse_bound(request.since, now_ns) if request.since else None,
        until_ns=parse_bound(request.until, now_ns, upper=True) if request.until else None,
        categories=tuple(c.strip().lower() for c in request.categories if c.strip()),
        author=request.author.strip() if request.author else None,
        lang=request.lang.strip().lower() if request.lang else None,
        exclude_terms=tuple(dict.fromkeys(exclude)),
        metadata=request.filter,
    )


def normalize_tags(tags: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.strip().lstrip("#").lower() for t in tags if t.strip()))


def has_recency_intent(query: str) -> bool:
    low = query.lower()
    return bool(RECENCY_WORDS.intersection(words_of(low))) or any(p in low for p in RECENCY_PHRASES)


def metadata_excluded(doc: StoredDocument, exclude: list[str]) -> bool:
    """Hybrid exclusions also inspect author and category metadata."""
    meta = doc.meta
    have = set(
        words_of(" ".join(x for x in (meta.author, meta.content_type, *meta.categories) if x))
    )
    return any(set(words_of(term)) and set(words_of(term)) <= have for term in exclude)
