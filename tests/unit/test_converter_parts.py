"""The pure parts of the converters: Markdown tables, the HTML depth guard, the zip-bomb check."""

from __future__ import annotations

import io
import zipfile

import pytest

from gno_adapters.converters.common import ConversionFailure, check_zip, table
from gno_core.ports.converters import ConvertLimits

html = pytest.importorskip("gno_adapters.converters.html")


def test_tables_pad_ragged_rows_and_escape_pipes() -> None:
    assert table([["a", "b|c"], ["1"], [None, None]]) == [
        "| a | b\\|c |",
        "| --- | --- |",
        "| 1 |  |",
    ]
    assert table([]) == [] and table([[None]]) == []


def test_deep_nesting_is_unwrapped_in_linear_time() -> None:
    flat, removed = html.flatten("<div>" * 10 + "x" + "</div>" * 10, max_depth=3)
    assert removed and flat == "<div><div><div>x</div></div></div>"
    assert html.flatten("<p>a<p>b<br><img src=x>", max_depth=1) == (
        "<p>a<p>b<br><img src=x>",
        False,
    )
    # 200,000 levels: a quadratic unwrap would not finish (no timing here: the machine is
    # shared; benchmarks/converters.py measures the speed).
    flat, removed = html.flatten("<span>" * 200_000 + "x" + "</span>" * 200_000)
    assert removed and "x" in flat


def test_html_keeps_structure_and_drops_scripts() -> None:
    page = (
        b"<html><head><title>T</title><style>.x{}</style></head><body><h2>Part</h2>"
        b"<p>Para <b>bold</b> text.</p><ol><li>first</li><li>second<ul><li>inner</li></ul></li>"
        b"</ol><pre>code  line\n  indented</pre><script>alert(1)</script></body></html>"
    )
    out = html.convert(page, ConvertLimits())
    assert out.title == "T"
    assert out.markdown() == (
        "## Part\n\nPara bold text.\n\n- first\n- second\n  - inner\n\n"
        "```\ncode  line\n  indented\n```\n"
    )


def test_zip_bombs_and_non_zips_are_refused_before_inflating() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big", b"\0" * 2_000_000)
    with pytest.raises(ConversionFailure) as bomb:
        check_zip(buf.getvalue(), ConvertLimits(unzipped_bytes=1_000_000))
    assert bomb.value.reason == "CONVERSION_MEMORY"
    with pytest.raises(ConversionFailure) as junk:
        check_zip(b"not a zip", ConvertLimits())
    assert junk.value.reason == "CONVERSION_ERROR"
    assert check_zip(buf.getvalue(), ConvertLimits()).namelist() == ["big"]
