"""``gno search``: BM25 keyword search with filters."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, NamedTuple

from gno_cli.options import add_field_options, defer, given_values, request_values
from gno_cli.output import emit, emit_json, note_trace

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts import SearchResults
    from gno_core.contracts.fields import FieldSpec
    from gno_core.contracts.search_request import SearchRequest
    from gno_core.retrieval.inputs import SearchAsk
    from gno_core.retrieval.ranked import RankedHit


def add_retrieval_options(p: argparse.ArgumentParser) -> None:
    """The ``SearchRequest`` options, then ``--files``; run through ``defer``. Built from the
    request's field specs (``gno_core.contracts.search_fields``), so that a text search never
    creates a pydantic class."""
    from gno_core.contracts.search_fields import SEARCH_FIELDS

    add_field_options(p, SEARCH_FIELDS)
    p.add_argument("--files", action="store_true", help="print #docid,score,uri lines")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("search", help="keyword (BM25) search")
    defer(p, add_retrieval_options)
    p.set_defaults(handler=run_search)


def retrieval_values(args: argparse.Namespace, model: type[SearchRequest]) -> dict[str, Any]:
    """The request fields given on the command line; a listing for scripts (``--json``,
    ``--files``) defaults to 20 results rather than the 5 a person reads."""
    return _listing_limit(args, request_values(args, model))


def _listing_limit(args: argparse.Namespace, values: dict[str, Any]) -> dict[str, Any]:
    if "limit" not in values and (args.json or args.files):
        values["limit"] = 20
    return values


def request_from(args: argparse.Namespace) -> SearchRequest:
    from gno_core.contracts.search_request import SearchRequest

    return SearchRequest.model_validate(retrieval_values(args, SearchRequest))


class _Row(NamedTuple):
    docid: str
    score: float
    uri: str
    line: int | None
    title: str | None
    snippet: str


def print_results(ctx: Context, results: SearchResults) -> int:
    if ctx.json:
        emit_json(results)
        return 0
    coverage = results.meta.metadata_coverage
    if coverage is not None:  # on stderr: stdout stays as scripts parse it
        import sys

        print(f"Note: {coverage.message}", file=sys.stderr)
    rows = [_Row(r.docid, r.score, r.uri, r.line, r.title, r.snippet) for r in results.results]
    return _print_rows(ctx, results.meta.query, rows)


def print_hits(ctx: Context, query: str, hits: list[RankedHit]) -> int:
    """``print_results`` for the text and ``--files`` output of ``search``/``vsearch``, from the hits
    themselves (the same lines, without building the result contracts)."""
    rows = [
        _Row(
            h.document.docid,
            h.score,
            h.uri,
            h.passage.best_line if h.passage else None,
            h.document.meta.title,
            h.passage.text if h.passage else "",
        )
        for h in hits
    ]
    return _print_rows(ctx, query, rows)


def _print_rows(ctx: Context, query: str, rows: list[_Row]) -> int:
    if ctx.args.files:
        for r in rows:
            emit(f"{r.docid},{r.score:.4f},{r.uri}")
        return 0
    if not rows:
        emit(f'No results for "{query}"')
        return 0
    for i, r in enumerate(rows, 1):
        title = f" {r.title}" if r.title else ""
        anchor = f":{r.line}" if r.line else ""
        emit(f"{i}. {r.uri}{anchor}  {r.docid}  ({r.score:.2f}){title and ' -' + title}")
        for line in r.snippet.splitlines()[:4]:
            emit(f"   {line}")
    return 0


def plain_request(ctx: Context, specs: tuple[FieldSpec, ...] | None = None) -> Any:
    """The request of ``gno search``/``vsearch`` (``specs``: the fields of another retrieval
    request, ``gno query``'s) without pydantic, for their text and ``--files`` output, when the
    request's own rules accept the values (a new process skips ~70-100 ms of pydantic import
    and class building); ``None`` for ``--json`` and for anything the check cannot judge, which
    go through the pydantic request and the result contracts."""
    if ctx.json:
        return None
    from gno_core.contracts.fields import plain_values

    if specs is None:
        from gno_core.contracts.search_fields import SEARCH_FIELDS

        specs = SEARCH_FIELDS
    values = _listing_limit(ctx.args, given_values(ctx.args, (s.name for s in specs)))
    return plain_values(specs, values)


def run_search(ctx: Context) -> int:
    plain: SearchAsk | None = plain_request(ctx)
    if plain is not None:
        hits = ctx.gno.keyword_hits(plain)
        code = print_hits(ctx, plain.query, hits)
        note_trace(ctx.gno.trace_hits("gno search", plain, "bm25", hits))
        return code
    request = request_from(ctx.args)
    results = ctx.gno.search(request)
    code = print_results(ctx, results)
    note_trace(ctx.gno.trace_results("gno search", request, results))
    return code
