"""XLSX with openpyxl (read-only, values as last computed): a ``## Sheet: name`` heading per
sheet and its used rows as a Markdown table. Empty rows are dropped and rows are trimmed, and
the cells visited are counted against ``limits.cells``, so a sheet that declares a million
empty cells is refused quickly instead of being walked."""

from __future__ import annotations

import io

from gno_adapters.converters.common import ConversionFailure, Output, check_zip, table
from gno_core.ports.converters import ConvertLimits

NAME = "openpyxl"
#: the module imported, and the distribution whose version is recorded
LIBRARY, DIST = "openpyxl", "openpyxl"


def convert(data: bytes, limits: ConvertLimits) -> Output:
    import warnings

    import openpyxl

    archive = check_zip(data, limits)
    if "xl/workbook.xml" not in archive.namelist():
        raise ConversionFailure("CONVERSION_ERROR", "Not an XLSX (no xl/workbook.xml)")
    try:
        with warnings.catch_warnings():
            # openpyxl warns about features it drops (data validation, styles): not ours.
            warnings.simplefilter("ignore")
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for a broken workbook
        raise ConversionFailure("CONVERSION_ERROR", f"Unreadable XLSX: {exc}") from None
    out = Output()
    visited = 0
    try:
        for sheet in book.worksheets:
            rows: list[list[object]] = []
            for row in sheet.iter_rows(values_only=True):
                visited += len(row)
                if visited > limits.cells:
                    raise ConversionFailure(
                        "TOO_MANY_CELLS", f"Workbook has more than {limits.cells} cells"
                    )
                values = list(row)
                while values and values[-1] in (None, ""):
                    values.pop()
                if values:
                    rows.append(values)
            out.block(f"## Sheet: {sheet.title}")
            lines = table(rows)
            if lines:
                out.block(*lines)
    finally:
        book.close()
    return out
