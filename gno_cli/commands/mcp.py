"""``gno mcp``: serve the index to agents over stdio (the protocol lives in gno_adapters.mcp),
and ``gno mcp install|uninstall|status``: gno's entry in the config of ten MCP clients."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from gno_core.errors import ValidationError

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts.clients import McpInstallResult
    from gno_core.surface import Facade

PROFILES = ("core", "full")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("mcp", help="run the MCP server over stdio")
    p.add_argument("--tool-profile", default="full", help="core or full (default: full)")
    p.add_argument("--enable-write", action="store_true", help="register write tools")
    p.set_defaults(handler=run_mcp)
    actions = p.add_subparsers(dest="mcp_action", metavar="ACTION", required=False)
    install = actions.add_parser("install", help="add gno to an MCP client's config")
    _target_options(install, default_target="claude-desktop")
    install.add_argument("-f", "--force", action="store_true", help="replace an existing entry")
    install.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    install.add_argument(
        "--enable-write", action="store_true", help="the entry registers write tools"
    )
    install.set_defaults(handler=run_install)
    uninstall = actions.add_parser("uninstall", help="remove gno from an MCP client's config")
    _target_options(uninstall, default_target="claude-desktop")
    uninstall.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    uninstall.set_defaults(handler=run_uninstall)
    status = actions.add_parser("status", help="where gno is configured, for every client")
    _target_options(status, default_target="all")
    status.set_defaults(handler=run_status)


def _target_options(p: argparse.ArgumentParser, *, default_target: str) -> None:
    p.add_argument(
        "-t", "--target", default=default_target, help=f"client (default: {default_target})"
    )
    p.add_argument("-s", "--scope", default=None, help="user or project (default: the target's)")


def run_mcp(ctx: Context) -> int:
    profile = ctx.args.tool_profile.strip().lower()
    if profile not in PROFILES:
        raise ValidationError(f"Unknown tool profile {ctx.args.tool_profile!r}: use core or full")
    enable_write = ctx.args.enable_write or os.environ.get("GNO_MCP_ENABLE_WRITE") == "1"
    from gno_adapters.mcp.stdio import serve_stdio

    index, config_path = ctx.args.index, ctx.args.config

    def facade() -> Facade:
        # Imported on the first tool call, not before the first answer: bootstrap pulls in
        # the storage and model adapters.
        from gno_adapters.bootstrap import open_gno

        return open_gno(index, config_path)

    return serve_stdio(facade, profile=profile, enable_write=enable_write)


def run_install(ctx: Context) -> int:
    from gno_adapters.client_setup import install, this_entry

    entry = this_entry(ctx.args.index, ctx.args.config, enable_write=ctx.args.enable_write)
    result = install(
        ctx.args.target, ctx.args.scope, entry, force=ctx.args.force, dry_run=ctx.args.dry_run
    )
    return _report(ctx, result)


def run_uninstall(ctx: Context) -> int:
    from gno_adapters.client_setup import uninstall

    return _report(ctx, uninstall(ctx.args.target, ctx.args.scope, dry_run=ctx.args.dry_run))


def _report(ctx: Context, result: McpInstallResult) -> int:
    from gno_cli.output import emit, emit_json

    if ctx.json:
        emit_json(result)
        return 0
    if result.dry_run and result.diff:
        emit(result.diff)
    verb = {
        "installed": "would install" if result.dry_run else "installed",
        "updated": "would replace" if result.dry_run else "replaced",
        "unchanged": "already installed, unchanged",
        "removed": "would remove" if result.dry_run else "removed",
        "not_installed": "not installed, nothing to remove",
    }[result.result]
    emit(f"{result.target} ({result.scope}): {verb} in {result.config_path}")
    if result.backup_path and not ctx.quiet:
        emit(f"previous file kept as {result.backup_path}")
    return 0


def run_status(ctx: Context) -> int:
    from gno_adapters.client_setup import status, this_entry
    from gno_cli.output import emit, emit_json

    expected = this_entry(ctx.args.index, ctx.args.config)
    report = status(ctx.args.target, ctx.args.scope, expected=expected)
    if ctx.json:
        emit_json(report)
        return 0
    lines = ["MCP Server Status", "─" * 50]
    for row in report.targets:
        name = f"{row.label} ({row.scope})"
        if row.entry is not None and row.state == "configured":
            stale = "" if row.current is not False else " (another installation or index)"
            lines.append(f"✓ {name}: configured{stale}")
            lines.append(f"    Command: {row.entry.command}")
            lines.append(f"    Args: {' '.join(row.entry.args)}")
        else:
            lines.append(f"✗ {name}: {row.state.replace('_', ' ')}")
            lines.extend(f"    {problem}" for problem in row.problems or ())
        lines.append(f"    Config: {row.config_path}")
    lines.append(f"{report.configured}/{report.total} targets configured")
    emit("\n".join(lines))
    return 0
