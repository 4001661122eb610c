"""A ``gno embed`` killed with SIGKILL mid-way keeps its committed batches; the next run embeds
only what is left (no finished batch is embedded again)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest

from tests.embedding_support import models_dir
from tests.integration.cli_helpers import run_gno


def _vectors(db: Path) -> dict[tuple[str, int], tuple[int, str, bytes]]:
    """(mirror_hash, seq) -> (row id, embedded_at, blob) of every stored vector."""
    try:
        conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
        try:
            rows = conn.execute(
                "SELECT mirror_hash, seq, id, embedded_at, embedding FROM content_vectors"
            ).fetchall()
        finally:
            conn.close()
    except apsw.Error:
        return {}
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}


@pytest.mark.slow
def test_sigkill_mid_embed_then_resume(
    tmp_path: Path, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        # The built model graph is shared with the other model tests of this session.
        "GNO_CACHE_DIR": str(models_dir(tmp_path_factory).parent / "gno-cache"),
    }
    for name in ("GNO_EMBED_MODEL", "GNO_EMBED_PRECISION", "GNO_RERANK_MODEL"):
        env.pop(name, None)
    assert (
        run_gno(
            env, "collection", "add", str(shared_data / "foam-docs"), "--name", "foam"
        ).returncode
        == 0
    )
    assert run_gno(env, "update").returncode == 0
    total = json.loads(run_gno(env, "status", "--json").stdout)["embeddingBacklog"]
    assert total > 100

    db = tmp_path / "data" / "index-default.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gno_cli.main", "embed", "--batch-size", "4"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while len(_vectors(db)) < 24 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    killed_mid_way = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert killed_mid_way, "embedding finished before it could be killed; the test proved nothing"

    before = _vectors(db)
    assert 0 < len(before) < total
    assert len(before) % 4 == 0, "only whole batches are ever committed"
    conn = apsw.Connection(str(db))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()

    resumed = run_gno(env, "embed", "--batch-size", "4", "--json")
    assert resumed.returncode == 0, resumed.stderr
    result = json.loads(resumed.stdout)
    assert result["embedded"] == total - len(before)
    assert (result["errors"], result["pending"]) == (0, 0)
    after = _vectors(db)
    assert len(after) == total
    assert all(after[key] == value for key, value in before.items()), "finished batches kept"

    status = json.loads(run_gno(env, "status", "--json").stdout)
    assert status["embeddingBacklog"] == 0
    hybrid = json.loads(run_gno(env, "query", "link notes together", "--json").stdout)
    assert hybrid["meta"]["vectorsUsed"] is True and hybrid["results"]
