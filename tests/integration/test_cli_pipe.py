"""A reader that leaves early (``gno ls | head -1``) ends gno quietly, as SIGPIPE would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.integration.cli_helpers import run_gno


def test_a_closed_pipe_is_exit_141_without_a_traceback(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "c"),
        "GNO_DATA_DIR": str(tmp_path / "d"),
        "GNO_CACHE_DIR": str(tmp_path / "k"),
        "GNO_EMBED_MODEL": "none",
    }
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3000):  # well past a pipe buffer of listing lines
        (notes / f"note-{i:04d}.md").write_text(f"# Note {i}\n", encoding="utf-8")
    assert run_gno(env, "collection", "add", str(notes), "--name", "n").returncode == 0
    assert run_gno(env, "update", "-q").returncode == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "gno_cli.main", "ls", "n", "--limit", "3000"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"#")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err
