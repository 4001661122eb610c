"""``gno impact`` (what depends on a document) and ``gno audit`` (is the knowledge base
sound: exit 0 clean, 4 findings, 5 partial; Ctrl-C stops it with the partial report, exit 5)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    a = sub.add_parser(
        "audit", help="read-only audit of links, provenance and freshness (exit 4: findings)"
    )
    defer(a, _audit_options)
    a.set_defaults(handler=run_audit)


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


def _audit_options(a: argparse.ArgumentParser) -> None:
    from gno_core.contracts.integrity_requests import AuditRequest

    a.add_argument(
        "category",
        nargs="?",
        choices=("links", "provenance", "freshness", "all"),
        help="rule group to run (default: all)",
    )
    add_request_options(a, AuditRequest)
    a.add_argument("-o", "--output", metavar="FILE", help="also write the JSON report to FILE")


def run_audit(ctx: Context) -> int:
    from gno_cli.exit_codes import AUDIT_FINDINGS, AUDIT_PARTIAL
    from gno_core.contracts.integrity_requests import AuditRequest
    from gno_core.integrity.text import audit_lines

    req = validated(ctx.args, AuditRequest)
    with _ctrl_c_stops() as interrupted:
        report = ctx.gno.audit(req, cancelled=interrupted)
    if interrupted() and any(r.reason == "cancelled" for r in report.rules):
        emit("Interrupted: the audit stopped; the report below is partial", sys.stderr)
    output = getattr(ctx.args, "output", None)
    if output:
        _write_report(output, report.wire())
    if ctx.json:
        emit_json(report)
    else:
        for line in audit_lines(report):
            emit(line)
    if report.status == "failed":
        return 2
    if report.status != "complete":
        return AUDIT_PARTIAL
    return AUDIT_FINDINGS if any(r.status == "fail" for r in report.rules) else 0


@contextmanager
def _ctrl_c_stops() -> Iterator[Callable[[], bool]]:
    """While the audit runs, Ctrl-C asks it to stop (at the next source or document) instead
    of killing it: the rules not finished come back ``inconclusive`` and the report is printed,
    ``partial``. The exit status is the report's (5), like any partial report: the printed
    report is the answer, and 5 says it is not a clean one. A second Ctrl-C exits at once (130,
    nothing printed)."""
    import signal

    from gno_cli.exit_codes import sigint_catchable

    asked: list[bool] = []

    def stop(signum: int, frame: object) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)

    if not sigint_catchable():
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, stop)
    try:
        yield lambda: bool(asked)
    finally:
        signal.signal(signal.SIGINT, previous)


def _write_report(path: str, payload: dict[str, object]) -> None:
    import json
    from pathlib import Path

    from gno_core.errors import RuntimeFailure

    try:
        Path(path).write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", "utf-8")
    except OSError as exc:
        raise RuntimeFailure(
            f"Cannot write {path}: {exc.strerror or exc}", details={"path": path}
        ) from exc
