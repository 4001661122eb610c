"""The pure parts of the converters: Markdown tables, the HTML depth guard, the zip-bomb check."""

from __future__ import annotations

import io
import struct
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


def _empty_members_zip(count: int) -> bytes:
    """A zip of ``count`` empty stored members, laid out by hand (``ZipFile.writestr`` takes
    seconds for 100,000)."""
    local, central = bytearray(), bytearray()
    for i in range(count):
        name = f"e/{i}".encode()
        offset = len(local)
        local += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0)
        local += name
        central += struct.pack(
            "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0,
            offset,
        )  # fmt: skip
        central += name
    cd_end = len(local) + len(central)
    zip64 = struct.pack(  # past 65,535 members the counts live in the ZIP64 end record
        "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(central), len(local)
    )
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, cd_end, 1)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(central), len(local), 0)
    return bytes(local + central + zip64 + locator + end)


def test_a_zip_of_100000_empty_members_is_refused_for_its_member_count() -> None:
    with pytest.raises(ConversionFailure) as many:
        check_zip(_empty_members_zip(100_000), ConvertLimits())
    assert many.value.reason == "CONVERSION_MEMORY"
    assert str(many.value) == "Archive has 100000 members, over the 10000-member limit"
    small = _empty_members_zip(3)
    assert len(check_zip(small, ConvertLimits(zip_members=3)).infolist()) == 3
    with pytest.raises(ConversionFailure) as fewer:
        check_zip(small, ConvertLimits(zip_members=2))
    assert str(fewer.value) == "Archive has 3 members, over the 2-member limit"
