"""``query --diagnose``: a filtered-out target is explained in words, an eligible one gets a
receipt per stage, an unknown one says how to find it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import build
from gno_core.contracts.evidence_requests import DiagnoseRequest
from tests.evidence.support import evidence_adapters
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer


@pytest.fixture(scope="module")
def made() -> Any:
    return evidence_adapters()


def run(made: Any, **fields: Any) -> dict[str, Any]:
    with build(made) as gno:
        result: dict[str, Any] = gno.query_diagnose(DiagnoseRequest(**fields)).wire()
    assert_valid("query-diagnose", result)
    return result


def test_filtered_out_target_names_the_filter_and_the_values(made: Any) -> None:
    result = run(made, query="foam links", target="notes/foam.md", tags_all=["work"])
    assert result["target"]["status"] == "filtered_out"
    assert result["target"]["filterReasons"] == ["it lacks the required tag(s) work (it has tools)"]
    assert "never reached ranking" in result["summary"]
    excluded = run(made, query="foam", target="notes/foam.md", exclude=["wikilinks"])
    assert excluded["target"]["filterReasons"] == ["it contains the excluded term(s) wikilinks"]


def test_eligible_target_gets_a_receipt_per_stage(made: Any) -> None:
    result = run(made, query="foam wikilinks", target="gno://notes/foam.md")
    assert result["target"]["status"] == "diagnosed"
    stages = {s["id"]: s for s in result["stages"]}
    assert list(stages) == ["bm25", "vector", "fusion", "graph", "rerank"]
    assert stages["bm25"]["present"] and stages["bm25"]["rank"] == 1
    assert stages["fusion"]["survived"] is True
    assert "returned at rank 1" in result["summary"]


def test_a_target_below_the_limit_is_below_cutoff(made: Any) -> None:
    result = run(made, query="foam notes", target="notes/obsidian.md", limit=1)
    fusion = next(s for s in result["stages"] if s["id"] == "fusion")
    assert (fusion["rank"], fusion["survived"], fusion["dropReason"]) == (2, False, "below_cutoff")
    assert result["summary"].endswith("below the limit of 1. Raise limit or refine the query.")


def test_unknown_target_is_not_found_with_advice(made: Any) -> None:
    result = run(made, query="x", target="notes/none.md")
    assert result["target"]["status"] == "not_found"
    assert "gno ls" in result["summary"]


def test_mcp_tool(made: Any) -> None:
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    result = peer.request(
        "tools/call",
        {
            "name": "gno_query_diagnose",
            "arguments": {"query": "foam", "target": "notes/foam.md", "tagsAll": ["work"]},
        },
    )["result"]
    assert_valid("query-diagnose", result["structuredContent"])
    assert "filtered: it lacks the required tag(s) work" in result["content"][0]["text"]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_cli_query_diagnose(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("---\ntags: [home]\n---\n# A\n\nalpha beta\n", "utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    out = cli.ok("query", "alpha", "--tags-all", "work", "--diagnose", "notes/a.md").out
    assert "filtered_out" in out
    assert "it lacks the required tag(s) work (it has home)" in out


def test_target_carries_its_categories_and_the_chunk_its_seq() -> None:
    """query-diagnose@1.x names the target's ``categories`` and the selected ``chunk``'s
    ``seq`` (its place among the document's chunks), as the reference contract has them."""
    made = evidence_adapters(
        {
            "guide.md": "---\ncategories: [Guide, howto]\n---\n# Guide\n\nFoam guide text.\n",
            "other.md": "# Other\n\nNothing here.\n",
        }
    )
    result = run(made, query="foam guide", target="notes/guide.md")
    assert result["target"]["categories"] == ["Guide", "howto"]  # as search results give them
    assert result["chunk"]["seq"] == 0
    plain = run(made, query="nothing", target="notes/other.md")
    assert "categories" not in plain["target"]
