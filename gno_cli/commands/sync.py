"""``gno update``: sync collections into the index (no embedding)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.options import add_collections, collections_of
from gno_cli.output import Progress, emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts import SyncResult
    from gno_core.indexing.sync import SyncProgress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("update", help="sync files into the index (added, changed, removed)")
    add_collections(p, "sync")
    p.add_argument(
        "--force",
        action="store_true",
        help="extract every file again, changed or not (unchanged chunks keep their vectors)",
    )
    p.set_defaults(handler=run_update)


def run_update(ctx: Context) -> int:
    progress = Progress(enabled=not ctx.quiet)

    def report(p: SyncProgress) -> None:
        progress.update(f"{p.collection}: {p.done}/{p.total} files  {p.path}")

    result = ctx.gno.sync(collections_of(ctx.args), report, force=ctx.args.force)
    progress.done()
    if ctx.json:
        emit_json(result)
        return 0
    for c in result.collections:
        back = f"{c.reactivated} reactivated, " if c.reactivated else ""
        emit(
            f"{c.collection}: {c.added} added, {c.updated} updated, {back}{c.unchanged} "
            f"unchanged, {c.removed} removed, {c.failed} failed ({c.duration_ms / 1000:.2f}s)"
        )
        for f in c.failures[:20]:
            emit(f"  ! {f.rel_path}: {f.code} {f.message}")
        if len(c.failures) > 20:
            emit(f"  ... and {len(c.failures) - 20} more (see gno status)")
    emit_recovered(result)
    emit(f"Total: {totals(result)}")
    return 0


def totals(result: SyncResult) -> str:
    """The run's counts in one line (reactivated only when some were)."""
    reactivated = sum(c.reactivated for c in result.collections)
    back = f"{reactivated} reactivated, " if reactivated else ""
    return (
        f"{result.total_added} added, {result.total_updated} updated, {back}"
        f"{result.total_unchanged} unchanged, {result.total_removed} removed, "
        f"{result.total_failed} failed in {result.duration_ms / 1000:.2f}s"
    )


def emit_recovered(result: SyncResult) -> None:
    """The files a refactor's crash recovery (run before the sync) kept as the user saved them."""
    for kept in result.recovered_edits or []:
        copy = f"; its version from before the refactor is {kept.conflict_copy}"
        emit(
            f"  ! kept {kept.collection}/{kept.rel_path} as you saved it: an interrupted "
            f"rename/move was rolled back{copy if kept.conflict_copy else ''}"
        )
