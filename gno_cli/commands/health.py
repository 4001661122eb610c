"""``gno status``, ``gno peek`` and ``gno tags``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.options import OneCollection
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub.add_parser("status", help="index health, counts and recent errors").set_defaults(
        handler=run_status
    )
    sub.add_parser("peek", help="cheap model-free snapshot").set_defaults(handler=run_peek)
    t = sub.add_parser("tags", help="list tags with document counts")
    t.add_argument("action", nargs="?", choices=["list"], default="list")
    t.add_argument("-c", "--collection", action=OneCollection, help="only this collection")
    t.add_argument("--prefix", help="only tags starting with this (e.g. work/)")
    t.add_argument(
        "--sort",
        choices=["count", "name"],
        default="count",
        help="most used first (default), or by name",
    )
    t.set_defaults(handler=run_tags)


def run_status(ctx: Context) -> int:
    from gno_core.health import capabilities_line

    s = ctx.gno.status()
    if ctx.json:
        emit_json(s)
        return 0
    emit(f"Index: {s.index_name}\nConfig: {s.config_path}\nDatabase: {s.db_path}")
    emit(
        f"Documents: {s.total_documents}  Chunks: {s.total_chunks}  Embedding backlog: {s.embedding_backlog}"
    )
    emit(f"Lexical tokenizer: {s.fts_tokenizer}")
    for c in s.collections:
        extra = f", {c.failed_count} failed" if c.failed_count else ""
        if c.overlaps:
            extra += f", root overlaps {', '.join(c.overlaps)}: remove one of them"
        emit(f"  {c.name}: {c.document_count} docs, {c.chunk_count} chunks{extra}  ({c.path})")
    if not s.collections:
        emit("No collections yet: gno collection add <folder>")
    if s.links is not None:
        k = s.links
        types = ", ".join(f"{name} {n}" for name, n in k.edge_types.items()) or "none"
        emit(
            f"Links: {k.total} ({k.resolved} resolved, {k.ambiguous} ambiguous, "
            f"{k.unresolved} unresolved, {k.external} external)  Edge types: {types}"
        )
        failed = sum(c.failed_count for c in s.collections)
        if failed:
            # Their links are not in the index: a link there may be broken unseen.
            emit(f"  (the links of {failed} files that failed to index are not counted)")
    if s.memory is not None:
        m = s.memory
        emit(
            f"Memory: {m.current_facts} current facts, {m.superseded_facts} superseded, "
            f"{m.invalid_facts} invalid  ({', '.join(m.collections)})"
        )
        for d in m.diagnostics:
            emit(f"  {d.collection}/{d.rel_path}: {d.code} {d.message}")
    if s.recent_errors:
        emit("Recent errors:")
        for e in s.recent_errors:
            emit(f"  {e.collection}/{e.rel_path}: {e.code} {e.message}")
    emit(f"Last updated: {s.last_updated or 'never'}  Healthy: {'yes' if s.healthy else 'no'}")
    emit(capabilities_line(s.capabilities))
    return 0


def run_peek(ctx: Context) -> int:
    p = ctx.gno.peek()
    if ctx.json:
        emit_json(p)
        return 0
    emit(f"schema: {p.schema_version}\ninitialized: {'yes' if p.initialized else 'no'}")
    if p.counts:
        emit(f"documents: {p.counts.documents}\ncollections: {p.counts.collections}")
    if p.backlog:
        emit(f"backlog: {p.backlog.pending} pending, {p.backlog.failed} failed")
    if p.last_indexed_at:
        emit(f"last indexed: {p.last_indexed_at}")
    emit(f"serve: {p.serve.url or 'not running'}")
    for r in p.recent:
        emit(f"  {r.uri}{'  ' + r.title if r.title else ''}")
    return 0


def run_tags(ctx: Context) -> int:
    tags = ctx.gno.tags(ctx.args.collection, ctx.args.prefix)
    if ctx.args.sort == "name":
        tags.tags.sort(key=lambda t: t.tag)
    if ctx.json:
        emit_json(tags)
        return 0
    if not tags.tags:
        emit("No tags.")
    for t in tags.tags:
        emit(f"{t.tag} ({t.count})")
    return 0
