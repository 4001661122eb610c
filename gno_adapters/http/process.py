"""Resident process lifecycle: one owner per data directory, the pid file, detach, status, stop.

* Ownership is an exclusive ``flock`` on ``<data>/resident.lock``, held for the life of the
  server: a second ``gno serve`` / ``gno daemon`` on the same data directory is refused.
* The pid file (``<data>/serve.pid`` unless ``--pid-file``) is JSON ``{pid, port, cmd, version,
  started_at, host, log_file, ...}``, written once the listener is warm and removed on exit;
  ``gno peek`` reads it (never over HTTP).
* ``--detach`` starts the same command in a new session with its output in a log file and
  returns once the child's pid file names it. ``--stop`` sends SIGTERM, polls every 100 ms for
  up to 10 s, then SIGKILL and 2 s more.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from gno_core.errors import ConflictError, RuntimeFailure

LOCK_NAME = "resident.lock"
STOP_TERM_SECONDS = 10.0
STOP_KILL_SECONDS = 2.0
POLL_SECONDS = 0.1


@dataclass(frozen=True, slots=True)
class PidRecord:
    """What the pid file says about a resident server (no secrets: paths and ports only)."""

    pid: int
    port: int
    cmd: str
    version: str
    started_at: str
    host: str = "127.0.0.1"
    log_file: str | None = None
    #: Where and how ``--status`` asks the server for its resident status.
    status_url: str | None = None
    status_host: str | None = None
    token_file: str | None = None

    @classmethod
    def parse(cls, data: Any) -> PidRecord | None:
        if not isinstance(data, dict):
            return None
        try:
            fields = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
            record = cls(**fields)
            return record if isinstance(record.pid, int) and isinstance(record.port, int) else None
        except TypeError:
            return None


def read_pid_file(path: Path) -> PidRecord | None:
    try:
        return PidRecord.parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def write_pid_file(path: Path, record: PidRecord) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(asdict(record), indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def remove_pid_file(path: Path, pid: int) -> None:
    """Remove ``path`` if it still names ``pid`` (never another server's file)."""
    record = read_pid_file(path)
    if record is not None and record.pid == pid:
        path.unlink(missing_ok=True)


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


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def uptime_seconds(started_at: str) -> float | None:
    try:
        started = datetime.fromisoformat(started_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0.0, round((datetime.now(UTC) - started).total_seconds(), 3))


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
