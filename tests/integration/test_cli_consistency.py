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


def test_a_typo_gets_a_suggestion(cli: Cli) -> None:
    run = cli("serach", "x")
    assert run.code == 1
    assert "did you mean 'search'?" in run.err
    assert "'daemon'" not in run.err  # the suggestion, not the 32 names
    nested = cli("collection", "ad", "x")
    assert nested.code == 1 and "did you mean 'add'?" in nested.err
    flag = cli("search", "x", "--colection", "notes")
    assert flag.code == 1
    assert "did you mean '--collection'?" in flag.err
    assert "gno search --help" in flag.err
    deep = cli("graph", "neighbors", "notes/a.md", "--limt", "3")
    assert deep.code == 1 and "did you mean '--limit'?" in deep.err
    as_json = cli("search", "x", "--colection", "notes", "--json").json()
    assert "did you mean '--collection'?" in as_json["error"]["message"]
    unknown = cli("zzzzqqq")
    assert unknown.code == 1 and "'search'" in unknown.err  # no close name: the list stays


def test_collection_not_found_lists_the_collections(cli: Cli) -> None:
    for argv in (
        ("search", "sun", "-c", "nope"),
        ("ls", "nope"),
        ("collection", "remove", "nope"),
        ("graph", "-c", "nope"),
    ):
        run = cli(*argv)
        assert run.code == 1, argv
        assert "Collection not found: nope (collections: notes)" in run.err, argv
        error = cli(*argv, "--json").json()["error"]
        assert error["code"] == "NOT_FOUND"
        assert error["details"] == {"collection": "nope", "available": ["notes"]}, argv


def test_collection_not_found_with_no_collections_says_how_to_add_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = Cli(tmp_path / "empty", monkeypatch, capsys)
    (tmp_path / "folder").mkdir()
    empty.ok("collection", "add", str(tmp_path / "folder"), "--name", "only")
    empty.ok("collection", "remove", "only")
    run = empty("collection", "remove", "nope")
    assert run.code == 1
    assert "(no collections yet: gno collection add <folder>)" in run.err

