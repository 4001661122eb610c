"""Re-extraction (issue 22, item 4): which extractor made a document is part of its identity, so
installing, removing or upgrading a converter re-extracts the files it takes on the next
``gno update``, and ``gno update --force`` re-extracts everything; unchanged chunks keep their
vectors, and the summary counts each case."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_adapters.converters import registry
from gno_core.domain import SourceState
from tests.integration.cli_helpers import Cli

PAGE = (
    "<html><head><title>Page {n}</title></head><body><h1>Heading {n}</h1>"
    "<p>Paragraph about zebras number {n}.</p></body></html>\n"
)


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    for n in (1, 2, 3):
        (root / f"p{n}.html").write_text(PAGE.format(n=n), encoding="utf-8")
    (root / "note.md").write_text("# Note\n\nA zebra note #animals\n", encoding="utf-8")
    return root


def _without_converters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "available", lambda ext: False)


def test_installing_a_converter_reextracts_what_was_indexed_raw(
    cli: Cli, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as before:
        _without_converters(before)
        cli.ok("collection", "add", str(site), "--name", "s", "--include", ".html")
        assert cli.ok("update", "--json").json()["totalAdded"] == 4
        assert "<h1>" in cli.ok("get", "s/p1.html").out
        cli.ok("embed")
    vectors = cli.ok("status", "--json").json()
    # gno[convert] installed: the next update converts the three pages, and only them
    result = cli.ok("update", "--json").json()
    assert (result["totalUpdated"], result["totalUnchanged"]) == (3, 1)
    page = cli.ok("get", "s/p1.html").out
    assert "<h1>" not in page and "# Heading 1" in page
    hit = cli.ok("search", "zebras number 2", "--json").json()["results"][0]
    assert (
        hit["uri"] == "gno://s/p2.html" and hit["conversion"]["converterId"] == "convert/selectolax"
    )
    # the Markdown note kept its vectors: only the converted pages wait for embedding
    after = cli.ok("status", "--json").json()
    assert after["embeddingBacklog"] > 0
    assert after["embeddingBacklog"] < after["totalChunks"]
    assert vectors["embeddingBacklog"] == 0
    assert cli.ok("update", "--json").json()["totalUnchanged"] == 4  # settled
    # and uninstalling goes back to text, as a fresh index without converters would
    with monkeypatch.context() as gone:
        _without_converters(gone)
        assert cli.ok("update", "--json").json()["totalUpdated"] == 3
        assert "<h1>" in cli.ok("get", "s/p1.html").out


def test_an_upgraded_converter_reextracts(
    cli: Cli, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli.ok("collection", "add", str(site), "--name", "s", "--include", ".html")
    cli.ok("update")
    assert cli.ok("update", "--json").json()["totalUnchanged"] == 4
    real = registry.identity
    monkeypatch.setattr(registry, "identity", lambda ext: (real(ext)[0], real(ext)[1] + ".post1"))
    result = cli.ok("update", "--json").json()
    assert (result["totalUpdated"], result["totalUnchanged"]) == (3, 1)


def test_update_force_reextracts_everything_and_keeps_vectors(cli: Cli, site: Path) -> None:
    cli.ok("collection", "add", str(site), "--name", "s", "--include", ".html")
    cli.ok("update")
    cli.ok("embed")
    result = cli.ok("update", "--force", "--json").json()
    assert (result["totalUpdated"], result["totalUnchanged"]) == (4, 0)
    assert cli.ok("status", "--json").json()["embeddingBacklog"] == 0  # same text, same vectors
    assert cli.ok("update", "--json").json()["totalUnchanged"] == 4
    one = cli.ok("update", "s", "--force", "--json").json()
    assert one["totalUpdated"] == 4


def test_readding_a_collection_counts_the_reactivated(cli: Cli, site: Path) -> None:
    cli.ok("collection", "add", str(site), "--name", "s", "--include", ".html")
    cli.ok("update")
    cli.ok("collection", "remove", "s")
    cli.ok("collection", "add", str(site), "--name", "s", "--include", ".html")
    out = cli.ok("update").out
    assert "4 reactivated" in out
    assert "Total: 0 added, 0 updated, 4 reactivated," in out


def test_source_state_names_the_extractor() -> None:
    state = SourceState("a.md", "h", 1, 1, True, 4, converter_id="native/markdown")
    assert (state.converter_id, state.converter_version) == ("native/markdown", "")
