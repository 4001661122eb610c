"""``gno vsearch`` (by meaning), ``gno query`` (hybrid) and ``gno similar``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.commands.search import (
    add_retrieval_options,
    plain_request,
    print_hits,
    print_results,
    request_from,
    retrieval_values,
)
from gno_cli.options import (
    add_field_options,
    add_request_options,
    defer,
    query_modes,
    validated,
)
from gno_cli.output import emit, emit_json, note_trace

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts.fields import FieldSpec
    from gno_core.contracts.requests import QueryRequest
    from gno_core.contracts.search import SearchMeta
    from gno_core.retrieval.inputs import QueryAsk, SearchAsk
    from gno_core.retrieval.results import HybridHits


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser("vsearch", help="vector search: documents nearest the query by meaning")
    defer(v, add_retrieval_options)
    v.set_defaults(handler=run_vsearch)

    q = sub.add_parser("query", help="hybrid search: keywords and vectors fused (recommended)")
    defer(q, _query_options)
    q.set_defaults(handler=run_query)

    s = sub.add_parser("similar", help="documents similar to one document by meaning")
    defer(s, _similar_options)
    s.set_defaults(handler=run_similar)


def _query_options(q: argparse.ArgumentParser) -> None:
    from gno_core.contracts.query_fields import QUERY_FIELDS

    add_retrieval_options(q)
    add_field_options(q, QUERY_FIELDS)
    q.add_argument(
        "--diagnose",
        metavar="TARGET",
        help="explain what each stage did with this document (URI, #docid or collection/path)",
    )


def _similar_options(s: argparse.ArgumentParser) -> None:
    from gno_core.contracts.requests import SimilarRequest

    add_request_options(s, SimilarRequest)


def run_vsearch(ctx: Context) -> int:
    ctx.load_embedder_meanwhile()
    plain: SearchAsk | None = plain_request(ctx)
    if plain is not None:
        found = ctx.gno.vector_hits(plain)
        code = print_hits(ctx, plain.query, found.hits)
        note_gap(ctx, found.gap.message if found.gap else None)
        note_trace(ctx.gno.trace_hits("gno vsearch", plain, "vector", found.hits))
        return code
    request = request_from(ctx.args)
    results = ctx.gno.vsearch(request)
    code = print_results(ctx, results)
    note_gap(ctx, _gap_message(results.meta))
    note_trace(ctx.gno.trace_results("gno vsearch", request, results))
    return code


def note_gap(ctx: Context, message: str | None) -> None:
    """The note on stderr (stdout stays as scripts parse it) that search by meaning missed part
    of the searched collections (``--json`` says it in ``meta.vectorCoverage``)."""
    if message and not ctx.json:
        import sys

        print(f"Note: {message}", file=sys.stderr)


def _gap_message(meta: SearchMeta) -> str | None:
    return meta.vector_coverage.message if meta.vector_coverage else None


def query_request(args: argparse.Namespace) -> QueryRequest:
    from gno_core.contracts.requests import QueryRequest

    values = retrieval_values(args, QueryRequest)
    values["query_modes"] = query_modes(values.get("query_modes", []))
    return QueryRequest.model_validate(values)


def run_query(ctx: Context) -> int:
    if ctx.args.diagnose:
        from gno_cli.commands.evidence import run_diagnose

        return run_diagnose(ctx, ctx.args.diagnose)
    ctx.load_embedder_meanwhile()
    plain: QueryAsk | None = plain_request(ctx, _query_specs())
    how: HybridHits | SearchMeta
    if plain is not None:
        how = ctx.gno.query_hits(plain)
        code = print_hits(ctx, plain.query, how.hits)
        gap = how.gap.message if how.gap else None
        trace = ctx.gno.trace_hits("gno query", plain, "hybrid", how.hits)
    else:
        request = query_request(ctx.args)
        results = ctx.gno.query(request)
        code = print_results(ctx, results)
        how = results.meta
        gap = _gap_message(how)
        trace = ctx.gno.trace_results("gno query", request, results)
    if not ctx.json and not ctx.args.files:
        _print_how(how)
    note_gap(ctx, gap)
    note_trace(trace)
    return code


def _query_specs() -> tuple[FieldSpec, ...]:
    from gno_core.contracts.query_fields import QUERY_FIELDS
    from gno_core.contracts.search_fields import SEARCH_FIELDS

    return SEARCH_FIELDS + QUERY_FIELDS


def _print_how(how: HybridHits | SearchMeta) -> None:
    """The line under a query's hits saying how it ran, then its explain lines (the results'
    ``meta`` or the plain ``HybridHits``: the same fields)."""
    if isinstance(how, tuple):  # HybridHits
        percent = how.gap.coverage.percent if how.gap else None
    else:
        percent = how.vector_coverage.percent if how.vector_coverage else None
    vectors = "vectors" if how.vectors_used else "no vectors"
    flags = [
        f"mode {how.mode}",
        vectors if percent is None else f"{vectors} ({percent}% embedded)",
        "reranked" if how.reranked else "not reranked",
    ]
    if how.expanded:
        flags.append("expanded")
    emit(f"({', '.join(flags)})")
    for line in how.explain or []:
        where = f" #{line.rank} {line.uri}" if line.rank else ""
        emit(f"  [{line.stage}]{where} {line.message}")


def run_similar(ctx: Context) -> int:
    from gno_core.contracts.requests import SimilarRequest

    req = validated(ctx.args, SimilarRequest)
    res = ctx.gno.similar(
        req.ref, limit=req.limit, threshold=req.threshold, cross_collection=req.cross_collection
    )
    if ctx.json:
        emit_json(res)
        return 0
    if not res.similar:
        emit(f"No similar documents for {res.meta.uri}")
        return 0
    emit(f"Similar to {res.meta.uri}:")
    for i, s in enumerate(res.similar, 1):
        title = f" - {s.title}" if s.title else ""
        emit(f"{i}. {s.uri}  {s.docid}  ({s.score:.2f}){title}")
    return 0
