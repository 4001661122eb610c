"""``gno search`` prints from plain hits, without pydantic: the same lines, exit codes and
errors as through ``SearchRequest`` and the result contracts, and a new process that searches
imports no pydantic."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gno_core.contracts import fields
from tests.integration.cli_helpers import Cli

NOTES = {
    "alpha.md": "---\ntitle: Alpha notes\ntags: [x]\n---\n# Alpha\n\nalpha beta gamma\n\nmore alpha\n",
    "beta.md": "# Beta\n\nbeta only here, alpha once\n",
    "plain.txt": "alpha in a text file without a title\n",
    "empty-title.md": "no heading, alpha and beta\n",
}

ARGVS = [
    ["alpha"],
    ["alpha", "--files"],
    ["alpha", "--files", "-n", "2"],
    ["alpha", "-n", "1"],
    ["alpha", "--min-score", "0.9"],
    ["beta", "-c", "notes"],
    ["alpha", "--exclude", "gamma"],
    ["alpha", "--tags-all", "x"],
    ["alpha", "--since", "2000-01-01", "--path-prefix", "a"],
    ["latest alpha"],
    ["nothingmatches"],
    ['"alpha beta"'],
]
ERRORS = [
    ["alpha", "-n", "0"],
    ["alpha", "-n", "101"],
    ["alpha", "--min-score", "2"],
    ["   "],
    ["alpha", "-c", "nope"],
    ["alpha", "--since", "not a date"],
    ["a\udcff"],
]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    notes = tmp_path / "notes"
    notes.mkdir()
    for name, text in NOTES.items():
        (notes / name).write_text(text, encoding="utf-8")
    run = Cli(tmp_path / "home", monkeypatch, capsys)
    run.ok("collection", "add", str(notes), "--name", "notes", "--include", ".txt")
    run.ok("update")
    return run


def through_the_model(cli: Cli, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple:
    with monkeypatch.context() as m:
        m.setattr(fields, "plain_values", lambda specs, values: None)
        run = cli("search", *argv)
    return run.code, run.out, run.err


@pytest.mark.parametrize("argv", ARGVS + ERRORS)
def test_the_plain_path_prints_what_the_contract_path_prints(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    plain = cli("search", *argv)
    assert (plain.code, plain.out, plain.err) == through_the_model(cli, monkeypatch, argv)
    if argv in ERRORS:
        assert plain.code == 1 and plain.err.startswith("Error: ")
    else:
        assert plain.code == 0 and plain.out


def test_the_fixture_exercises_hits_with_and_without_titles_and_passages(cli: Cli) -> None:
    out = cli.ok("search", "alpha", "-n", "10").out
    assert " - Alpha notes" in out and "plain.txt" in out
    assert len(cli.ok("search", "alpha", "--files").out.splitlines()) == 4


def test_a_text_search_in_a_new_process_imports_no_pydantic(cli: Cli) -> None:
    # Nor the sync and link values, nor the ports a keyword search does not read.
    unused = (
        "pydantic",
        "gno_core.domain",
        "gno_adapters.sqlite.ledger",
        "gno_adapters.sqlite.links",
    )
    code = (
        "import sys; from gno_cli.main import main; rc = main(['search', 'alpha', '-n', '2']); "
        f"print(*[m in sys.modules for m in {unused!r}], rc)"
    )
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(cli.home / "config"),
        "GNO_DATA_DIR": str(cli.home / "data"),
        "GNO_CACHE_DIR": str(cli.home / "cache"),
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert "gno://notes/" in out
    assert out.splitlines()[-1].split() == ["False"] * len(unused) + ["0"]
