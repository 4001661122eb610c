"""The structure of a canonical mirror that capsule candidates are cut from: the heading over
each line, and whole-line spans (paragraphs, fenced code kept whole) of the relevant chunks."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gno_core.domain import Chunk

__all__ = [
    "BLOCK_CHARS",
    "MAX_CHUNKS_PER_DOC",
    "blocks",
    "fence_after",
    "headings",
    "relevant_chunks",
]

BLOCK_CHARS = 1200
MAX_CHUNKS_PER_DOC = 6
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def fence_after(line: str, fence: str | None) -> str | None:
    """The open code fence after ``line`` (None outside fences), given the one open before it:
    a fence closes on a marker of its own character at least as long, opens on any marker."""
    marker = _FENCE.match(line)
    if fence is not None:
        closes = marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence)
        return None if closes else fence
    return marker.group(1) if marker else None


def headings(lines: list[str]) -> list[str | None]:
    """For each line, the text of the nearest ATX heading at or above it (fences skipped)."""
    out: list[str | None] = []
    current: str | None = None
    fence: str | None = None
    for line in lines:
        outside = fence is None
        fence = fence_after(line, fence)
        if outside and fence is None:
            m = _HEADING.match(line)
            if m:
                current = m.group(2).strip()
        out.append(current)
    return out


def relevant_chunks(
    chunks: tuple[Chunk, ...], words: frozenset[str], anchor: int | None
) -> tuple[Chunk, ...]:
    """The chunks worth cutting into candidates, at most ``MAX_CHUNKS_PER_DOC`` (a long note
    must not cost more than a short one): the one holding the result's anchor line, then the
    ones naming most query words, in document order."""
    scores: dict[int, tuple[int, int]] = {}
    for c in chunks:
        low = c.text.lower()
        holds = anchor is not None and c.start_line <= anchor <= c.end_line
        scores[c.seq] = (1 if holds else 0, sum(1 for w in words if w in low))
    ranked = sorted(chunks, key=lambda c: (-scores[c.seq][0], -scores[c.seq][1], c.seq))
    keep = [c for c in ranked[:MAX_CHUNKS_PER_DOC] if scores[c.seq] != (0, 0)] or ranked[:1]
    return tuple(sorted(keep, key=lambda c: c.seq))


def blocks(lines: list[str], chunks: tuple[Chunk, ...]) -> list[tuple[int, int]]:
    """Whole-line spans (1-based, inclusive) over the lines the chunks cover: paragraphs split
    at blank lines outside fences, merged while they stay under ``BLOCK_CHARS``; chunks that
    overlap or touch form one range."""
    ranges: list[list[int]] = []
    for c in sorted(chunks, key=lambda c: c.start_line):
        if ranges and c.start_line <= ranges[-1][1] + 1:
            ranges[-1][1] = max(ranges[-1][1], c.end_line)
        else:
            ranges.append([c.start_line, c.end_line])
    blocks: list[tuple[int, int]] = []
    for first, last in ranges:
        blocks.extend(_range_blocks(lines, first, last))
    return blocks


def _range_blocks(lines: list[str], first: int, last: int) -> list[tuple[int, int]]:
    paragraphs: list[tuple[int, int]] = []
    start: int | None = None
    fence: str | None = None
    for n in range(first, last + 1):
        line = lines[n - 1]
        if line:  # an empty line opens and closes no fence
            fence = fence_after(line, fence)
        if not line.strip() and fence is None:
            if start is not None:
                paragraphs.append((start, n - 1))
                start = None
            continue
        if start is None:
            start = n
    if start is not None:
        paragraphs.append((start, last))
    blocks: list[tuple[int, int]] = []
    size = 0
    for s, e in paragraphs:
        length = sum(len(lines[i - 1]) + 1 for i in range(s, e + 1))
        # Paragraphs merge across one blank line only: a run of blank lines (the mirror keeps
        # the file's) separates blocks, and never swells one with empty lines.
        if (
            blocks
            and s - blocks[-1][1] <= 2
            and size + length <= BLOCK_CHARS
            and not _HEADING.match(lines[s - 1])
        ):
            blocks[-1] = (blocks[-1][0], e)
            size += length
        else:
            blocks.append((s, e))
            size = length
    return blocks
