"""The resident process lifecycle (``gno serve`` / ``gno daemon``): one owner per data directory,
detach, status, stop (the pid file is ``pidfile``, the foreground gateway ``gateway``).

* Ownership is an exclusive ``flock`` on ``<data>/resident.lock``, held for the life of the
  server: a second ``gno serve`` / ``gno daemon`` on the same data directory is refused.
* The pid file (``<data>/serve.pid`` unless ``--pid-file``, see ``pidfile``) names the owner
  once its listener is warm; ``--status`` and ``--stop`` read it.
* ``--detach`` starts the same command in a new session with its output in a log file and
  returns once the child's pid file names it. ``--stop`` sends SIGTERM, polls every 100 ms for
  up to 10 s, then SIGKILL and 2 s more.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from gno_adapters.clock import SystemClock
from gno_adapters.resident.pidfile import PidRecord, read_pid_file
from gno_core.errors import ConflictError, RuntimeFailure, ValidationError

if TYPE_CHECKING:
    from gno_core.contracts import ProcessStatus

LOCK_NAME = "resident.lock"
STOP_TERM_SECONDS = 10.0
STOP_KILL_SECONDS = 2.0
POLL_SECONDS = 0.1


def is_alive(pid: int) -> bool:
    """Whether ``pid`` runs and looks like gno (a recycled pid of another program is not)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    proc = Path("/proc")
    if not proc.is_dir():
        return True  # no procfs: trust the signal
    try:
        raw = (proc / str(pid) / "cmdline").read_bytes()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    if b"gno" not in raw:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is not running
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _now(clock: SystemClock) -> datetime:
    return datetime.fromtimestamp(clock.now_ns() / 1e9, UTC)


def now_iso(clock: SystemClock | None = None) -> str:
    now = _now(clock or SystemClock())
    return now.isoformat(timespec="seconds").replace("+00:00", "Z")


def uptime_seconds(started_at: str, clock: SystemClock | None = None) -> float | None:
    try:
        started = datetime.fromisoformat(started_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0.0, round((_now(clock or SystemClock()) - started).total_seconds(), 3))


class ResidentLock:
    """The exclusive owner lock of one data directory (POSIX ``flock``)."""

    def __init__(self, data_dir: Path, pid_file: Path, cmd: str) -> None:
        self.path = data_dir / LOCK_NAME
        self.pid_file = pid_file
        self.cmd = cmd
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            details = {"dataDir": str(self.path.parent)}
            raise ConflictError(self._owner_message(), details=details) from None
        self._handle = handle

    def _owner_message(self) -> str:
        record = read_pid_file(self.pid_file)
        owner = (
            f"gno {record.cmd} (pid {record.pid}, port {record.port})"
            if record is not None
            else "another gno serve or gno daemon"
        )
        stop = f"gno {record.cmd if record else self.cmd} --stop"
        return (
            f"{owner} already owns the data directory {self.path.parent}: one resident server "
            f"per data directory. Stop it with `{stop}`, or set GNO_DATA_DIR for another one."
        )

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def spawn_detached(argv: list[str], log_file: Path, env: dict[str, str] | None = None) -> int:
    """Start ``argv`` in a new session, output appended to ``log_file``; returns its pid."""
    if sys.platform == "win32":  # pragma: no cover
        raise RuntimeFailure("--detach is not supported on Windows; run it in the foreground")
    log_file.parent.mkdir(parents=True, exist_ok=True)
    out = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        # posix_spawn, not Popen: the child outlives this process and must not be reaped (or
        # warned about) by a Popen object. Only fds 0-2 are inherited (PEP 446).
        return os.posix_spawn(
            argv[0],
            argv,
            dict(os.environ if env is None else env),
            file_actions=[
                (os.POSIX_SPAWN_DUP2, null, 0),
                (os.POSIX_SPAWN_DUP2, out, 1),
                (os.POSIX_SPAWN_DUP2, out, 2),
            ],
            setsid=True,
        )
    finally:
        os.close(out)
        os.close(null)


