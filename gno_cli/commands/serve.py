"""``gno serve`` and ``gno daemon``: the resident HTTP gateway, in the foreground or detached,
with ``--status`` and ``--stop``.

``serve`` listens on loopback only and carries the REST API beside ``/mcp``; ``daemon`` is
headless (``/mcp`` and resident status) and may listen beyond loopback with a bearer token file
and exact Host/Origin allowlists. Flags override the ``gateway`` block of the config file.

The lifecycle (lock, pid file, gateway, detach, stop) is ``gno_adapters.resident``; this
module parses flags, hands it the facade factory (``open_gno``) and prints.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gno_cli.exit_codes import NOT_RUNNING
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context

START_TIMEOUT = 60.0
COMMANDS = {
    "serve": "REST API and MCP over HTTP (/mcp) on loopback",
    "daemon": "headless MCP over HTTP (/mcp) with resident status; may listen beyond loopback "
    "with a bearer token",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, text in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("-p", "--port", type=int, help="port (default 3000; 0 picks a free one)")
        p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
        p.add_argument("--mcp-tool-profile", help="core or full (default: full)")
        p.add_argument(
            "--mcp-enable-write", action="store_true", help="allow MCP write tools over HTTP"
        )
        p.add_argument(
            "--mcp-token-file",
            help="bearer token file, owner-only (generated with 256 random bits if missing)",
        )
        p.add_argument(
            "--mcp-allowed-host",
            action="append",
            metavar="HOST",
            help="exact Host header value to accept, e.g. gno.example.com (repeatable)",
        )
        p.add_argument(
            "--mcp-allowed-origin",
            action="append",
            metavar="ORIGIN",
            help="exact Origin to accept, e.g. https://gno.example.com (repeatable)",
        )
        p.add_argument(
            "--watch",
            action="store_true",
            help="keep the index up to date as files change (embeddings follow)",
        )
        p.add_argument("--detach", action="store_true", help="run in the background")
        p.add_argument("--pid-file", help="pid file (default: <data dir>/serve.pid)")
        p.add_argument("--log-file", help="log file when detached (default: <data dir>/<cmd>.log)")
        action = p.add_mutually_exclusive_group()
        action.add_argument("--status", action="store_true", help="report the running server")
        action.add_argument("--stop", action="store_true", help="stop the running server")
        p.set_defaults(handler=run_resident, resident_cmd=name)


def run_resident(ctx: Context) -> int:
    from gno_adapters.bootstrap.paths import resolve_paths
    from gno_adapters.resident import gateway, lifecycle

    a = ctx.args
    paths = resolve_paths(a.index, a.config)
    pid_file = _absolute(a.pid_file) or paths.pid_file
    if a.status:
        return _status(ctx, pid_file)
    if a.stop:
        return _stop(ctx, a.resident_cmd, pid_file)
    settings = gateway.gateway_settings(
        a.resident_cmd,
        paths,
        host=a.host,
        port=a.port,
        tool_profile=a.mcp_tool_profile,
        enable_write=a.mcp_enable_write,
        token_file=a.mcp_token_file,
        allowed_hosts=a.mcp_allowed_host,
        allowed_origins=a.mcp_allowed_origin,
    )
    if a.detach:
        log_file = _absolute(a.log_file) or paths.data_dir / f"{a.resident_cmd}.log"
        argv = _child_argv(ctx, pid_file, log_file)
        record = lifecycle.detach(
            argv, settings.mode, pid_file, log_file, START_TIMEOUT, env=_child_env()
        )
        if ctx.json:
            emit_json(lifecycle.process_status(pid_file, record, probe=False))
        else:
            emit(
                f"gno {settings.mode} is running in the background: pid {record.pid}, "
                f"{lifecycle.url(settings.bind_host, record.port)}/mcp (log: {log_file})"
            )
        return 0

    logging.basicConfig(
        level=logging.WARNING if ctx.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )

    def announce(where: str) -> None:
        writes = "on" if settings.enable_write else "off"
        print(
            f"gno {settings.mode}: listening on {where} (MCP at /mcp; tool profile "
            f"{settings.tool_profile}, writes {writes}); pid {os.getpid()}",
            file=sys.stderr,
            flush=True,
        )

    from gno_adapters.bootstrap.local import facade_factory

    # One facade per worker thread, one loaded model for all of them.
    return gateway.run_foreground(
        settings,
        paths,
        pid_file,
        open_facade=facade_factory(a.index, a.config),
        log_file=_absolute(a.log_file),
        announce=announce,
        watch=a.watch,
    )


def _child_argv(ctx: Context, pid_file: Path, log_file: Path) -> list[str]:
    """The same command without ``--detach``: every option made explicit and absolute. ``-P``:
    the child never imports from the folder it was started in (a ``gno_cli`` there, such as a
    checkout of another version, would otherwise run instead of this one)."""
    a = ctx.args
    argv = [sys.executable, "-P", "-m", "gno_cli.main"]
    if a.index:
        argv += ["--index", a.index]
    if a.config:
        argv += ["--config", str(_absolute(a.config))]
    if ctx.quiet:
        argv.append("--quiet")
    argv.append(a.resident_cmd)
    for flag, value in (
        ("--port", a.port),
        ("--host", a.host),
        ("--mcp-tool-profile", a.mcp_tool_profile),
        ("--mcp-token-file", _absolute(a.mcp_token_file)),
        ("--pid-file", pid_file),
        ("--log-file", log_file),
    ):
        if value is not None:
            argv += [flag, str(value)]
    if a.mcp_enable_write:
        argv.append("--mcp-enable-write")
    if a.watch:
        argv.append("--watch")
    for host in a.mcp_allowed_host or []:
        argv += ["--mcp-allowed-host", host]
    for origin in a.mcp_allowed_origin or []:
        argv += ["--mcp-allowed-origin", origin]
    return argv


def _child_env() -> dict[str, str]:
    """The child's environment: this one, plus the folder this ``gno_cli`` came from when only
    the start folder (``python -m gno_cli.main`` in a checkout) made it importable, so that the
    child runs the same code as its parent."""
    import gno_cli

    env = dict(os.environ)
    root = Path(gno_cli.__file__).resolve().parents[1]
    first = Path(sys.path[0] or os.curdir).resolve() if sys.path else None
    if first == root:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    return env


def _status(ctx: Context, pid_file: Path) -> int:
    from gno_adapters.resident import lifecycle

    live = lifecycle.live_record(pid_file)
    status = lifecycle.process_status(pid_file, live, probe=True)
    if ctx.json:
        emit_json(status)
    elif live is None:
        emit(f"gno {ctx.args.resident_cmd} is not running (no live pid file at {pid_file})")
    else:
        emit(
            f"gno {status.cmd} is running: pid {status.pid}, port {status.port}, "
            f"version {status.version}, up {status.uptime_seconds or 0:.0f} s"
        )
        if status.resident and status.resident.admission and status.resident.transport:
            adm, tr = status.resident.admission, status.resident.transport
            emit(
                f"  admission: {adm.state}, {adm.active_requests} active, "
                f"{adm.queued_requests} queued; sessions {tr.sessions}/{tr.max_sessions}; "
                f"profile {tr.tool_profile}, writes {'on' if tr.write_enabled else 'off'}"
            )
        emit(f"  pid file: {status.pid_file}")
        if status.log_file:
            emit(f"  log file: {status.log_file} ({status.log_size_bytes or 0} bytes)")
    return 0 if status.running else NOT_RUNNING


def _stop(ctx: Context, cmd: str, pid_file: Path) -> int:
    from gno_adapters.resident import lifecycle

    record = lifecycle.stop(cmd, pid_file)
    if ctx.json:
        emit_json(lifecycle.process_status(pid_file, None, probe=False))
    elif record is None:
        emit(f"gno {cmd} is not running (no live pid file at {pid_file})")
    else:
        emit(f"Stopped gno {cmd} (pid {record.pid})")
    return NOT_RUNNING if record is None else 0


def _absolute(value: str | Path | None) -> Path | None:
    return Path(value).expanduser().resolve() if value else None
