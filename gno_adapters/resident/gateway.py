"""The resident gateway in the foreground: own the data directory, serve the HTTP gateway over
a facade factory until a signal, keep the pid file while warm, and (``--watch``) keep the index
live on a thread of its own.

The factory comes from the caller (the CLI passes ``open_gno``), so this process plumbing never
imports the wiring it runs.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from gno_adapters.resident.lifecycle import ResidentLock, now_iso, url
from gno_adapters.resident.pidfile import PidRecord, remove_pid_file, write_pid_file
from gno_core.errors import GnoError, RuntimeFailure

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from gno_adapters.config import GnoPaths
    from gno_adapters.http.gateway import Gateway
    from gno_adapters.http.settings import GatewaySettings, Mode
    from gno_core.facade import Gno


def gateway_settings(cmd: Mode, paths: GnoPaths, **flags: Any) -> GatewaySettings:
    """The gateway settings of ``cmd``: the config file's ``gateway`` block under the flags."""
    from gno_adapters.config import YamlConfigRepository
    from gno_adapters.http.settings import resolve_settings
    from gno_core.config import GatewayConfig

    repo = YamlConfigRepository(paths.config_file)
    config = repo.load().gateway if repo.exists() else GatewayConfig()
    return resolve_settings(cmd, config, **flags)


def run_foreground(
    settings: GatewaySettings,
    paths: GnoPaths,
    pid_file: Path,
    *,
    open_facade: Callable[[], Gno],
    log_file: Path | None,
    announce: Callable[[str], None],
    watch: bool = False,
) -> int:
    """Own the data directory, serve the gateway over ``open_facade`` until a signal, and keep
    the pid file while warm; ``announce`` gets the listening URL once it is written. With
    ``watch``, a thread keeps the index live (``Gno.watch``) for as long as the gateway runs."""
    from gno_adapters.http.runner import run_gateway

    lock = ResidentLock(paths.data_dir, pid_file, settings.mode)
    lock.acquire()

    def ready(gateway: Gateway) -> None:
        write_pid_file(pid_file, pid_record(gateway, log_file))
        announce(url(gateway.settings.bind_host, gateway.port))

    watcher = _Watcher(open_facade) if watch else None
    try:
        return run_gateway(settings, open_facade, ready=ready)
    except OSError as exc:
        raise RuntimeFailure(
            f"Cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}"
        ) from exc
    finally:
        if watcher is not None:
            watcher.stop()
        remove_pid_file(pid_file, os.getpid())
        lock.release()


class _Watcher:
    """The live-indexing thread of a resident server: its own facade (its own connection), the
    same write lease as every other writer, stopped with the gateway."""

    def __init__(self, open_facade: Callable[[], Gno]) -> None:
        import threading

        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(open_facade,), name="gno-live-index", daemon=True
        )
        self._thread.start()

    def _run(self, open_facade: Callable[[], Gno]) -> None:
        log = logging.getLogger("gno.watch")
        try:
            with open_facade() as gno:
                gno.watch(stop=self._stop.is_set, on_event=lambda e: log.info("%s", e.summary()))
        except GnoError as exc:
            log.error("live indexing stopped: %s", exc.message)
        except Exception:  # never a silent end of the live index: say why in the server's log
            log.exception("live indexing stopped")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)


def pid_record(gateway: Gateway, log_file: Path | None) -> PidRecord:
    """What this process writes to its pid file once ``gateway`` listens."""
    from gno_core import __version__

    s = gateway.settings
    probe = s.bind_host
    if s.wildcard:
        probe = "::1" if s.host.strip() in ("::", "[::]") else "127.0.0.1"
    base = url(probe, gateway.port)
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