def wait_for_start(pid: int, pid_file: Path, timeout: float) -> PidRecord | None:
    """The pid file of the child ``pid`` once it is written, or ``None`` if it died first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        record = read_pid_file(pid_file)
        if record is not None and record.pid == pid:
            return record
        try:
            reaped, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            reaped = pid
        if reaped == pid:
            return None
        time.sleep(POLL_SECONDS)
    return None


def stop_process(pid: int) -> bool:
    """SIGTERM, then SIGKILL if still alive after ``STOP_TERM_SECONDS``; ``True`` once gone."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return True
    if _wait_gone(pid, STOP_TERM_SECONDS):
        return True
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return True
    return _wait_gone(pid, STOP_KILL_SECONDS)


def _wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not is_alive(pid):
            return True
        time.sleep(POLL_SECONDS)
    return not is_alive(pid)


def probe_resident(record: PidRecord, timeout: float = 1.0) -> dict[str, Any] | None:
    """The server's ``resident-status`` over HTTP (``--status`` only; ``peek`` never probes)."""
    if not record.status_url:
        return None
    import httpx

    headers = {"Accept": "application/json"}
    if record.status_host:
        headers["Host"] = record.status_host
    if record.token_file:
        try:
            headers["Authorization"] = "Bearer " + Path(record.token_file).read_text().strip()
        except OSError:
            return None
    try:
        response = httpx.get(record.status_url, headers=headers, timeout=timeout)
        if response.status_code != 200:
            return None
        data = response.json()
    except (httpx.HTTPError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def log_size(path: str | None) -> int | None:
    if not path:
        return None
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def detach(
    argv: list[str],
    cmd: str,
    pid_file: Path,
    log_file: Path,
    timeout: float,
    *,
    env: dict[str, str] | None = None,
) -> PidRecord:
    """Start ``argv`` (the same command in the foreground) in the background, in ``env`` (this
    process's environment by default), and wait for its pid file; ``CONFLICT`` if a live server
    already holds ``pid_file``."""
    existing = read_pid_file(pid_file)
    if existing is not None and is_alive(existing.pid):
        raise ConflictError(
            f"gno {existing.cmd} is already running (pid {existing.pid}, port {existing.port}); "
            f"stop it with `gno {existing.cmd} --stop`"
        )
    pid = spawn_detached(argv, log_file, env)
    record = wait_for_start(pid, pid_file, timeout)
    if record is None:
        raise RuntimeFailure(
            f"gno {cmd} did not start; the end of {log_file}:\n{_tail(log_file)}",
            details={"logFile": str(log_file)},
        )
    return record


def live_record(pid_file: Path) -> PidRecord | None:
    """The pid file's record if it names a live gno process."""
    record = read_pid_file(pid_file)
    return record if record is not None and is_alive(record.pid) else None


def process_status(pid_file: Path, record: PidRecord | None, *, probe: bool) -> ProcessStatus:
    """``process-status@1.0`` of ``record`` (``None``: not running); ``probe`` asks the server
    for its resident status over HTTP."""
    from gno_core.contracts import ProcessStatus, ResidentStatus

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


def stop(cmd: str, pid_file: Path) -> PidRecord | None:
    """Stop the ``cmd`` server named by ``pid_file``; the stopped record, or ``None`` if none
    was running (a stale pid file is removed)."""
    record = read_pid_file(pid_file)
    if record is None or not is_alive(record.pid):
        if record is not None:
            pid_file.unlink(missing_ok=True)  # stale: names a process that is gone
        return None
    if record.cmd != cmd:
        raise ValidationError(
            f"The resident server here is gno {record.cmd} (pid {record.pid}); stop it with "
            f"`gno {record.cmd} --stop`"
        )
    if not stop_process(record.pid):
        raise RuntimeFailure(f"gno {cmd} (pid {record.pid}) did not stop")
    if read_pid_file(pid_file) == record:
        pid_file.unlink(missing_ok=True)
    return record


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"
