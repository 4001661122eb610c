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
    from gno_core.contracts.delta_requests import ChangesRequest

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
        help="keep reading: print each change committed after --since (default: from now) "
        "as it comes, one line each (--json: one changes-follow-event@1.0 object per line), "
        "until Ctrl-C (exit 130); exit 2 when retention passes the cursor first",
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
    if ctx.args.follow:
        return _follow(ctx, req)
    if ctx.json:
        emit_json(ctx.gno.changes_wire(req).wire())  # no model per entry
        return 0
    res = ctx.gno.changes(req)
    for e in res.changes:
        emit(_line(e))
    for warning in res.warnings:
        emit(f"warning: {warning}", sys.stderr)
    emit(f"{len(res.changes)} changes; next cursor: {res.page.next_cursor}")
    if res.page.truncated:
        emit("more changes follow: gno changes --since <next cursor>")
    return 0


class _Interrupt:
    """Ctrl-C under ``--follow``: remembered, and acted on between two reads, so a line is
    never cut and no read is abandoned half way (the loop exits 130 at its next check)."""

    def __init__(self) -> None:
        self.pending = False
        self.sleeping = False

    def __call__(self, signum: int, frame: object) -> None:
        self.pending = True
        if self.sleeping:
            raise KeyboardInterrupt  # only ever raised inside the wait


def _follow(ctx: Context, req: ChangesRequest) -> int:
    """Print every entry after the start (``--since``, or the latest entry when not given),
    each once and in journal order, reading the journal every ``FOLLOW_INTERVAL`` seconds, until
    Ctrl-C (130). A cursor that retention passed before it was read ends the stream: the
    follower cannot go on without a gap (a ``cursorExpired`` event with ``--json``, exit 2)."""
    import signal

    from gno_cli.exit_codes import INTERRUPTED, sigint_catchable

    interrupt = _Interrupt()
    previous = None
    if sigint_catchable():
        previous = signal.signal(signal.SIGINT, interrupt)
    try:
        cursor = req.since
        if cursor is None:
            cursor = ctx.gno.changes(req.model_copy(update={"limit": 1})).page.latest_cursor
        if not ctx.quiet:
            emit(f"Following changes after {cursor} (Ctrl-C to stop)", sys.stderr)
            sys.stderr.flush()
        while not interrupt.pending:
            res = ctx.gno.changes(req.model_copy(update={"since": cursor}))
            if res.page.cursor_expired:
                return _expired(ctx, cursor, res.page.earliest_cursor, res.warnings)
            for warning in res.warnings:
                emit(f"warning: {warning}", sys.stderr)
            for e in res.changes:
                if ctx.json:
                    event = {"event": "change", "cursor": e.id, "change": e.wire()}
                    emit(json.dumps(event, ensure_ascii=False))
                else:
                    emit(_line(e))
            sys.stdout.flush()
            cursor = res.page.next_cursor
            if res.page.truncated:
                continue  # more are already there: no wait
            interrupt.sleeping = True
            try:
                if not interrupt.pending:
                    time.sleep(FOLLOW_INTERVAL)
            except KeyboardInterrupt:
                pass
            finally:
                interrupt.sleeping = False
        emit("Interrupted", sys.stderr)
        return INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _expired(ctx: Context, cursor: str, earliest: str, warnings: list[str]) -> int:
    """The follow cannot go on without a gap: say so, with where the kept history starts."""
    from gno_core.errors import EXIT_CODES

    rebuilt = any("another change journal" in w for w in warnings)
    said = (
        "the index was rebuilt: the cursor is of another change journal"
        if rebuilt
        else "retention dropped changes after the cursor before they were read"
    )
    if ctx.json:
        event = {
            "event": "cursorExpired",
            "cursor": cursor,
            "earliestCursor": earliest,
            "warnings": [said],
        }
        emit(json.dumps(event, ensure_ascii=False))
        sys.stdout.flush()
    emit(
        f"Error: {said} ({cursor}); the kept history starts at {earliest}: read it with "
        "gno changes --since <that cursor>, then follow again",
        sys.stderr,
    )
    return EXIT_CODES["RUNTIME"]


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
