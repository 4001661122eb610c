"""PDF with pypdfium2 (PDFium's text layer): a ``## Page N`` heading per page, so a search hit
on page 2 anchors to a line under that heading. Measured on the 117-page sample
(009 GeoTopo-komprimiert.pdf): pypdfium2 1.1 s, pdfminer.six 56.7 s for the same text. A file
PDFium refuses as malformed (017 unreadablemetadata.pdf) is read again with pdfminer.six, which
is lenient about broken cross-reference tables; the sandbox's time limit bounds its slowness."""

from __future__ import annotations

from gno_adapters.converters.common import ConversionFailure, Output
from gno_core.ports.converters import ConvertLimits

NAME = "pypdfium2"
#: the module imported, and the distribution whose version is recorded
LIBRARY, DIST = "pypdfium2", "pypdfium2"


def convert(data: bytes, limits: ConvertLimits) -> Output:
    import pypdfium2 as pdfium

    if b"%PDF-" not in data[:1024]:
        raise ConversionFailure("CONVERSION_ERROR", "Not a PDF (no %PDF- header)")
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise ConversionFailure("ENCRYPTED", "Encrypted PDF (needs a password)") from None
        return _fallback(data, limits, message)
    out = Output()
    try:
        pages = len(doc)
        if pages > limits.pages:
            raise ConversionFailure(
                "TOO_MANY_PAGES", f"PDF has {pages} pages, over the {limits.pages}-page limit"
            )
        title = (doc.get_metadata_dict(skip_empty=True) or {}).get("Title")
        if title:
            out.title = " ".join(str(title).split())
        empty = 0
        for number in range(pages):
            page = doc[number]
            try:
                textpage = page.get_textpage()
                text = textpage.get_text_bounded()
                textpage.close()
            finally:
                page.close()
            lines = [" ".join(line.split()) for line in text.replace("\r\n", "\n").split("\n")]
            lines = [line for line in lines if line]
            out.block(f"## Page {number + 1}")
            if lines:
                out.block(*lines)
            else:
                empty += 1
        if empty:
            out.warnings.append(f"{empty} of {pages} pages have no text layer (scanned? no OCR)")
    finally:
        doc.close()
    return out


def _fallback(data: bytes, limits: ConvertLimits, why: str) -> Output:
    import io

    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer
    from pdfminer.pdfparser import PDFSyntaxError

    out = Output()
    try:
        for number, layout in enumerate(extract_pages(io.BytesIO(data)), 1):
            if number > limits.pages:
                raise ConversionFailure("TOO_MANY_PAGES", f"PDF has more than {limits.pages} pages")
            lines = [
                " ".join(line.split())
                for element in layout
                if isinstance(element, LTTextContainer)
                for line in element.get_text().split("\n")
            ]
            out.block(f"## Page {number}")
            lines = [line for line in lines if line]
            if lines:
                out.block(*lines)
    except PDFSyntaxError as exc:
        raise ConversionFailure("CONVERSION_ERROR", f"Unreadable PDF: {why}; {exc}") from None
    out.warnings.append(f"PDFium could not read the file ({why}); text read with pdfminer.six")
    return out
