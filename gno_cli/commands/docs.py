"""``gno get``, ``gno multi-get`` and ``gno ls``: reading indexed documents."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from gno_cli.options import OneCollection, add_request_options, defer
from gno_cli.output import emit, emit_json, note_trace, number_lines

if TYPE_CHECKING:
    from gno_cli.context import Context

GLOB_CHARS = set("*?[")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("get", help="print a document (or a line range) from the index")
    defer(p, _get_options)
    p.set_defaults(handler=run_get)

    m = sub.add_parser("multi-get", help="print several documents (refs, comma lists or a glob)")
    defer(m, _multi_get_options)
    m.set_defaults(handler=run_multi_get)

    ls = sub.add_parser("ls", help="list indexed documents")
    ls.add_argument(
        "scope",
        nargs="?",
        help="collection, collection/prefix or gno://collection/prefix (with -c: a prefix in it)",
    )
    ls.add_argument(
        "-c", "--collection", action=OneCollection, metavar="NAME", help="only this collection"
    )
    ls.add_argument("--limit", type=int)
    ls.set_defaults(handler=run_ls)


def _get_options(p: argparse.ArgumentParser) -> None:
    from gno_core.contracts.requests import GetRequest

    add_request_options(p, GetRequest)
    p.add_argument("--line-numbers", action="store_true", help="prefix lines with their numbers")


def _multi_get_options(p: argparse.ArgumentParser) -> None:
    from gno_core.contracts.requests import MultiGetRequest

    p.add_argument(
        "refs",
        nargs="+",
        help="refs, comma separated lists, or one glob like notes/**/*.md (a glob that "
        "matches nothing exits 1)",
    )
    add_request_options(p, MultiGetRequest)
    p.add_argument("--line-numbers", action="store_true", help="prefix lines with their numbers")


def run_get(ctx: Context) -> int:
    a = ctx.args
    result = ctx.gno.get(a.ref, from_line=a.from_line, line_count=a.line_count)
    note_trace(ctx.gno.trace_get(a.trace_id, a.ref, result))
    if ctx.json:
        emit_json(result)
        return 0
    start = result.returned_lines.start if result.returned_lines else 1
    text = number_lines(result.content, start) if a.line_numbers else result.content
    if result.conversion is not None:
        emit(mirror_note(result.uri, result.conversion.converter_id), sys.stderr)
    if text:
        emit(text)
    return 0


def mirror_note(uri: str, converter_id: str) -> str:
    """What a reader of a converted document is told: its lines are the mirror's."""
    return (
        f"({uri}: Markdown mirror made by {converter_id}; line numbers count lines of this "
        "mirror, not of the file)"
    )


def run_multi_get(ctx: Context) -> int:
    a = ctx.args
    refs = [r.strip() for raw in a.refs for r in raw.split(",") if r.strip()]
    cap = {"max_bytes": a.max_bytes} if a.max_bytes is not None else {}
    pattern = refs[0] if len(refs) == 1 and GLOB_CHARS.intersection(refs[0]) else None
    if pattern is not None:
        result = ctx.gno.multi_get(pattern=pattern, **cap)
    else:
        result = ctx.gno.multi_get(refs=refs, **cap)
    # A glob that matches nothing is NOT_FOUND's exit, with the (valid, empty) result as JSON.
    code = 0
    if pattern is not None and not result.documents and not result.skipped:
        from gno_core.errors import NotFoundError, exit_code_for

        miss = NotFoundError(f"No document matches {pattern}", details={"pattern": pattern})
        emit(f"Error: {miss.message}", sys.stderr)
        code = exit_code_for(miss)
    if ctx.json:
        emit_json(result)
        return code
    for doc in result.documents:
        mirror = " (converted: mirror lines)" if doc.coordinate_space == "canonical_mirror" else ""
        emit(f"=== {doc.uri} {doc.docid}{' (truncated)' if doc.truncated else ''}{mirror}")
        emit(number_lines(doc.content, 1) if a.line_numbers else doc.content)
    for s in result.skipped:
        emit(f"skipped {s.ref}: {s.reason}{': ' + s.message if s.message else ''}")
    return code


def run_ls(ctx: Context) -> int:
    scope = (ctx.args.scope or "").removeprefix("gno://")
    if ctx.args.collection:  # a scope given too is then a prefix inside the collection
        scope = f"{ctx.args.collection}/{scope}" if scope else ctx.args.collection
    collection, _, prefix = scope.partition("/")
    listing = ctx.gno.ls(collection or None, prefix or None, ctx.args.limit)
    if ctx.json:
        emit_json(listing)
        return 0
    for d in listing.documents:
        emit(f"{d.docid}  {d.uri}{'  ' + d.title if d.title else ''}")
    if listing.meta.returned < listing.meta.total:
        emit(f"({listing.meta.returned} of {listing.meta.total} shown)")
    return 0
