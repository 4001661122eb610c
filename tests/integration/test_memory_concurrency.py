"""Remembers from several processes at once on one memory: the write lease serialises them, the
duplicate check runs again under it, so no fact is lost, none is stored twice, and every
failure is typed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.integration.cli_helpers import run_gno

WRITERS = 3
FACTS_EACH = 4
SHARED = "Everyone agrees the build is green on Fridays"


def remember_loop(env: dict[str, str], writer: int) -> subprocess.Popen[str]:
    """One process remembering its own facts and, in the middle, the shared one."""
    script = (
        "import json, sys\n"
        "from gno_cli.main import main\n"
        f"texts = [f'Writer {writer} fact {{i}} about topic {writer}x{{i}}' for i in "
        f"range({FACTS_EACH})]\n"
        f"texts.insert({FACTS_EACH // 2}, {SHARED!r})\n"
        "codes = []\n"
        "for text in texts:\n"
        "    codes.append(main(['remember', text, '-c', 'mem', '--scope', 'team', '--add',\n"
        f"                       '--caller', 'w{writer}', '--session', 's{writer}', '--json']))\n"
        "sys.exit(max(codes))\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_concurrent_remembers_lose_nothing_and_store_nothing_twice(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
        "GNO_EMBED_MODEL": "none",
    }
    folder = tmp_path / "memory"
    folder.mkdir()
    assert (
        run_gno(env, "collection", "add", str(folder), "--name", "mem", "--memory").returncode == 0
    )
    procs = [remember_loop(env, w) for w in range(WRITERS)]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        for line in out.splitlines():
            assert "Traceback" not in line
    results = []
    decoder = json.JSONDecoder()
    for out, _ in outputs:
        text, pos = out.strip(), 0
        while pos < len(text):
            obj, end = decoder.raw_decode(text, pos)
            results.append(obj)
            pos = end
            while pos < len(text) and text[pos].isspace():
                pos += 1
    outcomes = [r["outcome"] for r in results]
    assert outcomes.count("added") == WRITERS * FACTS_EACH + 1
    assert outcomes.count("existing") == WRITERS - 1
    files = sorted((folder / "facts").rglob("*.md"))
    assert len(files) == WRITERS * FACTS_EACH + 1
    shared = [f for f in files if SHARED in f.read_text(encoding="utf-8")]
    assert len(shared) == 1
    status = json.loads(run_gno(env, "status", "--json").stdout)
    assert status["memory"]["currentFacts"] == WRITERS * FACTS_EACH + 1
    recall = run_gno(env, "recall", "build green Fridays", "-c", "mem", "--scope", "team", "--json")
    assert next(f["text"] for f in json.loads(recall.stdout)["facts"]) == SHARED
