"""``gno remember`` (store one fact, or supersede one) and ``gno recall`` (current facts of a
memory collection within a budget).

Identity: ``--caller`` / ``$GNO_MEMORY_CALLER`` / ``cli:<user>`` and ``--session`` /
``$GNO_MEMORY_SESSION`` / ``ppid:<parent pid>`` (a shell's commands share one session).
"""

from __future__ import annotations

import argparse
import getpass
import os
from typing import TYPE_CHECKING

from gno_cli.options import add_request_options, defer, request_values
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.facts import MemoryIdentity


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    m = sub.add_parser("remember", help="store one fact in a memory collection (or supersede one)")
    defer(m, _remember_options)
    m.set_defaults(handler=run_remember)
    r = sub.add_parser("recall", help="current facts of a memory collection, within a budget")
    defer(r, _recall_options)
    r.set_defaults(handler=run_recall)


def _identity_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--caller", help="who is asking (default $GNO_MEMORY_CALLER or cli:<user>)")
    p.add_argument("--session", help="session (default $GNO_MEMORY_SESSION or ppid:<pid>)")


def _recall_options(p: argparse.ArgumentParser) -> None:
    from gno_core.contracts.memory_requests import RecallRequest

    p.add_argument("query", help="what you need to know, phrased as the fact would be stated")
    add_request_options(p, RecallRequest)
    _identity_options(p)


def _remember_options(p: argparse.ArgumentParser) -> None:
    from gno_core.contracts.memory_requests import RememberRequest

    p.add_argument("text", help="one fact, stated in full")
    add_request_options(p, RememberRequest)
    decide = p.add_mutually_exclusive_group()
    decide.add_argument("--add", action="store_true", help="store it (after seeing candidates)")
    decide.add_argument("--supersede", metavar="URI", help="replace the current fact at URI")
    p.add_argument(
        "--receipt", metavar="FILE", help="the JSON of the recall (or its receipt) it derives from"
    )
    _identity_options(p)


def identity(args: argparse.Namespace) -> MemoryIdentity:
    from gno_core.facts import MemoryIdentity

    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry for this uid (containers)
        user = str(os.getuid())
    caller = args.caller or os.environ.get("GNO_MEMORY_CALLER") or f"cli:{user}"
    session = args.session or os.environ.get("GNO_MEMORY_SESSION") or f"ppid:{os.getppid()}"
    return MemoryIdentity(caller=caller.strip(), session=session.strip())


def run_recall(ctx: Context) -> int:
    from gno_core.contracts.memory_requests import RecallRequest

    values = {**request_values(ctx.args, RecallRequest), "query": ctx.args.query}
    result = ctx.gno.recall(RecallRequest.model_validate(values), identity(ctx.args))
    if ctx.json:
        emit_json(result)
        return 0
    if not result.facts:
        emit(result.hint or "No facts found.")
        return 0
    for fact in result.facts:
        emit(f"{fact.text}\n  {fact.uri}  [{', '.join(fact.scopes)}]  {fact.created_at}")
    budget = result.budget
    emit(
        f"({len(result.facts)} facts, {budget.used_tokens}/{budget.max_tokens} tokens, "
        f"{budget.omitted} omitted, {result.retrieval.mode}"
        + (
            f": {result.retrieval.semantic_unavailable}"
            if result.retrieval.semantic_unavailable
            else ""
        )
        + ")"
    )
    return 0


def run_remember(ctx: Context) -> int:
    from gno_core.contracts.memory_requests import RememberRequest

    a = ctx.args
    values = {**request_values(a, RememberRequest), "text": a.text}
    if a.add:
        values["decision"] = "add"
    elif a.supersede:
        values.update(decision="supersede", predecessor_uri=a.supersede)
    if a.receipt:
        values["receipt"] = _read_receipt(a.receipt)
    result = ctx.gno.remember(RememberRequest.model_validate(values), identity(a))
    if ctx.json:
        emit_json(result)
        return 0
    if result.outcome == "candidates":
        found = result.candidates or []
        emit(f"{len(found)} similar fact(s) in these scopes; nothing written.")
        for c in found:
            emit(f"  [{c.match} {c.similarity:.2f}] {c.text}\n    {c.uri}  {c.content_hash}")
        emit("Store it with --add, or replace one with --supersede URI --predecessor-hash HASH")
        return 0
    record = result.record
    where = record.uri if record is not None else ""
    emit(f"{result.outcome}: {where}" + (f"\n  {result.abs_path}" if result.abs_path else ""))
    return 0


def _read_receipt(path: str) -> object:
    """The receipt in ``path``: a recall's whole JSON answer or the receipt alone."""
    import json

    from gno_core.errors import ValidationError

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        raise ValidationError(f"Cannot read the receipt {path}: {exc}") from exc
    if isinstance(data, dict) and isinstance(data.get("receipt"), dict):
        return data["receipt"]
    return data
