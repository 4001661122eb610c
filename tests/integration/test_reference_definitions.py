"""Link reference definitions (issue 22: 2): ``[label]: dest "title"`` is a link from its line
and the uses ``[text][label]``, ``[label][]`` and ``[label]`` links from theirs, all shown by
``backlinks``; a rename rewrites the definition's destination (its title and the uses' lines
untouched), so no definition is left pointing at the old file (checked on a copy of foam-docs
by a reading of the definitions independent of gno's parser)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid

_DEF = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*(<[^<>]*>|\S+)")


def _definitions_to(root: Path, rel: str) -> list[tuple[str, int]]:
    """(file, line) of every definition whose relative destination is the file ``rel``,
    read from disk line by line outside fences (not through gno)."""
    found: list[tuple[str, int]] = []
    for path in sorted(root.rglob("*.md")):
        source = path.relative_to(root).as_posix()
        fence = False
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
                continue
            match = None if fence else _DEF.match(line)
            if match is None:
                continue
            dest = match.group(2).strip("<>").split("#")[0]
            if "://" in dest:
                continue
            joined = os.path.normpath(os.path.join(os.path.dirname(source), dest))
            if joined == rel:
                found.append((source, number))
    return found


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, monkeypatch, capsys)


def _backlinks(cli: Cli, ref: str) -> list[tuple[str, int]]:
    out = cli.ok("backlinks", ref, "--json").json()
    assert_valid("backlinks", out)
    return sorted(
        (b["sourceDocUri"].removeprefix("gno://foam/"), b["position"]["startLine"])
        for b in out["backlinks"]
    )


def test_foam_rename_leaves_no_definition_on_the_old_file(
    cli: Cli, tmp_path: Path, shared_data: Path
) -> None:
    root = tmp_path / "foam"
    shutil.copytree(shared_data / "foam-docs", root)
    old, new = "user/features/daily-notes.md", "user/features/journal-notes.md"
    defs = _definitions_to(root, old)
    assert len(defs) >= 5
    cli.ok("collection", "add", str(root), "--name", "foam")
    cli.ok("update")
    # Every definition naming the note is one of its backlinks, at the definition's line.
    assert set(defs) <= set(_backlinks(cli, f"foam/{old}"))
    text_before = {p: (root / p).read_text(encoding="utf-8") for p, _ in defs}
    cli.ok("rename", f"foam/{old}", "journal-notes", "--yes")
    assert not (root / old).exists() and (root / new).is_file()
    assert _definitions_to(root, old) == []
    assert sorted(_definitions_to(root, new)) == sorted(defs)
    for rel, line in defs:
        before = text_before[rel].split("\n")[line - 1]
        after = (root / rel).read_text(encoding="utf-8").split("\n")[line - 1]
        assert after == before.replace("daily-notes.md", "journal-notes.md")
    assert set(defs) <= set(_backlinks(cli, f"foam/{new}"))


VAULT = {
    "notes/target.md": "# Target\n",
    "notes/other.md": "# Other\n",
    "hub.md": (
        "# Hub\n\n"
        "Full [the target][t], collapsed [T][] and shortcut [t] uses.\n"
        "Another [text][Other].\n\n"
        '[t]: notes/target.md "The Target"\n'
        "[other]: <notes/other.md> 'Other'\n"
    ),
}


def test_uses_resolve_through_the_definition_and_rename_rewrites_only_it(
    cli: Cli, tmp_path: Path
) -> None:
    root = tmp_path / "vault"
    for rel, text in VAULT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(text.encode())
    cli.ok("collection", "add", str(root), "--name", "foam")
    cli.ok("update")
    # The three uses (line 3) and the definition (line 6).
    assert _backlinks(cli, "foam/notes/target.md") == [
        ("hub.md", 3),
        ("hub.md", 3),
        ("hub.md", 3),
        ("hub.md", 6),
    ]
    out = cli.ok("links", "foam/hub.md", "--json").json()
    assert_valid("links", out)
    assert [(link["linkType"], link["position"]["startLine"]) for link in out["links"]] == [
        ("markdown", 3),
        ("markdown", 3),
        ("markdown", 3),
        ("markdown", 4),
        ("markdown", 6),
        ("markdown", 7),
    ]
    before = (root / "hub.md").read_bytes()
    cli.ok("mv", "foam/notes/target.md", "moved", "--yes")
    after = (root / "hub.md").read_bytes()
    assert after == before.replace(
        b'[t]: notes/target.md "The Target"', b'[t]: moved/target.md "The Target"'
    )
    assert _backlinks(cli, "foam/moved/target.md") == [
        ("hub.md", 3),
        ("hub.md", 3),
        ("hub.md", 3),
        ("hub.md", 6),
    ]
