"""What every converter shares: its failure, Markdown tables, and the zip-bomb check of the
OOXML/ODF formats (all zip archives)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from gno_core.ports.converters import ConvertLimits


class ConversionFailure(Exception):
    """A file the converter cannot turn into Markdown; ``reason`` is the stable sync code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass
class Output:
    """Markdown built line by line, with the title and warnings found on the way."""

    lines: list[str] = field(default_factory=list)
    title: str | None = None
    warnings: list[str] = field(default_factory=list)

    def block(self, *lines: str) -> None:
        """Lines as one block, separated from the previous one by a blank line."""
        if self.lines and self.lines[-1] != "":
            self.lines.append("")
        self.lines.extend(lines)

    def heading(self, level: int, text: str) -> None:
        text = one_line(text)
        if text:
            self.block("#" * max(1, min(level, 6)) + " " + text)
            if self.title is None and level <= 1:
                self.title = text

    def markdown(self) -> str:
        return "\n".join(self.lines).strip("\n") + "\n"


def one_line(text: str) -> str:
    return " ".join(text.split())


def cell_text(value: object) -> str:
    text = "" if value is None else str(value)
    return one_line(text).replace("|", "\\|")


def table(rows: Sequence[Sequence[object]]) -> list[str]:
    """``rows`` as a Markdown table (first row the header); ragged rows are padded."""
    cleaned = [[cell_text(c) for c in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    if not cleaned:
        return []
    width = max(len(row) for row in cleaned)
    padded = [row + [""] * (width - len(row)) for row in cleaned]
    out = ["| " + " | ".join(padded[0]) + " |", "|" + " --- |" * width]
    out += ["| " + " | ".join(row) + " |" for row in padded[1:]]
    return out


def check_zip(data: bytes, limits: ConvertLimits) -> zipfile.ZipFile:
    """``data`` opened as a zip, refused before anything is inflated when it has more than
    ``limits.zip_members`` members or its members claim more than ``limits.unzipped_bytes``
    (a zip bomb either way), or it is not a zip at all."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise ConversionFailure(
            "CONVERSION_ERROR", f"Not a valid document archive: {exc}"
        ) from None
    members = archive.infolist()
    if len(members) > limits.zip_members:
        raise ConversionFailure(
            "CONVERSION_MEMORY",
            f"Archive has {len(members)} members, over the {limits.zip_members}-member limit",
        )
    total = sum(info.file_size for info in members)
    if total > limits.unzipped_bytes:
        raise ConversionFailure(
            "CONVERSION_MEMORY",
            f"Archive inflates to {total} bytes, over the {limits.unzipped_bytes}-byte limit",
        )
    return archive
