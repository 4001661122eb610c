"""``gno collection policy get|set|check`` (a collection's egress policy and a decision
explained) and ``gno egress-audit list|show|status|delete|purge`` (the content-free receipts of
decisions). ``--json`` prints the egress contracts (``collection-egress-policy@1.0``,
``-policy-set@1.0``, ``collection-egress-check@1.0``, ``egress-audit-management@1.0``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from gno_cli.output import emit, emit_json
from gno_core.egress.values import ACTIONS, CONTENT_CLASSES, KNOWN_ZONES, POLICIES
from gno_core.egress.values import ZONES as ALL_ZONES
from gno_core.errors import EgressRelaxationConfirmationError, ValidationError

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts.egress import EgressAuditManagement, EgressReceipt

#: The zones a check may name: every one but ``unknown`` (what the peer classifier answers).
ZONES = tuple(z for z in ALL_ZONES if z in KNOWN_ZONES)
#: ``gno collection policy check`` when the decision denies (a script can branch on it).
DENIED = 1


def register_policy(csub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``gno collection policy ...``, under ``gno collection``."""
    pol = csub.add_parser("policy", help="a collection's egress policy: where its content may go")
    psub = pol.add_subparsers(dest="policy_command", required=True, metavar="COMMAND")
    get = psub.add_parser("get", help="the configured and effective policy, source, revision")
    get.add_argument("name", help="collection name")
    get.set_defaults(handler=run_policy_get)
    put = psub.add_parser(
        "set",
        help="tighten at once; relax with --current-policy and --confirm-relaxation",
        description="Tightening (to a stricter policy) applies at once. Relaxing needs the "
        "collection's current policy and revision from `gno collection policy get`, once: "
        "every change consumes the revision.",
    )
    put.add_argument("name", help="collection name")
    put.add_argument("policy", choices=POLICIES, help="the target policy")
    put.add_argument(
        "--confirm-relaxation",
        type=int,
        metavar="REVISION",
        help="confirm a relaxation: the collection's current revision (good once)",
    )
    put.add_argument(
        "--current-policy",
        choices=POLICIES,
        help="with --confirm-relaxation: the collection's current effective policy",
    )
    put.set_defaults(handler=run_policy_set)
    check = psub.add_parser(
        "check",
        help="explain the decision for content going somewhere (does nothing); exit 1 if denied",
    )
    check.add_argument(
        "collections", nargs="*", metavar="COLLECTION", help="the scope (default: all)"
    )
    check.add_argument("--action", choices=ACTIONS, default="serve", help="default: serve")
    check.add_argument("--zone", choices=ZONES, default="lan", help="destination; default: lan")
    check.add_argument(
        "--content-class", choices=CONTENT_CLASSES, default="snippet", help="default: snippet"
    )
    check.add_argument(
        "--authenticated", action="store_true", help="the caller is authenticated (a bearer)"
    )
    check.add_argument(
        "--not-authorized",
        action="store_true",
        help="the caller is not authorised for the operation apart from policy",
    )
    check.add_argument(
        "--partial",
        choices=("deny", "explicit"),
        default="deny",
        help="explicit: omit the collections that may not go instead of denying all",
    )
    check.set_defaults(handler=run_policy_check)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = sub.add_parser(
        "egress-audit", help="the content-free receipts of egress decisions (list, delete ...)"
    )
    asub = audit.add_subparsers(dest="audit_command", required=True, metavar="COMMAND")
    ls = asub.add_parser("list", help="receipts, newest first")
    ls.add_argument("--limit", type=int, default=100, help="per page, 1-1000 (default 100)")
    ls.add_argument("--cursor", help="the next cursor a page printed")
    ls.set_defaults(handler=run_audit_list)
    show = asub.add_parser("show", help="one receipt")
    show.add_argument("audit_id", metavar="AUDIT_ID")
    show.set_defaults(handler=run_audit_show)
    status = asub.add_parser("status", help="receipts held and their retention")
    status.set_defaults(handler=run_audit_status)
    delete = asub.add_parser("delete", help="delete exactly one receipt")
    delete.add_argument("audit_id", metavar="AUDIT_ID")
    delete.set_defaults(handler=run_audit_delete)
    purge = asub.add_parser("purge", help="delete every receipt (never a policy); needs --confirm")
    purge.add_argument("--confirm", action="store_true", help="yes, delete every receipt")
    purge.set_defaults(handler=run_audit_purge)


def run_policy_get(ctx: Context) -> int:
    state = ctx.gno.egress_policy_get(ctx.args.name)
    if ctx.json:
        emit_json(state)
        return 0
    configured = state.configured_policy or "none (the default applies)"
    emit(f"{state.collection}: {state.effective_policy}")
    emit(f"  source: {state.source}; configured: {configured}; revision: {state.revision}")
    return 0


