"""``gno changes`` (the change journal after a time or cursor; ``--follow`` prints new entries
as they are committed) and ``gno diff`` (a document's structural diff for a change)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from gno_cli.options import add_request_options, defer, validated
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts.delta import ChangeEntry

#: Seconds between two reads of the journal under ``--follow``.
FOLLOW_INTERVAL = 0.5


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    c = sub.add_parser("changes", help="what changed in the index since a time or cursor")
    defer(c, _changes_options)
    c.set_defaults(handler=run_changes)

    d = sub.add_parser("diff", help="structural diff of a document for a change")
    defer(d, _diff_options)
    d.set_defaults(handler=run_diff)


def _changes_options(c: argparse.ArgumentParser) -> None:
    from gno_core.contracts.delta_requests import ChangesRequest

    add_request_options(c, ChangesRequest)
    c.add_argument(
        "--follow",
        action="store_true",
        help="keep reading: print new changes as they are committed (one JSON line each "
        "with --json) until interrupted",
    )


def _diff_options(d: argparse.ArgumentParser) -> None:
    from gno_core.contracts.delta_requests import DiffRequest

    add_request_options(d, DiffRequest)


def _line(e: ChangeEntry) -> str:
    side = e.current or e.previous
    assert side is not None
    where = side.uri
    if e.kind == "rename" and e.previous is not None:
        where = f"{e.previous.uri} -> {side.uri}"
    d = e.structure_delta
    counts = [
        f"{name} +{len(part.added)}/-{len(part.removed)}"
        for name, part in (
            ("headings", d.headings),
            ("links", d.links),
            ("edges", d.edges),
            ("dates", d.dates),
        )
        if part.added or part.removed
    ]
    extra = f"  ({', '.join(counts)}{', truncated' if d.truncated else ''})" if counts else ""
    return f"{e.observed_at}  {e.kind:<10} {where}{extra}"


def run_changes(ctx: Context) -> int:
    from gno_core.contracts.delta_requests import ChangesRequest

    req = validated(ctx.args, ChangesRequest)
    if ctx.json and not ctx.args.follow:
        emit_json(ctx.gno.changes_wire(req).wire())  # no model per entry
        return 0
    res = ctx.gno.changes(req)
    if ctx.args.follow:
        return _follow(ctx, req, res.page.next_cursor, res.changes)
    for e in res.changes:
        emit(_line(e))
    for warning in res.warnings:
        emit(f"warning: {warning}", sys.stderr)
    emit(f"{len(res.changes)} changes; next cursor: {res.page.next_cursor}")
    if res.page.truncated:
        emit("more changes follow: gno changes --since <next cursor>")
    return 0


def _follow(ctx: Context, req: object, cursor: str, first: list[ChangeEntry]) -> int:
    from gno_core.contracts.delta_requests import ChangesRequest

    assert isinstance(req, ChangesRequest)
    entries = first
    try:
        while True:
            for e in entries:
                emit(json.dumps(e.wire(), ensure_ascii=False) if ctx.json else _line(e))
            sys.stdout.flush()
            if not entries:
                time.sleep(FOLLOW_INTERVAL)
            res = ctx.gno.changes(req.model_copy(update={"since": cursor}))
            entries, cursor = res.changes, res.page.next_cursor
    except KeyboardInterrupt:
        return 0


def run_diff(ctx: Context) -> int:
    from gno_core.contracts.delta_requests import DiffRequest

    res = ctx.gno.diff(validated(ctx.args, DiffRequest))
    if ctx.json:
        emit_json(res)
        return 0
    emit(f"{res.document.uri}: {res.status}")
    change = res.change
    if change is not None:
        emit(f"{change.kind} at {change.observed_at}  ({change.id})")
        delta = change.structure_delta
        for name in ("headings", "links", "edges", "dates"):
            part = getattr(delta, name)
            for value in part.added:
                emit(f"  + {name[:-1]}: {value}")
            for value in part.removed:
                emit(f"  - {name[:-1]}: {value}")
        if delta.truncated:
            emit("  (delta truncated: not every value is listed)")
    emit("content: not retained (the journal keeps metadata only)")
    for warning in res.warnings:
        emit(f"warning: {warning}", sys.stderr)
    return 0
