"""``gno search``: BM25 keyword search with filters."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.model import SearchResults
    from gno_core.model.requests import SearchRequest


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def add_retrieval_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("query")
    p.add_argument(
        "-n", "--limit", type=int, help="number of results (default 5; 20 with --json/--files)"
    )
    p.add_argument("--min-score", type=float, help="drop results scoring below this (0-1)")
    p.add_argument("-c", "--collection", help="only this collection")
    p.add_argument(
        "--since", help="modified at or after (ISO date or 7d, 2w, today, last month ...)"
    )
    p.add_argument("--until", help="modified before (same forms as --since)")
    p.add_argument(
        "--category", type=_csv, default=[], help="content types/categories, comma separated"
    )
    p.add_argument("--author", help="author contains this text")
    p.add_argument("--intent", help="what you mean, to pick the best passage (not searched)")
    p.add_argument("--exclude", type=_csv, default=[], help="drop documents containing these terms")
    p.add_argument("--tags-all", type=_csv, default=[], help="documents with all of these tags")
    p.add_argument("--tags-any", type=_csv, default=[], help="documents with any of these tags")
    p.add_argument("--lang", help="language code of the documents")
    p.add_argument(
        "--path-prefix", help="only paths starting with this (relative to the collection)"
    )
    p.add_argument("--files", action="store_true", help="print #docid,score,uri lines")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("search", help="keyword (BM25) search")
    add_retrieval_options(p)
    p.set_defaults(handler=run_search)


def request_from(args: argparse.Namespace) -> SearchRequest:
    from gno_core.model.requests import SearchRequest

    limit = args.limit if args.limit is not None else (20 if args.json or args.files else 5)
    return SearchRequest(
        query=args.query,
        collection=args.collection,
        limit=limit,
        min_score=args.min_score,
        lang=args.lang,
        since=args.since,
        until=args.until,
        categories=args.category,
        author=args.author,
        tags_all=args.tags_all,
        tags_any=args.tags_any,
        exclude=args.exclude,
        intent=args.intent,
        path_prefix=args.path_prefix,
    )


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
