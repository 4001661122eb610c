"""A sync killed with SIGKILL mid-way leaves a valid index that the next run completes."""

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

from tests.integration.cli_helpers import run_gno


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
        try:
            row = conn.execute("SELECT count(*) FROM documents").fetchone()
            return int(row[0]) if row else 0
        finally:
            conn.close()
    except apsw.Error:
        return 0


def _setup(root: Path, corpus: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(root / "config"),
        "GNO_DATA_DIR": str(root / "data"),
        "GNO_CACHE_DIR": str(root / "cache"),
    }
    add = run_gno(env, "collection", "add", str(corpus), "--name", "docs")
    assert add.returncode == 0, add.stderr
    config = root / "config" / "index.yml"
    text = config.read_text(encoding="utf-8")
    assert "batchSize: 500" in text
    config.write_text(text.replace("batchSize: 500", "batchSize: 25"), encoding="utf-8")
    return env


def _final(env: dict[str, str]) -> dict[str, int]:
    run = run_gno(env, "update", "--json")
    assert run.returncode == 0, run.stderr
    status = run_gno(env, "status", "--json")
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    return {"documents": data["totalDocuments"], "chunks": data["totalChunks"]}


@pytest.mark.slow
def test_sigkill_mid_sync_then_rerun(tmp_path: Path, shared_data: Path) -> None:
    corpus = shared_data / "fastapi-docs"
    reference = _final(_setup(tmp_path / "ref", corpus))

    env = _setup(tmp_path / "crash", corpus)
    db = tmp_path / "crash" / "data" / "index-default.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gno_cli.main", "update"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while _count(db) < 50 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    killed_mid_way = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert killed_mid_way, "sync finished before it could be killed; the test proved nothing"
    partial = _count(db)
    assert 0 < partial < reference["documents"]

    conn = apsw.Connection(str(db))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    assert _final(env) == reference
    # The change journal is written in each batch's transaction: after the kill and the rerun,
    # every indexed document has exactly one create entry, none lost, none doubled.
    conn = apsw.Connection(str(db))
    try:
        docs = conn.execute("SELECT COUNT(*) FROM documents").fetchall()[0][0]
        creates = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT rel_path) FROM change_journal WHERE kind = 'create'"
        ).fetchall()[0]
        others = conn.execute("SELECT COUNT(*) FROM change_journal WHERE kind != 'create'")
        assert creates == (docs, docs) and others.fetchall()[0][0] == 0
    finally:
        conn.close()
