"""``gno trace list|show|label|delete|purge``: the private retrieval traces recorded when
``retrievalTraces.enabled`` (``gno_core.traces``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_cli.options import add_request_options, defer, validated
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from pydantic import BaseModel

    from gno_cli.context import Context

REQUESTS = {
    "list": "TraceListRequest",
    "show": "TraceShowRequest",
    "label": "TraceLabelRequest",
    "delete": "TraceDeleteRequest",
    "purge": "TracePurgeRequest",
    "export": "TraceExportRequest",
    "replay": "TraceReplayRequest",
}
HELP = {
    "list": "trace summaries, newest first (no query text)",
    "show": "one trace: runs, events (ids to label), judgments, exports",
    "label": "judge an event relevant/irrelevant, or name a missing_expected document",
    "delete": "delete one trace and what it owns",
    "purge": "delete every trace (needs --yes)",
    "export": "export finished traces: agentic-receipt or qrels (egress policy checked first)",
    "replay": "run judged traces again with bm25|vector|hybrid: improved/unchanged/regressed",
}


def _model(action: str) -> type[BaseModel]:
    from gno_core.contracts import trace_requests

    model: type[BaseModel] = getattr(trace_requests, REQUESTS[action])
    return model


def _options(action: str) -> Callable[[argparse.ArgumentParser], None]:
    def populate(p: argparse.ArgumentParser) -> None:
        add_request_options(p, _model(action))

    return populate


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    t = sub.add_parser("trace", help="private retrieval traces: list, show, label, delete, purge")
    tsub = t.add_subparsers(dest="trace_command", required=True, metavar="COMMAND")
    for action in REQUESTS:
        p = tsub.add_parser(action, help=HELP[action])
        defer(p, _options(action))
        p.set_defaults(handler=run_trace, trace_action=action)


def run_trace(ctx: Context) -> int:
    from gno_core.traces.views import render_list, render_replay, render_show

    action = ctx.args.trace_action
    ids = getattr(ctx.args, "trace_ids", None)
    if isinstance(ids, str):  # the positional list: comma separated
        ctx.args.trace_ids = [t.strip() for t in ids.split(",") if t.strip()]
    request = validated(ctx.args, _model(action))
    res = getattr(ctx.gno, f"trace_{action}")(request)
    if ctx.json:
        emit_json(res)
    elif action == "list":
        emit(render_list(res.wire()))
    elif action == "show":
        emit(render_show(res))
    elif action == "export":
        emit(res.content)
    elif action == "replay":
        emit(render_replay(res))
    else:
        emit_json(res)
    return 0
