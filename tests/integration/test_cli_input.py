"""Bad command lines are bad input: exit 1 with a VALIDATION (or INVALID_PATH) error, enveloped
under --json like every other error; never a silent guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


@pytest.fixture
def indexed(cli: Cli, tmp_path: Path) -> Cli:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nalpha beta\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    return cli


def test_usage_errors_exit_1_and_are_enveloped(cli: Cli) -> None:
    for argv in (["search", "x", "--bogus"], ["search"], ["nope"], [], ["search", "x", "-n"]):
        run = cli(*argv)
        assert run.code == 1, argv
        assert "Error:" in run.err and "usage:" in run.err
        enveloped = cli(*argv, "--json")
        assert enveloped.code == 1, argv
        assert_valid("error", enveloped.json())
        assert enveloped.json()["error"]["code"] == "VALIDATION"


def test_help_and_version_still_exit_0(cli: Cli) -> None:
    with pytest.raises(SystemExit) as info:
        cli("--version")
    assert info.value.code == 0


@pytest.mark.parametrize("option", ["--since", "--until"])
def test_a_signed_relative_date_is_a_clear_validation_error(indexed: Cli, option: str) -> None:
    for argv in ([option, "-5d"], [f"{option}=-5d"]):
        run = indexed("search", "alpha", *argv, "--json")
        assert run.code == 1
        error = run.json()["error"]
        assert error["code"] == "VALIDATION"
        assert "use '5d'" in error["message"]
    assert indexed("search", "alpha", option, "5d").code == 0


def test_empty_collection_path_is_refused(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["collection", "add", ""], ["collection", "add", "  "], ["init", ""]):
        run = cli(*argv, "--json")
        assert run.code == 1, argv
        assert run.json()["error"]["code"] == "VALIDATION"
    listing = cli.ok("collection", "list", "--json").json()
    assert listing["collections"] == []


def test_broad_roots_are_refused_unless_allowed(cli: Cli, tmp_path: Path) -> None:
    for root in ("/tmp", "/home", "/opt", "/boot"):
        if not Path(root).is_dir():
            continue
        run = cli("collection", "add", root, "--json")
        assert run.code == 1, root
        error = run.json()["error"]
        assert (error["code"], error["details"]["code"]) == ("INVALID_PATH", "BROAD_ROOT")
        assert "--allow-broad-root" in error["message"]
    allowed = cli.ok("collection", "add", "/tmp", "--allow-broad-root", "--name", "tmp", "--json")
    assert allowed.json()["path"] == str(Path("/tmp").resolve())
    cli.ok("collection", "remove", "tmp")  # else the next root would overlap it
    notes = tmp_path / "notes"
    notes.mkdir()
    cli.ok("collection", "add", str(notes))  # a folder under /tmp stays fine
