"""``gno impact`` (what depends on a document)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.options import add_request_options, defer, validated
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    i = sub.add_parser(
        "impact", help="what depends on a document: inbound links and typed edges, with paths"
    )
    defer(i, _impact_options)
    i.set_defaults(handler=run_impact)


def _impact_options(i: argparse.ArgumentParser) -> None:
    from gno_core.contracts.integrity_requests import ImpactRequest

    add_request_options(i, ImpactRequest)


def run_impact(ctx: Context) -> int:
    from gno_core.contracts.integrity_requests import ImpactRequest
    from gno_core.integrity.text import impact_lines

    req = validated(ctx.args, ImpactRequest)
    res = ctx.gno.impact(req)
    if ctx.json:
        emit_json(res)
        return 0
    for line in impact_lines(res, cli=True):
        emit(line)
    return 0
