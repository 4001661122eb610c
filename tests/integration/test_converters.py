"""Converted formats end to end (real CLI, sandboxed converter process, SQLite): samples from
``shared/data/converter-samples`` and documents built by the tests are searchable, anchored to
the right line of their Markdown mirror, and a hostile set is reported within its bounds while
the sync finishes and the index process stays small."""

from __future__ import annotations

import io
import resource
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests import docgen
from tests.integration.cli_helpers import Cli

pytest.importorskip("pypdfium2")
pytest.importorskip("mammoth")
pytest.importorskip("openpyxl")
pytest.importorskip("pptx")
pytest.importorskip("selectolax")

INCLUDE = ".pdf,.docx,.xlsx,.pptx,.html,.htm,.odt"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def _limits(cli: Cli, **ingest: object) -> None:
    """Set ``ingest`` keys in the index config (camelCase, as a user writes them)."""
    from ruamel.yaml import YAML

    path = cli.home / "config" / "index.yml"
    yaml = YAML()
    data = yaml.load(path.read_text(encoding="utf-8"))
    data.setdefault("ingest", {}).update(ingest)
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def _search(cli: Cli, query: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = cli.ok("search", query, "--json").json()["results"]
    return results


def _line(cli: Cli, uri: str, line: int) -> str:
    got = cli.ok("get", f"{uri}:{line}", "-l", "1", "--json").json()
    content: str = got["content"]
    return content


def _page_of(cli: Cli, uri: str, line: int) -> str:
    """The ``## Page N`` / ``## Slide N`` / ``## Sheet`` heading above ``line`` of the mirror."""
    content = cli.ok("get", uri, "--json").json()["content"].split("\n")
    return next(ln for ln in reversed(content[:line]) if ln.startswith("## "))


def test_generated_documents_are_searchable_at_the_right_line(cli: Cli, tmp_path: Path) -> None:
    import openpyxl
    from pptx import Presentation

    root = tmp_path / "docs"
    root.mkdir()
    pages = [[f"Page one filler line {i}" for i in range(5)], ["Filler on the second page"] * 3]
    pages[1].append("The quarterly aurora budget was approved on page two.")
    (root / "report.pdf").write_bytes(docgen.pdf(pages))
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Costs"
    sheet.append(["Item", "Amount"])
    sheet.append(["Marmalade", 42])
    book.create_sheet("Other").append(["nothing", "here"])
    buf = io.BytesIO()
    book.save(buf)
    (root / "costs.xlsx").write_bytes(buf.getvalue())
    deck = Presentation()
    for title, bullet in [("Intro", "hello"), ("Roadmap", "Zeppelin launch in spring")]:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = bullet
    buf = io.BytesIO()
    deck.save(buf)
    (root / "deck.pptx").write_bytes(buf.getvalue())
    (root / "page.html").write_text(
        "<html><head><title>Saved page</title><script>var hidden = 1;</script></head><body>"
        "<h1>Saved</h1><ul><li>one</li><li>nested<ul><li>quokka item</li></ul></li></ul>"
        "<table><tr><th>k</th><th>v</th></tr><tr><td>walrus</td><td>7</td></tr></table>"
        "</body></html>",
        encoding="utf-8",
    )
    cli.ok("collection", "add", str(root), "--name", "docs", "--include", INCLUDE)
    synced = cli.ok("update", "--json").json()
    assert synced["totalAdded"] == 4 and synced["totalFailed"] == 0, synced

    (hit,) = _search(cli, "aurora budget")
    assert hit["uri"] == "gno://docs/report.pdf"
    assert hit["conversion"]["converterId"] == "convert/pypdfium2"
    assert "aurora budget" in _line(cli, hit["uri"], hit["line"])
    assert _page_of(cli, hit["uri"], hit["line"]) == "## Page 2"

    (hit,) = _search(cli, "marmalade")
    assert _line(cli, hit["uri"], hit["line"]) == "| Marmalade | 42 |\n"
    assert _page_of(cli, hit["uri"], hit["line"]) == "## Sheet: Costs"

    (hit,) = _search(cli, "zeppelin")
    assert _page_of(cli, hit["uri"], hit["line"]).startswith("## Slide 2: Roadmap")

    (hit,) = _search(cli, "walrus")
    assert _line(cli, hit["uri"], hit["line"]) == "| walrus | 7 |\n"
    assert hit["title"] == "Saved page"
    assert _search(cli, "quokka")[0]["uri"] == "gno://docs/page.html"
    assert _search(cli, "hidden") == []
    got = cli.ok("get", "gno://docs/page.html", "--json").json()
    assert "  - quokka item" in got["content"]
    assert got["conversion"]["converterId"] == "convert/selectolax"
    assert got["conversion"]["warnings"] == []
    # A converted file's line numbers are the mirror's, and every reader is told so.
    assert got["coordinateSpace"] == "canonical_mirror"
    assert got["conversion"]["coordinateSpace"] == "canonical_mirror"
    assert "line numbers count lines of this mirror" in cli.ok("get", "docs/page.html").err
    assert hit["conversion"]["coordinateSpace"] == "canonical_mirror"


def test_every_sample_converts(cli: Cli, shared_data: Path, tmp_path: Path) -> None:
    samples = shared_data / "converter-samples"
    if not samples.is_dir():
        pytest.skip("converter samples not available")
    root = tmp_path / "samples"
    shutil.copytree(samples, root, ignore=shutil.ignore_patterns("_sources", "*.tex"))
    cli.ok("collection", "add", str(root), "--name", "samples", "--include", INCLUDE)
    synced = cli.ok("update", "--json").json()
    failures = {f["relPath"]: f["code"] for f in synced["collections"][0]["failures"]}
    # The one sample that cannot convert without its password is reported as such.
    assert failures == {
        "pdf/py-pdf-sample-files/005-libreoffice-writer-password/libreoffice-writer-password.pdf": "ENCRYPTED"
    }
    assert synced["totalAdded"] >= 100

    # A sentence from page 2 of the 117-page lecture script (German).
    hits = _search(cli, '"Mitschriften aus der Vorlesung"')
    hit = next(h for h in hits if h["uri"].endswith("GeoTopo-komprimiert.pdf"))
    assert "Mitschriften aus der Vorlesung" in _line(cli, hit["uri"], hit["line"])
    assert _page_of(cli, hit["uri"], hit["line"]) == "## Page 2"
    # A table cell of a DOCX.
    hits = [
        h
        for h in _search(cli, '"Bottom right"')
        if h["uri"].endswith("mammoth/tests/test-data/tables.docx")
    ]
    assert hits
    assert _line(cli, hits[0]["uri"], hits[0]["line"]) == "| Bottom left | Bottom right |\n"


def test_hostile_files_are_reported_within_their_bounds(cli: Cli, tmp_path: Path) -> None:
    root = tmp_path / "hostile"
    root.mkdir()
    (root / "bomb.docx").write_bytes(docgen.docx_zip_bomb())
    (root / "objects.pdf").write_bytes(docgen.pdf_million_objects())
    (root / "deep.html").write_bytes(docgen.deep_html())
    (root / "cells.xlsx").write_bytes(docgen.xlsx_empty_cells())
    (root / "fake.pdf").write_bytes(docgen.fake_pdf())
    (root / "fine.pdf").write_bytes(docgen.pdf([["a perfectly ordinary pangolin"]]))
    cli.ok("collection", "add", str(root), "--name", "hostile", "--include", INCLUDE)
    _limits(cli, maxFileBytes=64 * 1024 * 1024, convertSeconds=10, maxCells=200_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    synced = cli.ok("update", "--json").json()
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    failures = {f["relPath"]: f["code"] for f in synced["collections"][0]["failures"]}
    # PDFium on a million objects runs into the time bound, or the memory bound first on a
    # machine fast enough to allocate 1 GiB within it: either is the file's bounded failure.
    assert failures.pop("objects.pdf") in ("CONVERSION_TIMEOUT", "CONVERSION_MEMORY"), synced
    assert failures == {
        "bomb.docx": "CONVERSION_MEMORY",
        "cells.xlsx": "TOO_MANY_CELLS",
        "fake.pdf": "CONVERSION_ERROR",
    }, synced
    assert synced["totalAdded"] == 2  # deep.html (unwrapped) and fine.pdf
    assert _search(cli, "pangolin")[0]["uri"] == "gno://hostile/fine.pdf"
    (deep,) = _search(cli, "deep text")
    assert deep["uri"] == "gno://hostile/deep.html"
    assert deep["conversion"]["warnings"] == [
        "Elements nested deeper than 512 levels were unwrapped"
    ]
    # The files were parsed in the converter process: this one only read their bytes.
    assert grown_mib < 300, grown_mib
    # Unchanged failures are not converted again.
    again = cli.ok("update", "--json").json()
    assert again["totalFailed"] == 4 and again["collections"][0]["failures"] == []


def test_a_missing_converter_is_named(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gno_adapters.converters import registry

    installed = registry.available
    monkeypatch.setattr(registry, "available", lambda ext: ext in (".html", ".htm"))
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.pdf").write_bytes(docgen.pdf([["pangolin"]]))
    cli.ok("collection", "add", str(root), "--name", "docs", "--include", ".pdf")
    (failure,) = cli.ok("update", "--json").json()["collections"][0]["failures"]
    assert failure["code"] == "CONVERTER_MISSING"
    assert "gno[convert]" in failure["message"]
    # Still missing: the unchanged file is not read again.
    assert cli.ok("update", "--json").json()["totalFailed"] == 1
    # Once the converter is installed, the unchanged file is converted at the next sync.
    monkeypatch.setattr(registry, "available", installed)
    synced = cli.ok("update", "--json").json()
    assert (synced["totalAdded"], synced["totalFailed"]) == (1, 0), synced
    assert _search(cli, "pangolin")[0]["uri"] == "gno://docs/a.pdf"


def test_the_sandbox_converts_exactly_as_in_process() -> None:
    from gno_adapters.converters.registry import InProcessConverters
    from gno_adapters.converters.sandbox import SandboxedConverters
    from gno_core.errors import IngestError
    from gno_core.ports.converters import ConvertLimits

    files = {
        ".pdf": docgen.pdf([["first page"], ["second page"]]),
        ".docx": docgen.docx(["Title", "body"], [["a", "b"], ["c", "d"]]),
        ".odt": docgen.odt("Head", ["para"]),
        ".html": docgen.deep_html(2000),
    }
    sandbox, local = SandboxedConverters(), InProcessConverters()
    try:
        for ext, data in files.items():
            assert sandbox.convert(data, ext, "x" + ext, ConvertLimits()) == local.convert(
                data, ext, "x" + ext, ConvertLimits()
            )
        for converter in (sandbox, local):
            with pytest.raises(IngestError) as failed:
                converter.convert(docgen.fake_pdf(), ".pdf", "fake.pdf", ConvertLimits())
            assert failed.value.reason == "CONVERSION_ERROR"
            assert failed.value.details["relPath"] == "fake.pdf"
    finally:
        sandbox.close()
        local.close()
