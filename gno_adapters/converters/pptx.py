"""PPTX with python-pptx: a ``## Slide N: title`` heading per slide, then its text frames
(paragraph levels as nested list items), tables, and the speaker notes."""

from __future__ import annotations

import io

from gno_adapters.converters.common import ConversionFailure, Output, check_zip, one_line, table
from gno_core.ports.converters import ConvertLimits

NAME = "python-pptx"
#: the module imported, and the distribution whose version is recorded
LIBRARY, DIST = "pptx", "python-pptx"


def convert(data: bytes, limits: ConvertLimits) -> Output:
    from pptx import Presentation

    archive = check_zip(data, limits)
    if "ppt/presentation.xml" not in archive.namelist():
        raise ConversionFailure("CONVERSION_ERROR", "Not a PPTX (no ppt/presentation.xml)")
    try:
        deck = Presentation(io.BytesIO(data))
    except Exception as exc:  # python-pptx raises many types for a broken package
        raise ConversionFailure("CONVERSION_ERROR", f"Unreadable PPTX: {exc}") from None
    out = Output()
    slides = list(deck.slides)
    if len(slides) > limits.pages:
        raise ConversionFailure("TOO_MANY_PAGES", f"More than {limits.pages} slides")
    for number, slide in enumerate(slides, 1):
        title_shape = slide.shapes.title
        title = one_line(title_shape.text_frame.text) if title_shape is not None else ""
        out.block(f"## Slide {number}" + (f": {title}" if title else ""))
        if number == 1 and title:
            out.title = title
        for shape in slide.shapes:
            if shape is title_shape:
                continue
            if shape.has_text_frame:
                items = [
                    "  " * min(p.level, 8) + "- " + text
                    for p in shape.text_frame.paragraphs
                    if (text := one_line("".join(r.text for r in p.runs)))
                ]
                if items:
                    out.block(*items)
            if getattr(shape, "has_table", False) and shape.has_table:
                rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
                lines = table(rows)
                if lines:
                    out.block(*lines)
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            text = one_line(notes.text) if notes is not None else ""
            if text:
                out.block(f"Notes: {text}")
    return out
