"""Vault habits (issue 22, item 5): tool folders and deleted notes stay out of the index by
default, inline ``#tags`` are tags like frontmatter ones, ``gno tags`` sorts by count or name,
and a collection saved with an earlier release's default excludes follows the new default."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from gno_core.defaults import DEFAULT_EXCLUDES, PREVIOUS_DEFAULT_EXCLUDES
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def _vault(root: Path) -> Path:
    files = {
        "soup.md": "---\ntags: [food]\n---\n# Soup\n\nLentil soup for winter #recipe #dinner/quick\n",
        "bread.md": "# Bread\n\nSourdough every Sunday #recipe\n\n```\n#notatag in code\n```\n",
        "plans.md": "# Plans\n\nSee [the #list](soup.md) and [[bread#Bread]] for zucchini.\n",
        ".trash/zucchini.md": "# Zucchini\n\nA deleted zucchini note #recipe\n",
        ".obsidian/plugins/tool/README.md": "# Plugin\n\nzucchini plugin docs\n",
        ".foam/templates/daily.md": "# Daily template zucchini\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_tool_folders_and_trash_are_not_indexed(cli: Cli, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    cli.ok("collection", "add", str(vault), "--name", "v")
    result = cli.ok("update", "--json").json()
    assert result["totalAdded"] == 3
    hits = cli.ok("search", "zucchini", "--json").json()
    assert [h["uri"] for h in hits["results"]] == ["gno://v/plans.md"]
    listed = {d["uri"] for d in cli.ok("ls", "--json").json()["documents"]}
    assert not any("/.trash/" in u or "/.obsidian/" in u or "/.foam/" in u for u in listed)


def test_excludes_stay_overridable(cli: Cli, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    cli.ok("collection", "add", str(vault), "--name", "v", "--exclude", ".git")
    assert cli.ok("update", "--json").json()["totalAdded"] == 6


def test_inline_tags_are_tags(cli: Cli, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    cli.ok("collection", "add", str(vault), "--name", "v")
    cli.ok("update")
    listed = cli.ok("tags", "--json").json()
    assert_valid("tags-list", listed)
    counts = {t["tag"]: t["count"] for t in listed["tags"]}
    assert counts == {"recipe": 2, "food": 1, "dinner/quick": 1}
    assert next(t["tag"] for t in listed["tags"]) == "recipe"  # most used first
    by_name = cli.ok("tags", "--sort", "name", "--json").json()
    assert [t["tag"] for t in by_name["tags"]] == ["dinner/quick", "food", "recipe"]
    assert cli.ok("tags", "--sort", "name").out.splitlines()[0] == "dinner/quick (1)"
    found = cli.ok("search", "soup sourdough", "--tags-any", "recipe", "--json").json()
    assert {h["uri"] for h in found["results"]} == {"gno://v/soup.md", "gno://v/bread.md"}
    both = cli.ok("search", "lentil", "--tags-all", "recipe,food", "--json").json()
    assert [h["uri"] for h in both["results"]] == ["gno://v/soup.md"]
    nested = cli.ok("tags", "--prefix", "dinner/", "--json").json()
    assert [t["tag"] for t in nested["tags"]] == ["dinner/quick"]


def test_an_earlier_default_exclude_list_follows_the_new_default(cli: Cli, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    old = PREVIOUS_DEFAULT_EXCLUDES[-1]
    assert ".trash" not in old and ".trash" in DEFAULT_EXCLUDES
    cli.ok("collection", "add", str(vault), "--name", "v")
    # What an earlier release saved: its default list, spelled out in the config file.
    config = next((cli.home / "config").glob("*.yml"))
    yaml = YAML()
    data = yaml.load(config.read_text(encoding="utf-8"))
    data["collections"][0]["exclude"] = list(old)
    with config.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    assert ".trash" not in config.read_text(encoding="utf-8")
    assert cli.ok("update", "--json").json()["totalAdded"] == 3
    # a list the person changed is theirs: kept as written, so .trash is indexed
    cli.ok("collection", "remove", "v")
    cli.ok("collection", "add", str(vault), "--name", "w", "--exclude", ",".join((*old, "x")))
    assert cli.ok("update", "--json").json()["totalAdded"] == 6
