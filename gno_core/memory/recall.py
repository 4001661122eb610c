"""``recall``: the current facts of a memory collection that answer a query, within a budget.

1. The request is checked in order: a query, a known memory-managed collection, 1-8 valid
   scopes, a budget of 1-64 facts and 1-8192 tokens (``MEMORY_*`` codes).
2. The eligible set is decided inside each retrieval query, before any limit: valid fact
   records of that collection, sharing a scope with the request, that no active valid fact
   supersedes (``SearchFilters.memory_scopes``). So a superseded fact or a fact of another
   scope can never take a place in the candidate list.
3. A BM25 leg (32 candidates, every query word optional) and, when an embedder and its
   vectors are there, a vector leg (32) are fused by reciprocal rank (k = 60) over the best
   attainable fused score, so 1.0 means first in every leg that ran.
4. Facts are taken in that order while they fit the budget (``gno_core.memory.budget``);
   the receipt names them (docids) and the hashes of their texts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gno_core.config import GnoConfig
from gno_core.contracts.egress import EgressLineageView
from gno_core.contracts.memory import (
    RecallBudget,
    RecalledFact,
    RecallReceipt,
    RecallResult,
    RecallRetrieval,
)
from gno_core.contracts.memory_requests import RecallRequest
from gno_core.domain import SearchFilters, StoredDocument
from gno_core.errors import GnoError, ValidationError, memory_error
from gno_core.fact_files import normalize_scopes
from gno_core.facts import FactRecord, MemoryIdentity
from gno_core.memory.budget import Budget, take
from gno_core.memory.receipts import Receipt
from gno_core.ports.embedder import Embedder
from gno_core.ports.index import Index
from gno_core.ports.memory import DocKey, StoredFact
from gno_core.retrieval.query import parse_query, plain_text

__all__ = ["LEG_LIMIT", "RRF_K", "recall", "semantic_unavailable"]

LEG_LIMIT = 32
RRF_K = 60
HINT = (
    "No current fact matched in these scopes. Store one with `gno remember` (MCP: "
    "gno_remember), stating one fact in full; recall then finds it."
)


def memory_collection(config: GnoConfig, name: str | None) -> str:
    """The memory-managed collection ``name`` names (``MEMORY_COLLECTION_*`` otherwise)."""
    wanted = (name or "").strip().lower()
    if not wanted:
        raise memory_error("MEMORY_COLLECTION_REQUIRED", "Name the memory collection")
    for collection in config.collections:
        if collection.name == wanted:
            if not collection.memory_managed:
                raise memory_error(
                    "MEMORY_COLLECTION_UNMANAGED",
                    f"Collection {wanted} is not a memory (add one with "
                    "`gno collection add <folder> --memory`)",
                    collection=wanted,
                )
            return wanted
    known = [c.name for c in config.collections]
    raise memory_error(
        "MEMORY_COLLECTION_NOT_FOUND",
        f"No collection named {wanted} {config.known_collections()}",
        collection=wanted,
        available=known,
    )


def recall(
    index: Index,
    config: GnoConfig,
    embedder: Embedder | None,
    request: RecallRequest,
    identity: MemoryIdentity,
    *,
    now: str,
    uri: Callable[[StoredDocument], str],
    lineage: Callable[[str], EgressLineageView] | None = None,
) -> RecallResult:
    """``lineage`` gives a collection's egress lineage (``egressLineage`` on each fact and on
    the result; absent without it or without facts)."""
    query = (request.query or "").strip()
    if not query:
        raise memory_error("MEMORY_QUERY_REQUIRED", "Say what to recall")
    collection = memory_collection(config, request.collection)
    scopes = normalize_scopes(request.scopes)
    budget = Budget.of(request.max_facts, request.max_tokens)
    filters = SearchFilters(collections=(collection,), memory_scopes=scopes)
    try:
        legs, docs, unavailable = _retrieve(index, embedder, query, filters)
        ranked = _fuse(legs)
        found = index.memory.facts([key for key, _ in ranked])
    except ValidationError:
        raise
    except GnoError as exc:
        raise memory_error("MEMORY_QUERY_FAILED", f"Recall failed: {exc.message}") from exc
    scores = dict(ranked)
    current = [found[key] for key, _ in ranked if key in found and not found[key].superseded]
    chosen, used, omitted = take(current, budget, lambda f: f.record.text)
    facts = [_recalled(f, docs[(f.collection, f.rel_path)], scores, uri) for f in chosen]
    view = lineage(collection) if facts and lineage is not None else None
    if view is not None:  # one memory collection: each fact's lineage is the result's
        facts = [f.model_copy(update={"egress_lineage": view}) for f in facts]
    receipt = Receipt.issue(
        identity.caller,
        identity.session,
        now,
        [f.docid for f in facts],
        [f.span_hash for f in facts],
    )
    return RecallResult(
        facts=facts,
        receipt=RecallReceipt(
            caller=receipt.caller,
            session=receipt.session,
            issued_at=receipt.issued_at,
            memory_ids=list(receipt.memory_ids),
            span_hashes=list(receipt.span_hashes),
            digest=receipt.digest,
        ),
        budget=RecallBudget(
            max_facts=budget.max_facts,
            max_tokens=budget.max_tokens,
            used_tokens=used,
            omitted=omitted,
        ),
        retrieval=RecallRetrieval(
            mode="lexical" if unavailable else "hybrid", semantic_unavailable=unavailable
        ),
        egress_lineage=view,
        hint=None if facts else HINT,
    )


def semantic_unavailable(index: Index, embedder: Embedder | None) -> str | None:
    """Why facts cannot be matched by meaning (None: they can)."""
    if embedder is None:
        return "no embedding model is available"
    if not index.vectors.has_vectors(embedder.fingerprint):
        return "no fact is embedded yet (run gno embed)"
    return None


def _retrieve(
    index: Index, embedder: Embedder | None, query: str, filters: SearchFilters
) -> tuple[list[list[DocKey]], dict[DocKey, StoredDocument], str | None]:
    docs: dict[DocKey, StoredDocument] = {}
    lexical = index.lexical.search(parse_query(plain_text(query)), filters, LEG_LIMIT)
    legs = [[_key(h.document, docs) for h in lexical]]
    unavailable = semantic_unavailable(index, embedder)
    if unavailable is not None or embedder is None:
        return legs, docs, unavailable
    (vector,) = embedder.embed_batch([embedder.profile.query(query)])
    nearest = index.vectors.nearest(vector, embedder.fingerprint, filters, LEG_LIMIT)
    legs.append([_key(h.document, docs) for h in nearest])
    return legs, docs, None


def _key(doc: StoredDocument, docs: dict[DocKey, StoredDocument]) -> DocKey:
    key = (doc.collection, doc.rel_path)
    docs[key] = doc
    return key


def _fuse(legs: list[list[DocKey]]) -> list[tuple[DocKey, float]]:
    """Reciprocal rank fusion over the best attainable score (first in every leg = 1.0)."""
    fused: dict[DocKey, float] = {}
    for leg in legs:
        for rank, key in enumerate(leg, 1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (RRF_K + rank)
    best = len(legs) / (RRF_K + 1)
    return sorted(((k, s / best) for k, s in fused.items()), key=lambda ks: (-ks[1], ks[0]))


def fact_fields(record: FactRecord, doc: StoredDocument, uri: str) -> dict[str, Any]:
    """The ``FactView`` fields of ``record``, stored as the document ``doc`` at ``uri``."""
    return {
        "uri": uri,
        "docid": doc.docid,
        "record_id": record.record_id,
        "text": record.text,
        "scopes": list(record.scopes),
        "caller": record.caller,
        "session": record.session,
        "created_at": record.created_at,
        "content_hash": record.content_hash,
        "supersedes": list(record.supersedes),
        "source": record.source,
    }


def _recalled(
    fact: StoredFact,
    doc: StoredDocument,
    scores: dict[DocKey, float],
    uri: Callable[[StoredDocument], str],
) -> RecalledFact:
    return RecalledFact(
        **fact_fields(fact.record, doc, uri(doc)),
        score=round(min(1.0, scores[(fact.collection, fact.rel_path)]), 6),
        span_hash=fact.record.content_hash,
    )
