"""A CLI write that has to wait for the write lease says so at once, naming the holder (pid,
what it does, since when), instead of hanging silently."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from gno_adapters.bootstrap.local import open_gno
from tests.integration.cli_helpers import Cli


def test_a_waiting_capture_names_the_holder_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = Cli(tmp_path, monkeypatch, capsys)
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")
    notes = tmp_path / "notes"
    notes.mkdir()
    cli.ok("collection", "add", str(notes), "--name", "notes")
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with open_gno(None, None) as gno, gno.handle.writing(5, purpose="embed"):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert held.wait(10)
    threading.Timer(0.5, release.set).start()
    started = time.monotonic()
    run = cli.ok("capture", "A fact worth keeping", "--title", "Kept")
    assert time.monotonic() - started >= 0.4  # it did wait for the holder
    assert f"waiting for the write lease, held by pid {os.getpid()} (embed, since" in run.err
    holder.join(10)
