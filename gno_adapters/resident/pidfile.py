"""The pid file of a resident server and the ``ResidentProbe`` over it.

The pid file (``<data>/serve.pid`` unless ``--pid-file``) is JSON ``{pid, port, cmd, version,
started_at, host, log_file, ...}``, written once the listener is warm and removed on exit;
``gno peek`` reads it (never over HTTP). It has one parser (``read_pid_file``): the lifecycle
and ``PidFileResidentProbe`` (which tells ``peek`` and ``status`` where the resident server
listens) both read it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


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


class PidFileResidentProbe:
    """``ResidentProbe`` over the pid file: where a live resident server listens, if any."""

    def __init__(self, pid_file: Path) -> None:
        self._pid_file = pid_file

    def serve_url(self) -> str | None:
        record = read_pid_file(self._pid_file)
        if record is None:
            return None
        try:
            os.kill(record.pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass  # alive, owned by someone else
        return f"http://localhost:{record.port}"
