"""``gno mcp``: serve the index to agents over stdio (the protocol lives in gno_adapters.mcp)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from gno_core.errors import ValidationError

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.surface import Facade

PROFILES = ("core", "full")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("mcp", help="run the MCP server over stdio")
    p.add_argument("--tool-profile", default="full", help="core or full (default: full)")
    p.add_argument("--enable-write", action="store_true", help="register write tools")
    p.set_defaults(handler=run_mcp)


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
