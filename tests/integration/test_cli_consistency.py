"""Issue 23: the CLI agrees with itself and the README (typed errors instead of tracebacks or
silent empty answers, suggestions for typos, the hints and the flags the README names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")
    monkeypatch.chdir(tmp_path)
    run = Cli(tmp_path / "home", monkeypatch, capsys)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nSee [[b]].\n", encoding="utf-8")
    (notes / "b.md").write_text("# B\n\nTomatoes need full sun.\n", encoding="utf-8")
    run.ok("collection", "add", str(notes), "--name", "notes")
    run.ok("update")
    return run


def test_graph_html_into_a_missing_folder_is_a_typed_error(cli: Cli, tmp_path: Path) -> None:
    run = cli("graph", "--html", "nodir/g.html")
    assert run.code == 1
    assert "Traceback" not in run.err
    assert "nodir" in run.err and "does not exist" in run.err
    assert not (tmp_path / "nodir").exists()
    as_json = cli("graph", "--html", "nodir/g.html", "--json").json()
    assert as_json["error"]["code"] == "PATH_NOT_FOUND"
    assert as_json["error"]["details"]["path"].endswith("g.html")
    cli.ok("graph", "--html", "g.html")
    assert (tmp_path / "g.html").read_text(encoding="utf-8").startswith("<!doctype html>")


def test_multi_get_glob_that_matches_nothing_says_so(cli: Cli) -> None:
    pattern = "notes/that/matches/*nothing*"
    run = cli("multi-get", pattern)
    assert run.code == 1  # NOT_FOUND's exit code
    assert run.out == ""
    assert f"No document matches {pattern}" in run.err
    as_json = cli("multi-get", pattern, "--json")
    assert as_json.code == 1
    assert_valid("multi-get", as_json.json())
    assert as_json.json()["documents"] == []
    found = cli.ok("multi-get", "notes/*.md")
    assert "Tomatoes" in found.out
