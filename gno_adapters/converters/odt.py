"""ODT (OpenDocument text) read from its ``content.xml`` with the standard library's XML
parser (streamed, so depth is not recursion): ``text:h`` headings at their outline level,
paragraphs, nested lists and tables. odfpy builds a full DOM of the same XML and is slower;
the format needs nothing else."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gno_adapters.converters.common import ConversionFailure, Output, check_zip, one_line, table
from gno_core.ports.converters import ConvertLimits

NAME = "odf-xml"
#: the standard library's XML parser: nothing to install, this module's own version
LIBRARY, DIST = "xml.etree.ElementTree", None
VERSION = "1"

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def _q(ns: str, name: str) -> str:
    return f"{{{ns}}}{name}"


def convert(data: bytes, limits: ConvertLimits) -> Output:
    archive = check_zip(data, limits)
    names = archive.namelist()
    if "content.xml" not in names:
        raise ConversionFailure("CONVERSION_ERROR", "Not an ODT (no content.xml)")
    manifest = archive.read("META-INF/manifest.xml") if "META-INF/manifest.xml" in names else b""
    if b"encryption-data" in manifest:
        raise ConversionFailure("ENCRYPTED", "Encrypted ODT (needs a password)")
    out = Output()
    lists = 0
    rows: list[list[str]] | None = None
    cell: list[str] | None = None
    heading, para = _q(_TEXT, "h"), _q(_TEXT, "p")
    try:
        with archive.open("content.xml") as stream:
            for event, element in ET.iterparse(stream, events=("start", "end")):
                tag = element.tag
                if event == "start":
                    if tag == _q(_TEXT, "list"):
                        lists += 1
                    elif tag == _q(_TABLE, "table"):
                        rows = []
                    elif tag == _q(_TABLE, "table-row") and rows is not None:
                        rows.append([])
                    elif tag == _q(_TABLE, "table-cell") and rows is not None:
                        cell = []
                    continue
                if tag in (heading, para):
                    content = one_line("".join(element.itertext()))
                    if cell is not None:
                        cell.append(content)
                    elif content and tag == heading:
                        out.heading(int(element.get(_q(_TEXT, "outline-level"), "1") or 1), content)
                    elif content and lists:
                        line = "  " * (lists - 1) + "- " + content
                        if out.lines and out.lines[-1].lstrip().startswith("- "):
                            out.lines.append(line)
                        else:
                            out.block(line)
                    elif content:
                        out.block(content)
                    element.clear()
                elif tag == _q(_TEXT, "list"):
                    lists -= 1
                elif tag == _q(_TABLE, "table-cell") and rows is not None and cell is not None:
                    rows[-1].append(" ".join(cell))
                    cell = None
                elif tag == _q(_TABLE, "table") and rows is not None:
                    lines = table(rows)
                    if lines:
                        out.block(*lines)
                    rows = None
    except ET.ParseError as exc:
        raise ConversionFailure("CONVERSION_ERROR", f"Unreadable ODT: {exc}") from None
    return out
