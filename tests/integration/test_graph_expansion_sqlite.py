"""Graph expansion of ``gno query`` on the real SQLite index through the CLI: a note that only a
top result links to joins the results with its receipt under ``--graph``; ``--no-graph`` and the
default leave it out; a
rename of the linking note on disk moves the expansion with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid

NOTES = {
    "kiln.md": "# Kiln firing\n\nThe kiln reaches cone six. Recipes: [[glaze-notes]].\n",
    "glaze-notes.md": "# Glaze recipes\n\nCeladon and tenmoku, mixed by weight.\n",
    "clay.md": "# Clay bodies\n\nStoneware, see [the firing notes](kiln.md).\n",
    "bread.md": "# Bread\n\nSourdough with a long proof.\n",
}


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, monkeypatch, capsys)


def test_query_expands_one_hop_on_sqlite(cli: Cli, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name, text in NOTES.items():
        (vault / name).write_text(text, "utf-8")
    cli.ok("collection", "add", str(vault), "--name", "pots")
    cli.ok("update")

    res = cli.ok("query", "reaches", "--json", "--explain", "--no-rerank", "--graph").json()
    assert_valid("search-results", res)
    uris = [r["uri"] for r in res["results"]]
    # BM25 finds kiln.md only ("reaches"); its link and its backlink bring the two neighbours.
    assert uris[0] == "gno://pots/kiln.md"
    assert set(uris[1:]) == {"gno://pots/glaze-notes.md", "gno://pots/clay.md"}
    explain = res["meta"]["explain"]
    stage = next(e for e in explain if e["stage"] == "graph")
    assert stage["message"].startswith("seeds=1, candidates=2/2")
    receipts = {e["uri"]: e for e in explain if e["stage"] == "result"}
    glaze = receipts["gno://pots/glaze-notes.md"]
    assert "linked from seed #1 gno://pots/kiln.md" in glaze["message"]
    assert "links to seed #1 gno://pots/kiln.md" in receipts["gno://pots/clay.md"]["message"]
    assert glaze["scores"]["graphScore"] > 0

    off = cli.ok("query", "reaches", "--json", "--explain", "--no-rerank", "--no-graph").json()
    assert [r["uri"] for r in off["results"]] == ["gno://pots/kiln.md"]
    default = cli.ok("query", "reaches", "--json", "--no-rerank").json()  # off unless asked
    assert [r["uri"] for r in default["results"]] == ["gno://pots/kiln.md"]

    # The linking note renamed on disk: the expansion follows the new name after a sync.
    (vault / "kiln.md").rename(vault / "firing.md")
    cli.ok("update")
    moved = cli.ok("query", "reaches", "--json", "--no-rerank", "--graph").json()
    moved_uris = [r["uri"] for r in moved["results"]]
    assert moved_uris[0] == "gno://pots/firing.md" and "gno://pots/glaze-notes.md" in moved_uris
