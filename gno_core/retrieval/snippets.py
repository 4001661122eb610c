"""Best-passage selection: which chunk and which lines of a hit to show, with exact line anchors."""

from __future__ import annotations

from typing import NamedTuple

from gno_core.read_values import Chunk

SNIPPET_MAX_LINES = 4
SNIPPET_MAX_CHARS = 320
_STEM_CHARS = 5  # a cheap stem: words match on their first characters (index/indexing/indexed)


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
    """The line window that matches most query words (intent words weigh half), skipping
    frontmatter; falls back to the first prose lines when no line matches (title/path hits)."""
    if not chunks:
        return None
    keys, intent_keys = _keys(words), _keys(intent_words)
    skip_until = frontmatter_lines(chunks[0].text) if chunks[0].start_line == 1 else 0
    best: tuple[float, int, Chunk, int] | None = None  # (score, -line, chunk, index in chunk)
    fallback: tuple[Chunk, int] | None = None
    for chunk in chunks:
        for i, line in enumerate(chunk.text.split("\n")):
            number = chunk.start_line + i
            if number <= skip_until or not line.strip():
                continue
            if fallback is None:
                fallback = (chunk, i)
            low = line.lower()
            score = sum(1.0 for k in keys if k in low) + sum(0.5 for k in intent_keys if k in low)
            if score and (best is None or (score, -number) > (best[0], best[1])):
                best = (score, -number, chunk, i)
    if best is not None:
        return _window(best[2], best[3])
    if fallback is not None:
        return _window(*fallback)
    return _window(chunks[0], 0)


def _window(chunk: Chunk, index: int) -> Passage:
    lines = chunk.text.split("\n")
    picked: list[str] = []
    size = 0
    end = index
    for j in range(index, len(lines)):
        if len(picked) >= SNIPPET_MAX_LINES or (
            picked and size + len(lines[j]) > SNIPPET_MAX_CHARS
        ):
            break
        picked.append(lines[j])
        size += len(lines[j]) + 1
        end = j
    while len(picked) > 1 and not picked[-1].strip():
        picked.pop()
        end -= 1
    text = "\n".join(picked)
    if len(text) > SNIPPET_MAX_CHARS:
        text = text[: SNIPPET_MAX_CHARS - 1].rstrip() + "…"
    start_line = chunk.start_line + index
    return Passage(chunk, text, start_line, chunk.start_line + end, start_line)
