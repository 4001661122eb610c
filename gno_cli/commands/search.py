"""``gno search``: BM25 keyword search with filters."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gno_cli.options import add_request_options, defer, request_values
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts import SearchResults
    from gno_core.contracts.search_request import SearchRequest


def add_retrieval_options(p: argparse.ArgumentParser) -> None:
    """The ``SearchRequest`` options, then ``--files``; run through ``defer``."""
    from gno_core.contracts.search_request import SearchRequest

    add_request_options(p, SearchRequest)
    p.add_argument("--files", action="store_true", help="print #docid,score,uri lines")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("search", help="keyword (BM25) search")
    defer(p, add_retrieval_options)
    p.set_defaults(handler=run_search)


def retrieval_values(args: argparse.Namespace, model: type[SearchRequest]) -> dict[str, Any]:
    """The request fields given on the command line; a listing for scripts (``--json``,
    ``--files``) defaults to 20 results rather than the 5 a person reads."""
    values = request_values(args, model)
    if "limit" not in values and (args.json or args.files):
        values["limit"] = 20
    return values


def request_from(args: argparse.Namespace) -> SearchRequest:
    from gno_core.contracts.search_request import SearchRequest

    return SearchRequest.model_validate(retrieval_values(args, SearchRequest))


def print_results(ctx: Context, results: SearchResults) -> int:
    if ctx.json:
        emit_json(results)
        return 0
    if ctx.args.files:
        for r in results.results:
            emit(f"{r.docid},{r.score:.4f},{r.uri}")
        return 0
    if not results.results:
        emit(f'No results for "{results.meta.query}"')
        return 0
    for i, r in enumerate(results.results, 1):
        title = f" {r.title}" if r.title else ""
        anchor = f":{r.line}" if r.line else ""
        emit(f"{i}. {r.uri}{anchor}  {r.docid}  ({r.score:.2f}){title and ' -' + title}")
        for line in r.snippet.splitlines()[:4]:
            emit(f"   {line}")
    return 0


def run_search(ctx: Context) -> int:
    return print_results(ctx, ctx.gno.search(request_from(ctx.args)))
