"""A note's bytes as lines that can be edited in place and written back byte for byte.

Only UTF-8 (with or without a BOM) is edited: decoding and encoding valid UTF-8 is lossless,
and each line keeps its own terminator (``\\n``, ``\\r\\n`` or ``\\r``), so every byte outside an
edit span comes back unchanged. Columns are 1-based code points, as the link extractor reports
them for the text the lines join into (``extraction_text``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Edit", "RawText", "apply_edits", "decode_raw"]

_BOM = "\ufeff"
_TERMINATOR = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace columns ``start_col`` .. ``end_col`` (1-based, inclusive) of line ``line`` of the
    file at ``rel_path`` with ``replacement``; coordinates are those of the file before the
    operation, at its destination path (the moved note's own edits name its new path)."""

    rel_path: str
    line: int
    start_col: int
    end_col: int
    replacement: str


@dataclass(frozen=True, slots=True)
class RawText:
    bom: bool
    lines: tuple[str, ...]
    endings: tuple[str, ...]

    @property
    def extraction_text(self) -> str:
        """The lines joined by ``\\n``: what the link extractor reads (same line numbers and
        columns as the file)."""
        return "\n".join(self.lines)

    def encode(self, lines: tuple[str, ...] | None = None) -> bytes:
        body = "".join(
            line + end for line, end in zip(lines or self.lines, self.endings, strict=True)
        )
        return ((_BOM if self.bom else "") + body).encode("utf-8")


def decode_raw(data: bytes) -> RawText | None:
    """``data`` as editable lines, or None when it is not UTF-8 text (left alone)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    if "\r" not in text:  # the common case: one split, every line ending in "\n"
        split = text.split("\n")
        return RawText(bom, tuple(split), ("\n",) * (len(split) - 1) + ("",))
    lines: list[str] = []
    endings: list[str] = []
    last = 0
    for match in _TERMINATOR.finditer(text):
        lines.append(text[last : match.start()])
        endings.append(match.group())
        last = match.end()
    lines.append(text[last:])
    endings.append("")
    return RawText(bom, tuple(lines), tuple(endings))


def apply_edits(raw: RawText, edits: list[Edit]) -> bytes:
    """The bytes of ``raw`` with ``edits`` (non-overlapping) applied."""
    lines = list(raw.lines)
    for edit in sorted(edits, key=lambda e: (e.line, e.start_col), reverse=True):
        line = lines[edit.line - 1]
        lines[edit.line - 1] = line[: edit.start_col - 1] + edit.replacement + line[edit.end_col :]
    return raw.encode(tuple(lines))
