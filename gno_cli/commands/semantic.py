"""``gno vsearch`` (by meaning), ``gno query`` (hybrid) and ``gno similar``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.commands.search import add_retrieval_options, print_results, request_from
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.model.requests import QueryMode, QueryRequest


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser("vsearch", help="vector search: documents nearest the query by meaning")
    add_retrieval_options(v)
    v.set_defaults(handler=run_vsearch)

    q = sub.add_parser("query", help="hybrid search: keywords and vectors fused (recommended)")
    add_retrieval_options(q)
    depth = q.add_mutually_exclusive_group()
    depth.add_argument("--fast", action="store_true", help="no expansion, no rerank")
    depth.add_argument(
        "--thorough", action="store_true", help="expansion and a wider rerank (40 candidates)"
    )
    q.add_argument("--expand", action="store_true", default=None, help="expand the query")
    q.add_argument("--no-expand", dest="expand", action="store_false", help="never expand")
    q.add_argument("--no-rerank", action="store_true", help="skip the cross-encoder")
    q.add_argument(
        "-C", "--candidate-limit", type=int, help="candidates sent to rerank (1-100, default 20)"
    )
    q.add_argument(
        "--query-mode",
        action="append",
        default=[],
        metavar="MODE:TEXT",
        help="extra retrieval entry: term:TEXT, intent:TEXT or hyde:TEXT (repeatable)",
    )
    q.add_argument("--explain", action="store_true", help="stage lines and score receipts")
    q.add_argument("--no-graph", action="store_true", help="no graph neighbour expansion")
    q.set_defaults(handler=run_query)

    s = sub.add_parser("similar", help="documents similar to one document by meaning")
    s.add_argument("ref", help="gno:// URI, collection/path or #docid")
    s.add_argument("-n", "--limit", type=int, default=5, help="how many (1-50, default 5)")
    s.add_argument("--threshold", type=float, help="minimum similarity (0-1)")
    s.add_argument("--cross-collection", action="store_true", help="include other collections")
    s.set_defaults(handler=run_similar)


def run_vsearch(ctx: Context) -> int:
    return print_results(ctx, ctx.gno.vsearch(request_from(ctx.args)))


def _modes(values: list[str]) -> list[QueryMode]:
    from gno_core.errors import ValidationError
    from gno_core.model.requests import QueryMode

    modes = []
    for value in values:
        mode, sep, text = value.partition(":")
        if not sep or mode.strip() not in ("term", "intent", "hyde"):
            raise ValidationError(
                f"--query-mode expects term:TEXT, intent:TEXT or hyde:TEXT, not {value!r}"
            )
        modes.append(QueryMode.model_validate({"mode": mode.strip(), "text": text}))
    return modes


def query_request(args: argparse.Namespace) -> QueryRequest:
    from gno_core.model.requests import QueryRequest

    base = request_from(args).model_dump()
    return QueryRequest(
        **base,
        candidate_limit=args.candidate_limit,
        query_modes=_modes(args.query_mode),
        expand=args.expand,
        rerank=not args.no_rerank,
        explain=args.explain,
        fast=args.fast,
        thorough=args.thorough,
        graph=not args.no_graph,
        no_graph=args.no_graph,
    )


def run_query(ctx: Context) -> int:
    results = ctx.gno.query(query_request(ctx.args))
    code = print_results(ctx, results)
    if not ctx.json and not ctx.args.files:
        meta = results.meta
        flags = [
            f"mode {meta.mode}",
            "vectors" if meta.vectors_used else "no vectors",
            "reranked" if meta.reranked else "not reranked",
        ]
        if meta.expanded:
            flags.append("expanded")
        emit(f"({', '.join(flags)})")
        for line in meta.explain or []:
            where = f" #{line.rank} {line.uri}" if line.rank else ""
            emit(f"  [{line.stage}]{where} {line.message}")
    return code


def run_similar(ctx: Context) -> int:
    args = ctx.args
    res = ctx.gno.similar(
        args.ref,
        limit=args.limit,
        threshold=args.threshold,
        cross_collection=args.cross_collection,
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
