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


def test_collection_add_hints_the_readme_next_step(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "more").mkdir()
    hint = cli.ok("collection", "add", str(tmp_path / "more"), "--name", "more").out
    assert "Next: gno index " in hint and "Next: gno update" not in hint
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    flow = readme.split("## Using it", 1)[1].splitlines()
    added = next(i for i, line in enumerate(flow) if line.startswith("gno collection add"))
    assert flow[added + 1].startswith("gno index ")
    (tmp_path / "again").mkdir()
    init = cli.ok("init", str(tmp_path / "again"), "--name", "again").out
    assert "Next: gno index " in init


def test_every_exit_code_is_documented_alike(cli: Cli) -> None:
    from gno_cli.commands.serve import NOT_RUNNING
    from gno_cli.exit_codes import (
        AUDIT_FINDINGS,
        AUDIT_PARTIAL,
        MEANINGS,
        error_codes,
        help_text,
        markdown_table,
    )

    # statuses a command returns itself, not an error code's: serve/daemon, gno audit
    used = set(error_codes()) | {0, NOT_RUNNING, AUDIT_FINDINGS, AUDIT_PARTIAL, 130, 141}
    assert used == set(MEANINGS), "an exit status without its meaning (gno_cli/exit_codes.py)"
    assert {3, 4} <= used
    root = Path(__file__).resolve().parents[2]
    table = markdown_table()
    assert table in (root / "README.md").read_text(encoding="utf-8")
    assert table in (root / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    from gno_cli.main import build_parser

    shown = build_parser().format_help()
    assert help_text() in shown
    assert all(f"\n  {status:<4d} " in shown for status in MEANINGS)


def test_collection_flag_on_every_command_that_takes_collections(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "c.md").write_text("# C\n\nOther sun.\n", encoding="utf-8")
    cli.ok("collection", "add", str(tmp_path / "other"), "--name", "other")
    synced = cli.ok("update", "-c", "other", "--json").json()
    assert [c["collection"] for c in synced["collections"]] == ["other"]
    both = cli.ok("update", "--collection", "other", "-c", "notes", "--json").json()
    assert sorted(c["collection"] for c in both["collections"]) == ["notes", "other"]
    positional = cli.ok("update", "other", "--json").json()  # the positional alias stays
    assert [c["collection"] for c in positional["collections"]] == ["other"]
    indexed = cli.ok("index", "-c", "other", "--no-embed").out
    assert "1 unchanged" in indexed  # other alone: notes has two files
    listed = cli.ok("ls", "-c", "other", "--json").json()
    assert [d["uri"] for d in listed["documents"]] == ["gno://other/c.md"]
    assert cli.ok("ls", "other", "--json").json() == listed
    assert cli.ok("ls", "-c", "notes", "a", "--json").json()["meta"]["prefix"] == "a"
    assert cli("ls", "-c", "nope").code == 1
    capsule = cli.ok("context", "sun", "-c", "other", "--budget", "2000", "--json").json()
    assert capsule["scope"]["collections"] == ["other"]


def test_collection_is_repeatable_only_where_several_are_taken(cli: Cli, tmp_path: Path) -> None:
    """``-c`` names several collections on the commands that take several (update, embed,
    index, context, watch); search, query, ask, ls, graph, tags and capture take one, and a second
    ``-c`` there was silently dropped (the last won): it is refused, naming it."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "c.md").write_text("# C\n\nTomatoes again.\n", encoding="utf-8")
    cli.ok("collection", "add", str(other), "--name", "other")
    cli.ok("update", "-c", "notes", "-c", "other")
    scope = cli.ok(
        "context", "tomatoes", "--budget", "3000", "-c", "notes", "-c", "other", "--json"
    ).json()["scope"]
    assert scope["collections"] == ["notes", "other"]
    for argv in (
        ("search", "tomatoes"),
        ("vsearch", "tomatoes"),
        ("query", "tomatoes"),
        ("ask", "tomatoes?"),
        ("ls",),
        ("tags",),
        ("graph",),
        ("backlinks", "notes/b.md"),
        ("capture", "text"),
    ):
        run = cli(*argv, "-c", "notes", "-c", "other")
        assert run.code == 1, argv
        assert "one collection" in run.err and "'other'" in run.err, (argv, run.err)
    assert "notes/b.md" in cli.ok("search", "tomatoes", "-c", "notes", "-c", "notes").out
