"""``gno rename``, ``gno mv`` and ``gno duplicate``: move a note (or copy it) and rewrite every
link to it. The plan is shown first as a diff of every line that changes; it is applied with
``--yes``, or after a "y" at the prompt on a terminal (the same preview and apply as MCP
``gno_rename_note`` / ``gno_move_note`` / ``gno_duplicate_note``). Exit 0 when applied (or only
previewed), 1 when the plan is blocked, stale or in conflict, 2 when the commit failed."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts.refactors import RefactorApplyResult, RefactorPreview

_EXIT = {
    "applied": 0,
    "applied_with_sync_pending": 0,
    "stale_plan": 1,
    "conflict": 1,
    "unsupported": 1,
    "failed_rolled_back": 2,
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rename = sub.add_parser("rename", help="rename a note in its folder, rewriting links to it")
    rename.add_argument("ref", help="the note (gno:// URI, collection/path or #docid)")
    rename.add_argument("name", help="its new file name (the extension is kept when omitted)")
    move = sub.add_parser("mv", help="move a note to another folder, rewriting links to it")
    move.add_argument("ref", help="the note (gno:// URI, collection/path or #docid)")
    move.add_argument("folder", help="destination folder in the same collection ('' = root)")
    move.add_argument("--name", help="a new file name as well")
    copy = sub.add_parser("duplicate", help="copy a note (its relative links recalculated)")
    copy.add_argument("ref", help="the note (gno:// URI, collection/path or #docid)")
    copy.add_argument("--folder", help="destination folder (default: the note's own)")
    copy.add_argument("--name", help="file name of the copy (default <name>-copy)")
    for parser, operation in ((rename, "rename"), (move, "move"), (copy, "duplicate")):
        parser.add_argument("-y", "--yes", action="store_true", help="apply without asking")
        parser.set_defaults(handler=run_refactor, operation=operation)


def _request(args: argparse.Namespace) -> Any:
    from gno_core.contracts.refactors import (
        DuplicateNoteRequest,
        MoveNoteRequest,
        RenameNoteRequest,
    )

    if args.operation == "rename":
        return RenameNoteRequest(ref=args.ref, name=args.name)
    if args.operation == "move":
        return MoveNoteRequest(ref=args.ref, folder_path=args.folder, name=args.name)
    return DuplicateNoteRequest(ref=args.ref, folder_path=args.folder, name=args.name)


def render_plan(preview: RefactorPreview, diff: list[str]) -> str:
    s = preview.safety
    lines = [
        f"{preview.operation}: {preview.source.collection}/{preview.source.rel_path} -> "
        f"{preview.target.collection}/{preview.target.rel_path}",
        f"{s.references_examined} references examined: {s.rewrites} to rewrite, "
        f"{s.unchanged} unchanged, {s.blocked} blocked; {s.files_written} files to write",
        f"plan digest: {preview.plan_digest}",
    ]
    for ref in preview.examined_references:
        if ref.classification not in ("rewriteable", "unchanged"):
            lines.append(
                f"  {ref.classification}: {ref.collection}/{ref.source_rel_path}:{ref.line}:"
                f"{ref.column} ({ref.reason_code})"
            )
    lines += [f"  warning: {w}" for w in s.warnings]
    if s.blockers:
        lines.append(f"blocked: {', '.join(s.blockers)}")
    return "\n".join(lines + diff)


def _confirmed(ctx: Context) -> bool:
    if ctx.args.yes:
        return True
    if not sys.stdin.isatty():
        return False
    sys.stderr.write("Apply this plan? [y/N] ")
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def run_refactor(ctx: Context) -> int:
    operation = ctx.args.operation
    request = _request(ctx.args)
    preview, diff = ctx.gno.refactors.preview_with_diff(operation, request)
    if not (ctx.json and ctx.args.yes):
        if ctx.json:
            emit_json(preview)
        else:
            emit(render_plan(preview, diff))
    if not preview.can_apply:
        return 1
    if not _confirmed(ctx):
        if not ctx.json and not ctx.quiet:
            emit("Not applied (run again with --yes to apply).", sys.stderr)
        return 0
    if operation != "duplicate":
        request = request.model_copy(
            update={
                "action": "apply",
                "schema_version": "1.0",
                "plan_digest": preview.plan_digest,
                "confirmation": "apply",
                "confirm": True,
            }
        )
    result = ctx.gno.refactors.apply(operation, request)
    return _report(ctx, result)


def _report(ctx: Context, result: RefactorApplyResult) -> int:
    if ctx.json:
        emit_json(result)
    else:
        text = f"{result.status}: {result.source.uri} -> {result.target.uri}"
        if result.reason_code:
            text += f" ({result.reason_code})"
        if result.message:
            text += f"\n{result.message}"
        if result.index_convergence.recovery_instruction:
            text += f"\n{result.index_convergence.recovery_instruction}"
        emit(text)
    return _EXIT[result.status]
