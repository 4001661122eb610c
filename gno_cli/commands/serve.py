"""``gno serve`` and ``gno daemon``: the resident HTTP gateway, in the foreground or detached,
with ``--status`` and ``--stop``.

``serve`` listens on loopback only and carries the REST API beside ``/mcp``; ``daemon`` is
headless (``/mcp`` and resident status) and may listen beyond loopback with a bearer token file
and exact Host/Origin allowlists. Flags override the ``gateway`` block of the config file.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gno_cli.output import emit, emit_json
from gno_core.errors import RuntimeFailure, ValidationError

if TYPE_CHECKING:
    from gno_adapters.config import GnoPaths
    from gno_adapters.http.gateway import Gateway
    from gno_adapters.http.process import PidRecord
    from gno_adapters.http.settings import GatewaySettings
    from gno_cli.context import Context
    from gno_core.model import ProcessStatus

NOT_RUNNING = 3
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
        p.add_argument("--detach", action="store_true", help="run in the background")
        p.add_argument("--pid-file", help="pid file (default: <data dir>/serve.pid)")
        p.add_argument("--log-file", help="log file when detached (default: <data dir>/<cmd>.log)")
        action = p.add_mutually_exclusive_group()
        action.add_argument("--status", action="store_true", help="report the running server")
        action.add_argument("--stop", action="store_true", help="stop the running server")
        p.set_defaults(handler=run_resident, resident_cmd=name)


def run_resident(ctx: Context) -> int:
    from gno_adapters.config import resolve_paths

    a = ctx.args
    paths = resolve_paths(a.index, a.config)
    pid_file = _absolute(a.pid_file) or paths.pid_file
    if a.status:
        return _status(ctx, pid_file)
    if a.stop:
        return _stop(ctx, a.resident_cmd, pid_file)
    settings = _settings(ctx, paths)
    if a.detach:
        log_file = _absolute(a.log_file) or paths.data_dir / f"{a.resident_cmd}.log"
        return _detach(ctx, settings, pid_file, log_file)
    return _foreground(ctx, settings, paths, pid_file)


def _settings(ctx: Context, paths: GnoPaths) -> GatewaySettings:
    from gno_adapters.config import YamlConfigRepository
    from gno_adapters.http.settings import resolve_settings
    from gno_core.config import GatewayConfig

    repo = YamlConfigRepository(paths.config_file)
    config = repo.load().gateway if repo.exists() else GatewayConfig()
    a = ctx.args
    return resolve_settings(
        a.resident_cmd,
        config,
        host=a.host,
        port=a.port,
        tool_profile=a.mcp_tool_profile,
        enable_write=a.mcp_enable_write,
        token_file=a.mcp_token_file,
        allowed_hosts=a.mcp_allowed_host,
        allowed_origins=a.mcp_allowed_origin,
    )


def _foreground(ctx: Context, settings: GatewaySettings, paths: GnoPaths, pid_file: Path) -> int:
    from gno_adapters.bootstrap import open_gno
    from gno_adapters.http.process import ResidentLock, remove_pid_file, write_pid_file
    from gno_adapters.http.runner import run_gateway

    a = ctx.args
    logging.basicConfig(
        level=logging.WARNING if ctx.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    lock = ResidentLock(paths.data_dir, pid_file, settings.mode)
    lock.acquire()

    def opener(status: Any) -> Any:
        return open_gno(a.index, a.config, mode=settings.mode, resident_status=status)

    def ready(gateway: Gateway) -> None:
        write_pid_file(pid_file, _record(gateway, _absolute(a.log_file)))
        where = _url(gateway.settings.bind_host, gateway.port)
        writes = "on" if settings.enable_write else "off"
        print(
            f"gno {settings.mode}: listening on {where} (MCP at /mcp; tool profile "
            f"{settings.tool_profile}, writes {writes}); pid {os.getpid()}",
            file=sys.stderr,
            flush=True,
        )

    try:
        return run_gateway(settings, opener, ready=ready)
    except OSError as exc:
        raise RuntimeFailure(
            f"Cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}"
        ) from exc
    finally:
        remove_pid_file(pid_file, os.getpid())
        lock.release()


def _record(gateway: Gateway, log_file: Path | None) -> PidRecord:
    from gno_adapters.http.process import PidRecord, now_iso
    from gno_core import __version__

    s = gateway.settings
    probe = s.bind_host
    if s.wildcard:
        probe = "::1" if s.host.strip() in ("::", "[::]") else "127.0.0.1"
    base = _url(probe, gateway.port)
    status_host = base.removeprefix("http://") if s.loopback or not s.allowed_hosts else None
    return PidRecord(
        pid=os.getpid(),
        port=gateway.port,
        cmd=s.mode,
        version=__version__,
        started_at=now_iso(),
        host=s.host,
        log_file=str(log_file) if log_file else None,
        status_url=base + "/api/resident/status",
        status_host=status_host or s.allowed_hosts[0],
        token_file=str(s.token_file) if s.token_file else None,
    )


def _detach(ctx: Context, settings: GatewaySettings, pid_file: Path, log_file: Path) -> int:
    from gno_adapters.http.process import (
        is_alive,
        read_pid_file,
        spawn_detached,
        wait_for_start,
    )
    from gno_core.errors import ConflictError

    cmd = settings.mode
    existing = read_pid_file(pid_file)
    if existing is not None and is_alive(existing.pid):
        raise ConflictError(
            f"gno {existing.cmd} is already running (pid {existing.pid}, port {existing.port}); "
            f"stop it with `gno {existing.cmd} --stop`"
        )
    pid = spawn_detached(_child_argv(ctx, pid_file, log_file), log_file)
    record = wait_for_start(pid, pid_file, START_TIMEOUT)
    if record is None:
        raise RuntimeFailure(
            f"gno {cmd} did not start; the end of {log_file}:\n{_tail(log_file)}",
            details={"logFile": str(log_file)},
        )
    if ctx.json:
        emit_json(_process_status(pid_file, record, probe=False))
    else:
        emit(
            f"gno {cmd} is running in the background: pid {record.pid}, "
            f"{_url(settings.bind_host, record.port)}/mcp (log: {log_file})"
        )
    return 0


def _child_argv(ctx: Context, pid_file: Path, log_file: Path) -> list[str]:
    """The same command without ``--detach``: every option made explicit and absolute."""
    a = ctx.args
    argv = [sys.executable, "-m", "gno_cli.main"]
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
    for host in a.mcp_allowed_host or []:
        argv += ["--mcp-allowed-host", host]
    for origin in a.mcp_allowed_origin or []:
        argv += ["--mcp-allowed-origin", origin]
    return argv


def _status(ctx: Context, pid_file: Path) -> int:
    from gno_adapters.http.process import is_alive, read_pid_file

    record = read_pid_file(pid_file)
    live = record if record is not None and is_alive(record.pid) else None
    status = _process_status(pid_file, live, probe=True)
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


def _process_status(pid_file: Path, record: PidRecord | None, *, probe: bool) -> ProcessStatus:
    from gno_adapters.http.process import log_size, probe_resident, uptime_seconds
    from gno_core.model import ProcessStatus, ResidentStatus

    if record is None:
        return ProcessStatus(
            running=False,
            pid=None,
            port=None,
            cmd=None,
            version=None,
            started_at=None,
            uptime_seconds=None,
            resident=None,
            pid_file=str(pid_file),
            log_file=None,
            log_size_bytes=None,
        )
    resident = None
    raw = probe_resident(record) if probe else None
    if raw is not None:
        try:
            resident = ResidentStatus.model_validate(raw)
        except ValueError:
            resident = None
    return ProcessStatus(
        running=True,
        pid=record.pid,
        port=record.port,
        cmd="daemon" if record.cmd == "daemon" else "serve",
        version=record.version,
        started_at=record.started_at,
        uptime_seconds=uptime_seconds(record.started_at),
        resident=resident,
        pid_file=str(pid_file),
        log_file=record.log_file,
        log_size_bytes=log_size(record.log_file),
    )


def _stop(ctx: Context, cmd: str, pid_file: Path) -> int:
    from gno_adapters.http.process import is_alive, read_pid_file, stop_process

    record = read_pid_file(pid_file)
    if record is None or not is_alive(record.pid):
        if record is not None:
            pid_file.unlink(missing_ok=True)  # stale: names a process that is gone
        if ctx.json:
            emit_json(_process_status(pid_file, None, probe=False))
        else:
            emit(f"gno {cmd} is not running (no live pid file at {pid_file})")
        return NOT_RUNNING
    if record.cmd != cmd:
        raise ValidationError(
            f"The resident server here is gno {record.cmd} (pid {record.pid}); stop it with "
            f"`gno {record.cmd} --stop`"
        )
    if not stop_process(record.pid):
        raise RuntimeFailure(f"gno {cmd} (pid {record.pid}) did not stop")
    if read_pid_file(pid_file) == record:
        pid_file.unlink(missing_ok=True)
    if ctx.json:
        emit_json(_process_status(pid_file, None, probe=False))
    else:
        emit(f"Stopped gno {cmd} (pid {record.pid})")
    return 0


def _absolute(value: str | Path | None) -> Path | None:
    return Path(value).expanduser().resolve() if value else None


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"
