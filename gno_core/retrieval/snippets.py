"""Best-passage selection: which chunk and which lines of a hit to show, with exact line anchors."""

from __future__ import annotations

import re
from typing import NamedTuple

from gno_core.read_values import Chunk

SNIPPET_MAX_LINES = 4
SNIPPET_MAX_CHARS = 320
_STEM_CHARS = 5  # a cheap stem: words match on their first characters (index/indexing/indexed)
_LINE = re.compile(r"[^\n]+")


class Passage(NamedTuple):
    chunk: Chunk
    text: str
    start_line: int
    end_line: int
    best_line: int


def frontmatter_lines(first_chunk_text: str) -> int:
    """How many leading lines the YAML frontmatter block takes (0 when there is none)."""
    if not first_chunk_text.startswith("---\n"):
        return 0
    end = first_chunk_text.find("\n---\n", 3)
    if end < 0:
        end = first_chunk_text.find("\n...\n", 3)
    if end < 0:
        return 0
    return first_chunk_text.count("\n", 0, end) + 2


def _keys(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w[:_STEM_CHARS] if w.isascii() else w for w in words if w)


def best_passage(
    chunks: tuple[Chunk, ...], words: tuple[str, ...], intent_words: tuple[str, ...] = ()
) -> Passage | None:
    """The line window that matches most query words (intent words weigh half), outside the
    frontmatter when a line there matches (else the frontmatter line that matches: a hit on
    ``aliases:`` points at it); falls back to the first prose lines when no line matches
    (title/path hits)."""
    if not chunks:
        return None
    keys, intent_keys = _keys(words), _keys(intent_words)
    skip_until = frontmatter_lines(chunks[0].text) if chunks[0].start_line == 1 else 0
    # (score, -line, chunk, offset of the line in the chunk's text)
    best: tuple[float, int, Chunk, int] | None = None
    front: tuple[float, int, Chunk, int] | None = None  # the same, inside the frontmatter
    fallback: tuple[Chunk, int, int] | None = None
    for chunk in chunks:
        text, number, counted = chunk.text, chunk.start_line, 0
        # Non-empty lines only: a run of blank lines (the mirror keeps the file's) costs one
        # regex step, not one Python step per line.
        for match in _LINE.finditer(text):
            at = match.start()
            number += text.count("\n", counted, at)
            counted = at
            line = match.group()
            if not line.strip():
                continue
            in_front = number <= skip_until
            if fallback is None and not in_front:
                fallback = (chunk, at, number)
            low = line.lower()
            score = sum(1.0 for k in keys if k in low) + sum(0.5 for k in intent_keys if k in low)
            if not score:
                continue
            if in_front:
                if 1 < number < skip_until and (front is None or (score, -number) > front[:2]):
                    front = (score, -number, chunk, at)
            elif best is None or (score, -number) > (best[0], best[1]):
                best = (score, -number, chunk, at)
    best = best or front
    if best is not None:
        return _window(best[2], best[3], -best[1])
    if fallback is not None:
        return _window(*fallback)
    return _window(chunks[0], 0, chunks[0].start_line)


def _window(chunk: Chunk, offset: int, number: int) -> Passage:
    """At most ``SNIPPET_MAX_LINES`` lines (``SNIPPET_MAX_CHARS``) of ``chunk`` from the line
    at ``offset``, line ``number`` of the document."""
    text = chunk.text
    picked: list[str] = []
    size = 0
    end = number
    pos = offset
    while len(picked) < SNIPPET_MAX_LINES:
        newline = text.find("\n", pos)
        line = text[pos:] if newline == -1 else text[pos:newline]
        if picked and size + len(line) > SNIPPET_MAX_CHARS:
            break
        picked.append(line)
        size += len(line) + 1
        end = number + len(picked) - 1
        if newline == -1:
            break
        pos = newline + 1
    while len(picked) > 1 and not picked[-1].strip():
        picked.pop()
        end -= 1
    snippet = "\n".join(picked)
    if len(snippet) > SNIPPET_MAX_CHARS:
        snippet = snippet[: SNIPPET_MAX_CHARS - 1].rstrip() + "…"
    return Passage(chunk, snippet, number, end, number)
