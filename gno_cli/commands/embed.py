"""``gno embed`` (vectors for chunks that lack them) and ``gno index`` (sync, then embed)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.commands.sync import emit_recovered, totals
from gno_cli.options import add_collections, collections_of
from gno_cli.output import Progress, emit, emit_json

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_cli.context import Context
    from gno_core.contracts import EmbedResult
    from gno_core.indexing.embedding import EmbedProgress
    from gno_core.indexing.sync import SyncProgress

#: Exit code of a run in which some chunks failed to embed (a runtime failure).
PARTIAL_FAILURE_EXIT = 2


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("embed", help="embed chunks that have no vector for the current model")
    add_collections(p, "embed")
    p.add_argument("--force", action="store_true", help="embed everything again")
    p.add_argument("--batch-size", type=int, default=32, help="chunks per committed batch")
    p.add_argument("--dry-run", action="store_true", help="only count what would be embedded")
    _nice_option(p)
    p.set_defaults(handler=run_embed)
    i = sub.add_parser("index", help="sync files, then embed what changed (update + embed)")
    add_collections(i, "index")
    i.add_argument("--no-embed", action="store_true", help="sync only")
    i.add_argument("--batch-size", type=int, default=32, help="chunks per committed batch")
    _nice_option(i)
    i.set_defaults(handler=run_index)


def _nice_option(p: argparse.ArgumentParser) -> None:
    from gno_cli.priority import DEFAULT_EMBED_NICENESS

    p.add_argument(
        "--nice",
        type=int,
        default=DEFAULT_EMBED_NICENESS,
        metavar="N",
        help=(
            "CPU niceness of the embedding, so captures and searches get the cores first "
            f"(default {DEFAULT_EMBED_NICENESS}; 0: normal priority)"
        ),
    )


def _embed_reporter(progress: Progress) -> Callable[[EmbedProgress], None]:
    def report(p: EmbedProgress) -> None:
        failed = f", {p.failed} failed" if p.failed else ""
        progress.update(f"embedding: {p.done}/{p.total} chunks{failed}")

    return report


def _summary(result: EmbedResult) -> str:
    rate = f" ({result.chunks_per_second:.1f} chunks/s)" if result.chunks_per_second else ""
    text = (
        f"Embedded {result.embedded} chunks with {result.model} in "
        f"{result.duration_ms / 1000:.2f}s{rate}; {result.pending} pending"
    )
    if result.errors:
        text += f"; {result.errors} failed"
    return text


def _failures(result: EmbedResult) -> int:
    """Print what failed (stderr); the exit code of the run."""
    if not result.errors:
        return 0
    import sys

    for f in result.failures:
        print(f"  ! {f.chunks} chunks: {f.code} {f.message}", file=sys.stderr)
    print(
        f"Error: {result.errors} chunks failed to embed; they stay pending (run gno embed again)",
        file=sys.stderr,
    )
    return PARTIAL_FAILURE_EXIT


def run_embed(ctx: Context) -> int:
    if ctx.args.batch_size < 1:
        from gno_core.errors import ValidationError

        raise ValidationError("--batch-size must be at least 1")
    progress = Progress(enabled=not ctx.quiet)
    if not ctx.args.dry_run:
        from gno_cli.priority import lower_priority

        lower_priority(ctx.args.nice)
    result = ctx.gno.embed(
        collections_of(ctx.args),
        batch_size=ctx.args.batch_size,
        force=ctx.args.force,
        dry_run=ctx.args.dry_run,
        progress=_embed_reporter(progress),
    )
    progress.done()
    if ctx.json:
        emit_json(result)
    elif result.dry_run:
        emit(f"{result.pending} chunks would be embedded with {result.model}")
    else:
        emit(_summary(result))
    return _failures(result)


def run_index(ctx: Context) -> int:
    if ctx.args.batch_size < 1:
        from gno_core.errors import ValidationError

        raise ValidationError("--batch-size must be at least 1")
    progress = Progress(enabled=not ctx.quiet)

    def sync_report(p: SyncProgress) -> None:
        progress.update(f"{p.collection}: {p.done}/{p.total} files ({p.path})")

    report = _embed_reporter(progress)
    lowered: list[bool] = []

    def embed_report(p: EmbedProgress) -> None:
        # The sync ran (holding the lease) at normal priority; the embedding yields the CPU.
        if not lowered:
            from gno_cli.priority import lower_priority

            lower_priority(ctx.args.nice)
            lowered.append(True)
        report(p)

    result = ctx.gno.index(
        collections_of(ctx.args),
        embed=not ctx.args.no_embed,
        batch_size=ctx.args.batch_size,
        sync_progress=sync_report,
        embed_progress=embed_report,
    )
    progress.done()
    if ctx.json:
        emit_json(result)
    else:
        s = result.sync_result
        emit(f"Synced: {totals(s)}")
        emit_recovered(s)
        if result.embed_result is not None:
            emit(_summary(result.embed_result))
        else:
            emit(f"Embedding skipped: {result.embed_skip_reason}")
    return _failures(result.embed_result) if result.embed_result is not None else 0
