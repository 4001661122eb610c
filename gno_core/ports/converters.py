"""Port: turning a non-text source (PDF, DOCX, XLSX, PPTX, HTML, ODT) into canonical Markdown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class ConvertLimits:
    """Bounds one conversion must stay within (``ingest`` config). Bytes are bounded before a
    converter runs (``maxFileBytes``)."""

    seconds: float = 30.0
    memory_bytes: int = 1024 * 1024 * 1024
    pages: int = 2000
    #: cells of one workbook, or uncompressed bytes of one zip-based document
    cells: int = 2_000_000
    unzipped_bytes: int = 256 * 1024 * 1024
    #: members of one zip-based document (a real one has tens, or a few thousand parts)
    zip_members: int = 10_000


@dataclass(frozen=True, slots=True)
class Converted:
    """A converted document: Markdown whose lines ``gno get`` shows (page, slide and sheet
    boundaries as headings), the converter that made it, and what it could not keep."""

    markdown: str
    converter_id: str
    converter_version: str
    title: str | None = None
    warnings: tuple[str, ...] = ()


class DocumentConverter(Protocol):
    def extensions(self) -> frozenset[str]:
        """The lowercase extensions (with the dot) this converter takes."""
        ...

    def identity(self, ext: str) -> tuple[str, str]:
        """``(converter_id, converter_version)`` that ``convert`` stamps on a file with extension
        ``ext`` (one of ``extensions()``), without converting anything: sync compares it with
        what made a stored document, so installing or upgrading a converter re-extracts."""
        ...

    def convert(self, data: bytes, ext: str, rel_path: str, limits: ConvertLimits) -> Converted:
        """``data`` (a file with extension ``ext``) as Markdown. Raises ``IngestError`` with a
        stable reason (``CONVERSION_ERROR``, ``CONVERSION_TIMEOUT``, ``CONVERSION_MEMORY``,
        ``ENCRYPTED``, ``TOO_MANY_PAGES``, ``TOO_MANY_CELLS``) when it cannot, never hangs past
        ``limits.seconds`` and never grows the calling process past ``limits.memory_bytes``."""
        ...

    def close(self) -> None:
        """Stop whatever the converter keeps running between files (a worker process)."""
        ...
