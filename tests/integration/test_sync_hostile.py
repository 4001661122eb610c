"""Sync end to end through the CLI (real walker, parser and SQLite index) on trees that change
under it or hold names and files it cannot index as such."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gno_adapters.files.walker import LocalSourceTree
from tests.integration.cli_helpers import Cli


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("# Alpha\n\nBody a.\n", encoding="utf-8")
    (root / "b.md").write_text("# Bravo\n\nBody b.\n", encoding="utf-8")
    return root


def _status_failures(cli: Cli) -> tuple[int, list[str]]:
    status = cli.ok("status", "--json").json()
    (coll,) = status["collections"]
    return coll["failedCount"], [e["relPath"] for e in status["recentErrors"]]


def test_a_file_that_vanished_mid_sync_is_not_failed_forever(
    cli: Cli, notes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli.ok("collection", "add", str(notes), "--name", "notes")
    real_read = LocalSourceTree.read

    def vanishing_read(self: LocalSourceTree, abs_path: str, max_bytes: int) -> bytes:
        if abs_path.endswith("b.md"):
            os.unlink(abs_path)  # gone between the walk and the read
        return real_read(self, abs_path, max_bytes)

    monkeypatch.setattr(LocalSourceTree, "read", vanishing_read)
    first = cli.ok("update", "--json").json()["collections"][0]
    assert [(f["relPath"], f["code"]) for f in first["failures"]] == [("b.md", "UNREADABLE")]
    assert "file disappeared" in first["failures"][0]["message"]
    monkeypatch.setattr(LocalSourceTree, "read", real_read)

    again = cli.ok("update", "--json").json()["collections"][0]
    assert (again["failed"], again["failures"], again["unchanged"]) == (0, [], 1)
    assert _status_failures(cli) == (0, [])
    assert cli.ok("update", "--json").json()["totalFailed"] == 0


def test_a_failure_ends_when_its_file_is_deleted_or_fixed(cli: Cli, notes: Path) -> None:
    (notes / "bin.md").write_bytes(b"\x00binary")
    (notes / "enc.md").write_bytes(b"caf\xe9\n")
    cli.ok("collection", "add", str(notes), "--name", "notes")
    assert cli.ok("update", "--json").json()["totalFailed"] == 2
    assert _status_failures(cli)[0] == 2

    (notes / "bin.md").unlink()
    (notes / "enc.md").write_text("café\n", encoding="utf-8")
    result = cli.ok("update", "--json").json()
    assert (result["totalFailed"], result["totalAdded"]) == (0, 1)
    assert _status_failures(cli) == (0, [])


def test_names_that_are_not_utf8_are_reported_not_skipped(cli: Cli, notes: Path) -> None:
    base = os.fsencode(notes)
    with open(base + b"/latin1_\xff.md", "wb") as fh:
        fh.write(b"# Latin-1 name\n")
    os.mkdir(base + b"/caf\xe9")
    with open(base + b"/caf\xe9/inner.md", "wb") as fh:
        fh.write(b"# Inner\n")
    with open(base + b"/skipped_\xff.png", "wb") as fh:
        fh.write(b"not matched by the pattern: not reported either")
    cli.ok("collection", "add", str(notes), "--name", "notes")

    result = cli.ok("update", "--json").json()["collections"][0]
    failures = {f["relPath"]: f for f in result["failures"]}
    assert {p: f["code"] for p, f in failures.items()} == {
        "caf\\xe9/": "FILENAME_ENCODING",
        "latin1_\\xff.md": "FILENAME_ENCODING",
    }
    assert "nothing under it is indexed" in failures["caf\\xe9/"]["message"]
    assert (result["added"], result["failed"]) == (2, 2)
    count, listed = _status_failures(cli)
    assert count == 2 and sorted(listed) == ["caf\\xe9/", "latin1_\\xff.md"]
    text = cli.ok("update").out
    assert "2 failed" in text

    os.rename(base + b"/latin1_\xff.md", base + b"/latin1_\xc3\xbf.md")
    again = cli.ok("update", "--json").json()["collections"][0]
    assert (again["added"], again["failed"]) == (1, 1)
    assert cli.ok("get", "gno://notes/latin1_%C3%BF.md").out.startswith("# Latin-1 name")
    assert _status_failures(cli) == (1, ["caf\\xe9/"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_file_swapped_for_a_fifo_mid_sync_is_never_opened(
    cli: Cli, notes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli.ok("collection", "add", str(notes), "--name", "notes")
    real_read = LocalSourceTree.read
    opened: list[str] = []
    real_open = os.open

    def swapping_read(self: LocalSourceTree, abs_path: str, max_bytes: int) -> bytes:
        if abs_path.endswith("b.md"):
            os.unlink(abs_path)
            os.mkfifo(abs_path)  # no writer: a blocking open would wait forever
        return real_read(self, abs_path, max_bytes)

    def recording_open(path: str, flags: int, *args: int) -> int:
        opened.append(os.fspath(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(LocalSourceTree, "read", swapping_read)
    monkeypatch.setattr(os, "open", recording_open)
    result = cli.ok("update", "--json").json()["collections"][0]
    assert [(f["relPath"], f["code"]) for f in result["failures"]] == [("b.md", "UNREADABLE")]
    assert "Not a regular file" in result["failures"][0]["message"]
    assert not any(p.endswith("b.md") for p in opened)
