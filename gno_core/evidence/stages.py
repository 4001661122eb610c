"""The first stages of a query diagnosis: is the target eligible under the filters (and if
not, which filter excluded it), and where the BM25 and vector legs rank it on their own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.errors import GnoError
from gno_core.retrieval.query import parse_query
from gno_core.retrieval.results import doc_key
from gno_core.text.dates import parse_document_date
from gno_core.text.words import words_of

if TYPE_CHECKING:
    from gno_core.contracts.evidence_requests import DiagnoseRequest
    from gno_core.contracts.metadata import MetadataPredicate
    from gno_core.domain import SearchFilters, StoredDocument
    from gno_core.index_handle import IndexHandle
    from gno_core.metadata.extract import DocumentMetadata
    from gno_core.ports import SemanticModels

__all__ = ["POOL", "bm25_stage", "filter_reasons", "missed", "skipped", "stage", "vector_stage"]

#: How deep each leg is searched for the target.
POOL = 100


def stage(
    sid: str,
    status: str,
    count: int,
    present: bool,
    rank: int | None,
    score: float | None,
    survived: bool,
    drop: str | None,
    reason: str,
) -> dict[str, Any]:
    stage: dict[str, Any] = {
        "id": sid,
        "status": status,
        "sourceCount": count,
        "present": present,
        "survived": survived,
        "reason": reason,
    }
    if rank is not None:
        stage["rank"] = rank
    if score is not None:
        stage["score"] = round(score, 6)
    if drop is not None:
        stage["dropReason"] = drop
    return stage


def skipped(sid: str, reason: str) -> dict[str, Any]:
    """A stage that did not run."""
    return stage(sid, "skipped", 0, False, None, None, False, "skipped", reason)


def missed(sid: str, count: int, reason: str) -> dict[str, Any]:
    """A stage that ran over ``count`` candidates without the target among them."""
    return stage(sid, "active", count, False, None, None, False, "not_in_candidate_set", reason)


def filter_reasons(
    doc: StoredDocument, markdown: str, filters: SearchFilters, request: DiagnoseRequest
) -> list[str]:
    meta = doc.meta
    reasons = []
    if filters.collections and doc.collection not in filters.collections:
        reasons.append(
            f"it is in collection '{doc.collection}' but the query is limited to "
            + ", ".join(f"'{c}'" for c in filters.collections)
        )
    if filters.path_prefix and not doc.rel_path.startswith(filters.path_prefix):
        reasons.append(f"its path '{doc.rel_path}' does not start with '{filters.path_prefix}'")
    tags = set(meta.tags)
    has = ", ".join(sorted(tags)) or "no tags"
    missing = [t for t in filters.tags_all if t not in tags]
    if missing:
        reasons.append(f"it lacks the required tag(s) {', '.join(missing)} (it has {has})")
    if filters.tags_any and not tags & set(filters.tags_any):
        reasons.append(f"it has none of the tags {', '.join(filters.tags_any)} (it has {has})")
    when = parse_document_date(meta.date) or doc.source_mtime_ns
    if filters.since_ns is not None and when < filters.since_ns:
        reasons.append(f"its date is before --since {request.since}")
    if filters.until_ns is not None and when >= filters.until_ns:
        reasons.append(f"its date is not before --until {request.until}")
    if filters.categories:
        own = {c.lower() for c in (*meta.categories, meta.content_type or "") if c}
        if not own & set(filters.categories):
            reasons.append(
                f"its categories ({', '.join(sorted(own)) or 'none'}) match none of "
                + ", ".join(filters.categories)
            )
    if filters.author and (
        meta.author is None or filters.author.lower() not in meta.author.lower()
    ):
        reasons.append(f"its author ({meta.author or 'none'}) does not contain '{filters.author}'")
    if filters.lang and (meta.language or "").lower() != filters.lang:
        reasons.append(f"its language is {meta.language or 'unknown'}, not {filters.lang}")
    if filters.exclude_terms:
        words = set(words_of(" ".join((markdown, doc.rel_path, meta.title or ""))))
        hit = [t for t in filters.exclude_terms if t in words]
        if hit:
            reasons.append(f"it contains the excluded term(s) {', '.join(hit)}")
    return reasons


def metadata_reasons(metadata: DocumentMetadata | None, predicate: MetadataPredicate) -> list[str]:
    """Why the typed filter excludes the target, telling backfill, invalid metadata and a
    predicate mismatch apart; never echoes the document's values."""
    from gno_core.metadata.evaluate import matches
    from gno_core.metadata.extract import INVALID, PENDING

    if metadata is None or metadata.state == PENDING:
        return ["its typed metadata is not yet extracted (gno update extracts it)"]
    if metadata.state == INVALID:
        return ["its gno.metadata is invalid, so no typed filter matches it"]
    if not matches(metadata.state, metadata.values, predicate):
        return ["its gno.metadata does not match the filter"]
    return []


def bm25_stage(
    handle: IndexHandle, request: DiagnoseRequest, filters: SearchFilters, key: str
) -> dict[str, Any]:
    hits = handle.index.lexical.search(parse_query(request.query), filters, POOL)
    keys = [doc_key(h.document) for h in hits]
    if key in keys:
        rank = keys.index(key) + 1
        best = hits[0].bm25 or 1.0
        score = hits[rank - 1].bm25 / best
        return stage(
            "bm25",
            "active",
            len(hits),
            True,
            rank,
            score,
            True,
            None,
            f"BM25 ranks it {rank} of {len(hits)} keyword matches",
        )
    return missed(
        "bm25",
        len(hits),
        "no BM25 match: it shares none of the query's keywords, or ranks below the "
        f"{POOL} best keyword matches",
    )


def vector_stage(
    handle: IndexHandle,
    models: SemanticModels,
    request: DiagnoseRequest,
    filters: SearchFilters,
    key: str,
) -> dict[str, Any]:
    embedder = models.embedder
    if embedder is None:
        return skipped(
            "vector", "no embedding model is available, so nothing was searched by meaning"
        )
    if not handle.index.vectors.has_vectors(embedder.fingerprint):
        return skipped(
            "vector", "nothing is embedded yet (run gno embed), so nothing was searched by meaning"
        )
    try:
        vector = embedder.embed_batch([embedder.profile.query(request.query)])[0]
    except GnoError as exc:
        return skipped("vector", f"the query could not be embedded ({exc.code})")
    hits = handle.index.vectors.nearest(vector, embedder.fingerprint, filters, POOL)
    keys = []
    for h in hits:
        k = doc_key(h.document)
        if k not in keys:
            keys.append(k)
    if key in keys:
        rank = keys.index(key) + 1
        return stage(
            "vector",
            "active",
            len(keys),
            True,
            rank,
            None,
            True,
            None,
            f"by meaning it ranks {rank} of the {len(keys)} nearest documents",
        )
    return missed("vector", len(keys), f"by meaning it is not among the {POOL} nearest chunks")
