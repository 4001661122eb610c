"""Run the real ``gno`` CLI in-process with isolated directories and capture its output."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gno_cli.main import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


class Cli:
    def __init__(
        self, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        self.home = home
        self._capsys = capsys
        monkeypatch.setenv("GNO_CONFIG_DIR", str(home / "config"))
        monkeypatch.setenv("GNO_DATA_DIR", str(home / "data"))
        monkeypatch.setenv("GNO_CACHE_DIR", str(home / "cache"))
        monkeypatch.delenv("GNO_MCP_ENABLE_WRITE", raising=False)

    def __call__(self, *argv: str) -> Run:
        self._capsys.readouterr()
        code = main(list(argv))
        captured = self._capsys.readouterr()
        return Run(code, captured.out, captured.err)

    def ok(self, *argv: str) -> Run:
        run = self(*argv)
        assert run.code == 0, f"gno {' '.join(argv)} exited {run.code}: {run.err or run.out}"
        return run


def run_gno(
    env: dict[str, str], *argv: str, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run ``gno`` in a child process with ``env`` (for tests that kill or time processes)."""
    return subprocess.run(
        [sys.executable, "-m", "gno_cli.main", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
