"""``gno watch``: keep collections indexed as their files change (one sync per burst of
changes, embeddings behind), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import TYPE_CHECKING

from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.indexing.live import LiveEvent


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("watch", help="keep the index up to date as files change (until Ctrl-C)")
    p.add_argument(
        "-c", "--collection", action="append", help="watch only this collection (repeatable)"
    )
    p.add_argument("--no-embed", action="store_true", help="sync only; no embeddings")
    p.set_defaults(handler=run_watch)


def run_watch(ctx: Context) -> int:
    stopping = threading.Event()

    def stop(*_: object) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    previous = signal.signal(signal.SIGINT, stop)

    def report(event: LiveEvent) -> None:
        if ctx.json:
            emit_json(
                {
                    "collections": list(event.collections),
                    "changed": event.changed,
                    "sync": event.sync.wire() if event.sync else None,
                    "embed": event.embed.wire() if event.embed else None,
                    "error": event.error.envelope()["error"] if event.error else None,
                }
            )
        elif not ctx.quiet:
            emit(event.summary())
        sys.stdout.flush()

    # What the watcher has to say beside the rounds (a collection root gone or replaced and
    # the watch re-armed, file events unavailable) goes to stderr, with the time.
    logging.basicConfig(
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if not ctx.quiet and not ctx.json:
        print("gno watch: watching for changes (Ctrl-C to stop)", file=sys.stderr, flush=True)
    try:
        ctx.gno.watch(
            ctx.args.collection,
            stop=stopping.is_set,
            embed=not ctx.args.no_embed,
            on_event=report,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    return 0
