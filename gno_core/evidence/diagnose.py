"""Query diagnosis: for one named document, what each retrieval stage did with it and why it
ended where it did, in sentences a person can act on.

Stages: the filters (is the document eligible at all, and if not, which filter excluded it and
with what values), the BM25 leg, the vector leg, fusion (its rank among every fused candidate
against the requested limit and ``minScore``), the graph (whether the target is a one-hop
neighbour of a top fused result, ``diagnose_graph.py``), and rerank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.errors import NotFoundError
from gno_core.evidence.diagnose_graph import graph_stage
from gno_core.evidence.stages import (
    POOL,
    bm25_stage,
    filter_reasons,
    metadata_reasons,
    missed,
    skipped,
    stage,
    vector_stage,
)
from gno_core.retrieval.filters import build_filters
from gno_core.retrieval.results import doc_key

if TYPE_CHECKING:
    from gno_core.contracts.evidence import QueryDiagnosis
    from gno_core.contracts.evidence_requests import DiagnoseRequest
    from gno_core.documents import Documents
    from gno_core.domain import StoredDocument
    from gno_core.index_handle import IndexHandle
    from gno_core.ports import SemanticModels
    from gno_core.retrieval.modes import Retrieval


def diagnose(
    handle: IndexHandle,
    documents: Documents,
    retrieval: Retrieval,
    models: SemanticModels,
    request: DiagnoseRequest,
) -> QueryDiagnosis:
    from gno_core.contracts.evidence import QueryDiagnosis

    out: dict[str, Any] = {
        "schemaVersion": "1.0",
        "query": request.query,
        "meta": {"limit": request.limit, "minScore": request.min_score},
    }
    try:
        with documents.resolved(request.target) as resolved:
            doc = resolved.document
            uri = resolved.handle.uri(doc)
            markdown = resolved.handle.index.documents.markdown(doc.mirror_hash) or ""
            chunks = resolved.handle.index.documents.chunks(doc.mirror_hash)
            same_index = resolved.handle is handle
    except NotFoundError:
        out["target"] = {"ref": request.target, "status": "not_found", "filterReasons": []}
        out["stages"] = []
        out["summary"] = (
            f"{request.target} is not an active document of this index: check the reference "
            "(gno ls lists documents) or run gno update if the file is new."
        )
        return QueryDiagnosis.model_validate(out)
    target: dict[str, Any] = {
        "ref": request.target,
        "docid": doc.docid,
        "uri": uri,
        "mirrorHash": doc.mirror_hash,
        "chunkCount": len(chunks),
        "filterReasons": [],
    }
    if doc.meta.title:
        target["title"] = doc.meta.title
    if doc.meta.content_type:
        target["contentType"] = doc.meta.content_type
    if doc.meta.categories:
        target["categories"] = list(doc.meta.categories)
    out["target"] = target
    if not chunks or not same_index:
        target["status"] = "no_indexed_content" if not chunks else "inactive"
        out["stages"] = []
        out["summary"] = (
            f"{uri} has no indexed text to match (it converted to no chunks)."
            if not chunks
            else f"{uri} belongs to another index; diagnose it there."
        )
        return QueryDiagnosis.model_validate(out)
    filters = build_filters(handle.load_config, request, handle.clock.now_ns())
    reasons = filter_reasons(doc, markdown, filters, request)
    if filters.metadata is not None:
        reasons += metadata_reasons(
            handle.index.documents.document_metadata(doc.collection, doc.rel_path),
            filters.metadata,
        )
    if reasons:
        target["status"] = "filtered_out"
        target["filterReasons"] = reasons
        out["stages"] = [
            skipped(s, "filtered out first")
            for s in ("bm25", "vector", "fusion", "graph", "rerank")
        ]
        out["summary"] = (
            f"{uri} never reached ranking: " + "; ".join(reasons) + ". Remove or widen that "
            "filter to let it compete."
        )
        return QueryDiagnosis.model_validate(out)
    target["status"] = "diagnosed"
    key = doc_key(doc)
    stages = [
        bm25_stage(handle, request, filters, key),
        vector_stage(handle, models, request, filters, key),
    ]
    fusion, rerank, chunk, graph_keys, lines = _hybrid(retrieval, request, key, doc)
    stages += [fusion, graph_stage(handle, doc, graph_keys, lines, stage), rerank]
    out["stages"] = stages
    if chunk is not None:
        # The chunk the best passage starts in: its place among the document's chunks.
        seq = next(
            (c.seq for c in chunks if c.start_line <= chunk["startLine"] <= c.end_line), None
        )
        out["chunk"] = chunk if seq is None else {"seq": seq, **chunk}
    out["summary"] = _summary(uri, stages, request.limit)
    return QueryDiagnosis.model_validate(out)


def _hybrid(
    retrieval: Retrieval, request: DiagnoseRequest, key: str, doc: StoredDocument
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None, list[str], list[Any]]:
    from gno_core.contracts.requests import QueryRequest

    fields = {name: getattr(request, name) for name in QueryRequest.model_fields if name != "limit"}
    unranked = QueryRequest(
        **{**fields, "limit": POOL, "rerank": False, "min_score": None, "explain": True}
    )
    fused = retrieval.hybrid(unranked)
    lines = fused.meta.explain or []
    fused_keys = [r.uri for r in fused.results]
    uri_of = retrieval.handle.uri(doc)
    rank = fused_keys.index(uri_of) + 1 if uri_of in fused_keys else None
    chunk = None
    if rank is None:
        fusion = missed("fusion", len(fused_keys), "no leg brought it in, so fusion never saw it")
    else:
        score = fused.results[rank - 1].score
        below_min = request.min_score is not None and score < request.min_score
        within = rank <= request.limit and not below_min
        why = f"fusion puts it at rank {rank} of {len(fused_keys)}"
        if below_min:
            why += f", but its score {score:.2f} is below minScore {request.min_score}"
        elif rank > request.limit:
            why += f", below the limit of {request.limit}"
        fusion = stage(
            "fusion",
            "active",
            len(fused_keys),
            True,
            rank,
            score,
            within,
            None if within else "below_cutoff",
            why,
        )
        hit = fused.results[rank - 1]
        if hit.snippet_range is not None:
            chunk = {
                "startLine": hit.snippet_range.start_line,
                "endLine": hit.snippet_range.end_line,
            }
    if not request.rerank or request.fast:
        rerank = skipped("rerank", "reranking was turned off for this query")
        return fusion, rerank, chunk, fused_keys[: request.limit], lines
    ranked = retrieval.hybrid(QueryRequest(**{**fields, "limit": POOL, "min_score": None}))
    if not ranked.meta.reranked:
        rerank = skipped("rerank", "no reranker model is available, so fusion order is final")
        return fusion, rerank, chunk, fused_keys[: request.limit], lines
    keys = [r.uri for r in ranked.results]
    if uri_of not in keys:
        rerank = missed("rerank", len(keys), "it was not among the reranked candidates")
    else:
        final = keys.index(uri_of) + 1
        rerank = stage(
            "rerank",
            "active",
            len(keys),
            True,
            final,
            ranked.results[final - 1].score,
            final <= request.limit,
            None if final <= request.limit else "below_cutoff",
            f"the reranker moves it to rank {final}"
            + ("" if final <= request.limit else f", below the limit of {request.limit}"),
        )
    return fusion, rerank, chunk, keys[: request.limit], lines


def _summary(uri: str, stages: list[dict[str, Any]], limit: int) -> str:
    by = {s["id"]: s for s in stages}
    final = by["rerank"] if by["rerank"]["status"] == "active" else by["fusion"]
    if final["survived"]:
        return f"{uri} is returned at rank {final['rank']} (limit {limit})."
    if not by["bm25"]["present"] and not by["vector"]["present"]:
        return (
            f"{uri} is eligible but neither keywords nor meaning brought it in: add a "
            "term queryMode with words it contains, or rephrase."
        )
    return f"{uri} is not returned: {final['reason']}. Raise limit or refine the query."
