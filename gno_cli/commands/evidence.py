"""``gno context`` (compile a Context Capsule) and ``gno context verify FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from gno_cli.options import add_request_options, defer, request_values
from gno_cli.output import emit, emit_json, note_trace

if TYPE_CHECKING:
    from gno_cli.context import Context


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "context",
        help="compile a Context Capsule: exact evidence for a goal under a token budget "
        "(`gno context verify FILE` re-checks a saved one)",
    )
    defer(p, _context_options)
    p.set_defaults(handler=run_context)

    a = sub.add_parser(
        "ask", help="answer a question with verified citations from a Context Capsule (or abstain)"
    )
    defer(a, _ask_options)
    a.set_defaults(handler=run_ask)

    s = sub.add_parser("section", help="durable section targets: create ... | resolve ...")
    s.add_argument("action", choices=["create", "resolve"])
    s.add_argument("ref", help="gno:// URI, collection/path or #docid")
    s.add_argument("--anchor", help="heading text or slug (create)")
    s.add_argument("--line", type=int, help="1-based heading line (create)")
    s.add_argument(
        "--target",
        help="file holding the target to resolve, or what `section create --json` printed "
        "(- for stdin)",
    )
    s.set_defaults(handler=run_section)


def _context_options(p: argparse.ArgumentParser) -> None:
    from gno_core.contracts.evidence_requests import ContextRequest

    p.add_argument("goal", nargs="+", help="what the evidence is for (or: verify FILE)")
    p.add_argument(
        "--budget", dest="budget_tokens", type=int, help="token budget of the whole capsule"
    )
    add_request_options(p, ContextRequest, skip=("goal", "budget_tokens"))
    p.add_argument("--output", "-o", help="write the capsule JSON to this file")


def run_context(ctx: Context) -> int:
    from gno_cli.options import query_modes
    from gno_core.contracts.evidence_requests import ContextRequest

    words = list(ctx.args.goal)
    if words[0] == "verify" and len(words) == 2:
        return _verify(ctx, words[1])
    values = request_values(ctx.args, ContextRequest)
    values["goal"] = " ".join(words)
    if "budget_tokens" not in values:
        from gno_core.errors import ValidationError

        raise ValidationError("gno context needs --budget TOKENS (e.g. --budget 12000)")
    values["query_modes"] = query_modes(values.get("query_modes", []))
    request = ContextRequest.model_validate(values)
    capsule = ctx.gno.context(request).wire()
    note_trace(ctx.gno.trace_capsule("gno context", request, capsule))
    note = _gap_note(ctx, capsule)
    if note:
        print(note, file=sys.stderr)
    if ctx.args.output:
        with open(ctx.args.output, "w", encoding="utf-8") as out:
            out.write(json.dumps(capsule, ensure_ascii=False, indent=2) + "\n")
    if ctx.json or request.format == "json":
        if not ctx.args.output:
            emit_json(capsule)
        return 0
    from gno_core.evidence.projection import markdown

    emit(markdown(capsule))
    return 0


def _gap_note(ctx: Context, capsule: dict[str, Any]) -> str | None:
    """The note on what search by meaning missed, when the capsule (or Ask result) carries the
    ``embedding_coverage_incomplete`` warning: stderr beside the text output, never in JSON."""
    from gno_core.retrieval.coverage import capsule_gap, capsule_note

    if ctx.json or not capsule_gap(capsule):
        return None
    inner = capsule.get("verification", {}).get("capsule", capsule)
    return capsule_note(ctx.gno.vector_gap_message(inner["scope"]["collections"] or None))


def _verify(ctx: Context, path: str) -> int:
    """``gno context verify FILE`` (``-``: standard input). A stale capsule is a successful
    verification: the receipt says so, the exit code stays 0."""
    capsule = _read_capsule(path)
    receipt = ctx.gno.context_verify(capsule).wire()
    if ctx.json or ctx.args.format == "json":
        emit_json(receipt)
    else:
        counts = receipt["counts"]
        emit(
            f"Capsule {receipt['capsuleId'][:16]}: {receipt['status']} "
            f"({counts['unchanged']} unchanged, {counts['stale']} stale, "
            f"{counts['missing']} missing)"
        )
        for item in receipt["evidence"]:
            if item["contentStatus"] != "unchanged":
                emit(
                    f"  {item['contentStatus']}: {item['uri']}:{item['startLine']}-"
                    f"{item['endLine']} ({item['reason']})"
                )
        emit(f"Ranking: {receipt['rankingStatus']} ({receipt['rankingReason']})")
        drift = ", ".join(d["name"] for d in receipt["drift"]) or "none"
        emit(f"Fingerprints: {receipt['fingerprintStatus']} (drift: {drift})")
    return 0


def _read_capsule(path: str) -> Any:
    from gno_core.errors import ValidationError

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise ValidationError(f"Cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValidationError(f"{path} is not JSON: {exc}") from None


def run_section(ctx: Context) -> int:
    from gno_core.contracts.evidence_requests import SectionRequest

    args = ctx.args
    values: dict[str, Any] = {"action": args.action, "ref": args.ref}
    if args.anchor is not None:
        values["anchor"] = args.anchor
    if args.line is not None:
        values["line"] = args.line
    if args.target is not None:
        values["target"] = _created_target(_read_capsule(args.target))
    result = ctx.gno.section(SectionRequest.model_validate(values)).wire()
    if ctx.json or result["action"] == "create":
        emit_json(result)
        return 0
    citation = result.get("citation")
    if citation is None:
        emit(f"{result['status']}: not safe to navigate or cite ({result['uri']})")
        return 0
    emit(
        f"{result['status']}: {citation['uri']}:{citation['lineStart']}-{citation['lineEnd']} "
        f"{citation['title']}"
    )
    return 0


def _created_target(given: Any) -> Any:
    """What ``--target`` names: the target itself, or what ``section create --json`` printed
    (``{"action": "create", "uri": ..., "target": {...}}``), whose target is taken."""
    if isinstance(given, dict) and given.get("action") == "create" and "target" in given:
        return given["target"]
    return given


def run_diagnose(ctx: Context, target: str) -> int:
    from gno_cli.commands.search import retrieval_values
    from gno_cli.options import query_modes
    from gno_core.contracts.evidence_requests import DiagnoseRequest
    from gno_core.contracts.requests import QueryRequest

    values = retrieval_values(ctx.args, QueryRequest)
    values["query_modes"] = query_modes(values.get("query_modes", []))
    values["target"] = target
    result = ctx.gno.query_diagnose(DiagnoseRequest.model_validate(values)).wire()
    if ctx.json:
        emit_json(result)
        return 0
    target_info = result["target"]
    emit(f"{target_info.get('uri') or target_info['ref']}: {target_info['status']}")
    for reason in target_info.get("filterReasons") or []:
        emit(f"  filtered out: {reason}")
    for stage in result["stages"]:
        emit(f"  {stage['id']:<7} {stage['status']:<8} {stage['reason']}")
    emit(result["summary"])
    return 0


def _ask_options(p: argparse.ArgumentParser) -> None:
    from gno_core.contracts.evidence_requests import AskRequest

    add_request_options(p, AskRequest)


def run_ask(ctx: Context) -> int:
    from gno_cli.options import query_modes
    from gno_core.contracts.evidence_requests import AskRequest
    from gno_core.evidence.projection import render_ask

    values = request_values(ctx.args, AskRequest)
    values["query_modes"] = query_modes(values.get("query_modes", []))
    values["verify"] = True
    request = AskRequest.model_validate(values)
    result = ctx.gno.ask(request).wire()
    note_trace(ctx.gno.trace_capsule("gno ask", request, result))
    if ctx.json:
        emit_json(result)
    else:
        emit(render_ask(result))
        note = _gap_note(ctx, result)
        if note:
            print(note, file=sys.stderr)
    return 0
