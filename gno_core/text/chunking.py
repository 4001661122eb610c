"""Chunking of canonical mirrors (``markdown-char-semantic-v1``): character budgets, soft breaks.

A chunk aims at ``max_tokens * 4`` characters and ends at the best break found within 10 % of
that target on either side: a paragraph break, else a sentence end, else a newline, else a space,
else a hard cut at the target. Consecutive chunks overlap by ``overlap_percent`` of the budget,
the overlap snapped forward to a line or word start. Code files (``code=True``) first look for a
structural boundary (imports, declarations, decorators) no earlier than 35 % of the budget and do
not overlap after one. Chunks never start or end with whitespace; ``pos`` is the offset of the
chunk in the text, so ``text[pos:pos + len(chunk.text)] == chunk.text``, and lines are 1-based
and inclusive lines of the text. Boundaries are chosen on the text with its blank runs collapsed
(``collapse_blank_runs``), so the blank lines a mirror keeps for source coordinates move no
boundary; a chunk's text is the full slice, blank lines included. The result depends on the text
and the parameters only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gno_core.domain import Chunk
from gno_core.text.canonical import BlankRuns, collapse_blank_runs

__all__ = [
    "CHARS_PER_TOKEN",
    "CHUNKER_ID",
    "CODE_EXTENSIONS",
    "chunk_text",
    "estimate_tokens",
]

CHUNKER_ID = "markdown-char-semantic-v1"
CHARS_PER_TOKEN = 4
#: Extensions chunked with structural (code-aware) breakpoints.
CODE_EXTENSIONS: frozenset[str] = frozenset(
    ".py .pyi .js .jsx .mjs .cjs .ts .tsx .go .rs .java .kt .swift .c .h .cc .cpp .hpp .cs .rb "
    ".php".split()
)

_WINDOW_FRACTION = 0.10
_CODE_MIN_FRACTION = 0.35

# A sentence ends at . ! ? (plus closing quotes/brackets) before whitespace and a capital, or at a
# CJK full stop / exclamation / question mark.
_SENTENCE_END = re.compile(r"[.!?][\"'’”)\]]*(?=[ \t\n]+[\"'“‘(\[]?[A-ZÀ-ÖØ-ÞА-ЯЁΑ-Ω])|[。！？]")
_WHITESPACE = re.compile(r"\s")
_CODE_BOUNDARY = re.compile(
    r"^[ \t]*(?:"
    r"import\s|from\s+\S+\s+import\s|export\s|(?:async\s+)?def\s|class\s|@[A-Za-z_]"
    r"|(?:async\s+)?function[\s*]|interface\s|type\s+\w+|enum\s|namespace\s"
    r"|func\s|(?:pub(?:\([^)\n]*\))?\s+)?(?:fn|struct|enum|trait|impl|mod|use)[\s<]"
    r"|#\[|(?:public|private|protected|static)\s"
    r")",
    re.MULTILINE,
)
# Lines that belong to the declaration below them (decorators, attributes, doc comments).
_LEADING_DECORATION = ("@", "#[", "//", "/*", "*", "#")


def estimate_tokens(text: str) -> int:
    """Token estimate used for budgets and ``Chunk.token_count`` (4 characters per token)."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def chunk_text(
    text: str,
    max_tokens: int = 800,
    overlap_percent: float = 15.0,
    *,
    code: bool = False,
    language: Callable[[str], str | None] | None = None,
) -> tuple[Chunk, ...]:
    """Split ``text`` (a canonical mirror) into chunks; ``language`` labels each chunk's text.

    Whitespace-only text has no chunks. Deterministic for a given text and parameters.
    """
    runs = BlankRuns(text)
    spans = _spans(runs.collapsed, max_tokens, overlap_percent, code=code)
    if runs.collapsed is not text:
        spans = [(runs.source_offset(a), runs.source_offset(b)) for a, b in spans]
    return _to_chunks(text, spans, language)


