"""Resident-server discovery through its pid file (never an HTTP probe)."""

from __future__ import annotations

import json
import os
from pathlib import Path


class PidFileResidentProbe:
    """``ResidentProbe`` reading ``serve.pid`` (JSON with ``pid`` and ``port``)."""

    def __init__(self, pid_file: Path) -> None:
        self._pid_file = pid_file

    def serve_url(self) -> str | None:
        try:
            record = json.loads(self._pid_file.read_text(encoding="utf-8"))
            pid, port = int(record["pid"]), int(record["port"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass  # alive, owned by someone else
        return f"http://localhost:{port}"