def run_policy_set(ctx: Context) -> int:
    from gno_core.contracts.egress_requests import RelaxationConfirmationInput

    args = ctx.args
    confirmation = None
    if args.confirm_relaxation is not None:
        if args.current_policy is None:
            raise ValidationError(
                "--confirm-relaxation needs --current-policy (gno collection policy get)",
                details={"field": "current_policy"},
            )
        confirmation = RelaxationConfirmationInput(
            collection=args.name,
            current_policy=args.current_policy,
            current_revision=args.confirm_relaxation,
            target_policy=args.policy,
            acknowledged=True,
        )
    try:
        res = ctx.gno.egress_policy_set(args.name, args.policy, confirmation)
    except EgressRelaxationConfirmationError as exc:
        if not ctx.json:
            d = exc.details
            emit(
                f"To relax it, confirm its current state (good once): gno collection policy set "
                f"{d.get('collection')} {d.get('targetPolicy')} --current-policy "
                f"{d.get('currentPolicy')} --confirm-relaxation {d.get('currentRevision')}",
                sys.stderr,
            )
        raise
    if ctx.json:
        emit_json(res)
        return 0
    emit(
        f"{res.current.collection}: {res.change} ({res.previous.effective_policy} -> "
        f"{res.current.effective_policy}, revision {res.previous.revision} -> "
        f"{res.current.revision})"
    )
    if res.invalidation is not None and not ctx.quiet:
        emit(f"  authorization epoch {res.invalidation.policy_epoch}: earlier work must retry")
    return 0


def run_policy_check(ctx: Context) -> int:
    args = ctx.args
    res = ctx.gno.egress_check(
        collections=list(args.collections) or None,
        action=args.action,
        zone=args.zone,
        content_class=args.content_class,
        authenticated=args.authenticated,
        authorized=not args.not_authorized,
        partial=args.partial,
    )
    if ctx.json:
        emit_json(res)
    else:
        d = res.decision
        emit(f"{res.mode}: {d.code} ({d.reason})")
        if res.allowed_collections:
            emit("  may go: " + ", ".join(res.allowed_collections))
        for o in res.omitted_collections:
            emit(f"  omitted: {o.collection} ({o.reason})")
        if res.remediation is not None:
            emit(f"  remediation: {res.remediation.message}")
    return 0 if res.mode != "denied" else DENIED


def _receipt(r: EgressReceipt) -> str:
    omitted = "".join(f", omitted {o.collection} ({o.reason})" for o in r.omitted_collections)
    return (
        f"{r.audit_id}  {r.created_at}  {r.decision:<5} {r.action} -> {r.destination_zone} "
        f"{r.content_class}  {r.reason_code}  [{', '.join(r.collections) or '-'}]{omitted}"
    )


def _audit_out(ctx: Context, res: EgressAuditManagement) -> int:
    if ctx.json:
        emit_json(res)
        return 0
    if res.operation == "list":
        for r in res.receipts or []:
            emit(_receipt(r))
        count = len(res.receipts or [])
        emit(f"{count} receipt{'s' if count != 1 else ''}")
        if res.next_cursor is not None:
            emit(f"more: gno egress-audit list --cursor {res.next_cursor}")
    elif res.operation == "show" and res.receipt is not None:
        r = res.receipt
        emit(_receipt(r))
        emit(f"  mode: {r.mode}; effective policy: {r.effective_policy}; expires {r.expires_at}")
        if r.operation is not None:
            emit(f"  operation: {r.operation}")
        if r.lineage_digest is not None:
            emit(f"  lineage digest: {r.lineage_digest}")
    elif res.operation == "status" and res.status is not None:
        s = res.status
        emit(f"{s.receipts} receipts, {s.bytes} bytes")
        emit(f"  oldest: {s.oldest_created_at or '-'}; newest: {s.newest_created_at or '-'}")
        emit(
            f"  retention: {s.retention.max_age_days} days, {s.retention.max_receipts} "
            f"receipts, {s.retention.max_bytes} bytes"
        )
    else:
        emit(f"deleted {res.deleted} receipt{'s' if res.deleted != 1 else ''}")
    return 0


def run_audit_list(ctx: Context) -> int:
    return _audit_out(ctx, ctx.gno.egress_audit_list(ctx.args.limit, ctx.args.cursor))


def run_audit_show(ctx: Context) -> int:
    return _audit_out(ctx, ctx.gno.egress_audit_show(ctx.args.audit_id))


def run_audit_status(ctx: Context) -> int:
    return _audit_out(ctx, ctx.gno.egress_audit_status())


def run_audit_delete(ctx: Context) -> int:
    return _audit_out(ctx, ctx.gno.egress_audit_delete(ctx.args.audit_id))


def run_audit_purge(ctx: Context) -> int:
    if not ctx.args.confirm:
        raise ValidationError(
            "gno egress-audit purge deletes every egress receipt: add --confirm",
            details={"field": "confirm"},
        )
    return _audit_out(ctx, ctx.gno.egress_audit_purge(True))