def _spans(
    text: str, max_tokens: int, overlap_percent: float, *, code: bool
) -> list[tuple[int, int]]:
    max_chars = max(1, max_tokens) * CHARS_PER_TOKEN
    overlap = int(max_chars * max(0.0, min(overlap_percent, 50.0)) / 100)
    window = int(max_chars * _WINDOW_FRACTION)
    end_of_text = len(text.rstrip())
    start = len(text) - len(text.lstrip())
    spans: list[tuple[int, int]] = []
    while start < end_of_text:
        if end_of_text - start <= max_chars:
            spans.append((start, end_of_text))
            break
        target = start + max_chars
        lo, hi = max(start + 1, target - window), min(end_of_text, target + window)
        end = -1
        if code:
            end = _code_break(text, start + int(max_chars * _CODE_MIN_FRACTION), target, hi)
        if end > start:
            spans.append((start, end))
            start = end
        else:
            end = _soft_break(text, lo, target, hi)
            spans.append((start, end))
            start = _overlap_start(text, end - overlap, end) if overlap else end
        while start < end_of_text and text[start].isspace():
            start += 1
    return spans


def _to_chunks(
    text: str, spans: list[tuple[int, int]], language: Callable[[str], str | None] | None
) -> tuple[Chunk, ...]:
    chunks: list[Chunk] = []
    line, counted_to = 1, 0
    for start, end in spans:
        piece = text[start:end]
        stripped = piece.strip()
        if not stripped:
            continue
        pos = start + len(piece) - len(piece.lstrip())
        embedded = collapse_blank_runs(stripped)
        line += text.count("\n", counted_to, pos)
        counted_to = pos
        chunks.append(
            Chunk(
                seq=len(chunks),
                pos=pos,
                text=stripped,
                start_line=line,
                end_line=line + stripped.count("\n"),
                language=language(embedded) if language is not None else None,
                token_count=estimate_tokens(embedded),
            )
        )
    return tuple(chunks)


def _nearest(text: str, needle: str, lo: int, target: int, hi: int) -> int:
    """Index of the occurrence of ``needle`` in ``text[lo:hi]`` nearest to ``target``, or -1."""
    before = text.rfind(needle, lo, min(hi, target + len(needle)))
    after = text.find(needle, target, hi)
    if before == -1:
        return after
    if after == -1 or target - before <= after - target:
        return before
    return after


def _soft_break(text: str, lo: int, target: int, hi: int) -> int:
    """End offset (exclusive) of a chunk whose ideal end is ``target``."""
    at = _nearest(text, "\n\n", lo, target, hi)
    if at != -1:
        return at
    best = -1
    for match in _SENTENCE_END.finditer(text, lo, hi):
        end = match.end()
        if best == -1 or abs(end - target) < abs(best - target):
            best = end
        elif end > target:
            break
    if best != -1:
        return best
    at = _nearest(text, "\n", lo, target, hi)
    if at != -1:
        return at
    at = _nearest(text, " ", lo, target, hi)
    if at != -1:
        return at
    return target


def _overlap_start(text: str, start: int, end: int) -> int:
    """Start of the next chunk: ``start`` moved forward to a line start (if one is close) or a
    word start, never reaching ``end``."""
    newline = text.find("\n", start, end)
    if newline != -1 and newline - start <= (end - start) // 2:
        return newline + 1
    if start > 0 and not text[start - 1].isspace():
        match = _WHITESPACE.search(text, start, end)
        if match is not None:
            return match.end()
    return start


def _code_break(text: str, lo: int, target: int, hi: int) -> int:
    """Start offset of the structural boundary line nearest ``target`` in ``[lo, hi)``, moved up
    over the decorators and comments attached to it; -1 when there is none."""
    best = -1
    for match in _CODE_BOUNDARY.finditer(text, lo, hi):
        at = match.start()
        if at > 0 and text[at - 1] != "\n":
            continue
        if best == -1 or abs(at - target) < abs(best - target):
            best = at
        elif at > target:
            break
    if best == -1:
        return -1
    # Keep decorators, attributes and doc comments with the declaration they annotate.
    while best > lo:
        prev_start = text.rfind("\n", 0, best - 1) + 1
        if prev_start < lo or not text[prev_start : best - 1].lstrip().startswith(
            _LEADING_DECORATION
        ):
            break
        best = prev_start
    return best
