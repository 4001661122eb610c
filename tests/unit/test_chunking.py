"""Chunking: exact positions and line ranges, break preferences, code mode, determinism."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import gno_core
from gno_core.domain import Chunk
from gno_core.text.canonical import canonicalize, collapse_blank_runs
from gno_core.text.chunking import CHARS_PER_TOKEN, chunk_text

WINDOW = 0.10


def check_invariants(mirror: str, chunks: tuple[Chunk, ...], max_tokens: int) -> None:
    """What every chunking must satisfy, whatever the text."""
    max_chars = max_tokens * CHARS_PER_TOKEN
    assert [c.seq for c in chunks] == list(range(len(chunks)))
    previous_end = 0
    line, counted_to = 1, 0
    for i, chunk in enumerate(chunks):
        line += mirror.count("\n", counted_to, chunk.pos)
        counted_to = chunk.pos
        assert chunk.text, chunk
        assert chunk.text == chunk.text.strip()
        assert mirror[chunk.pos : chunk.pos + len(chunk.text)] == chunk.text
        assert chunk.start_line == line
        assert chunk.end_line == chunk.start_line + chunk.text.count("\n")
        # Budgets count the text with blank runs collapsed (the text embedded).
        embedded = collapse_blank_runs(chunk.text)
        assert len(embedded) <= max_chars * (1 + WINDOW) + 1
        assert chunk.token_count == -(-len(embedded) // CHARS_PER_TOKEN)
        if i:
            assert chunk.pos > chunks[i - 1].pos
        # Nothing but whitespace is ever left out between two chunks.
        assert mirror[previous_end : chunk.pos].strip() == "" or chunk.pos < previous_end
        previous_end = max(previous_end, chunk.pos + len(chunk.text))
    assert mirror[previous_end:].strip() == ""
    if mirror.strip():
        assert chunks and mirror[: chunks[0].pos].strip() == ""


def _corpus(shared_data: Path) -> list[Path]:
    fastapi = sorted((shared_data / "fastapi-docs").rglob("*.md"))
    dendron = sorted((shared_data / "dendron-site" / "vault").glob("*.md"))
    return fastapi[::7] + dendron[::9]


@pytest.mark.slow
@pytest.mark.parametrize("max_tokens", [10, 64, 200, 800])
def test_invariants_on_real_markdown(shared_data: Path, max_tokens: int) -> None:
    for path in _corpus(shared_data):
        mirror = canonicalize(path.read_text(encoding="utf-8"))
        chunks = chunk_text(mirror, max_tokens, 15)
        check_invariants(mirror, chunks, max_tokens)
        assert chunk_text(mirror, max_tokens, 15) == chunks, "not deterministic"


@pytest.mark.parametrize("overlap", [0, 15, 50])
def test_invariants_on_code(overlap: float) -> None:
    for path in sorted(Path(gno_core.__file__).parent.rglob("*.py")):
        mirror = canonicalize(path.read_text(encoding="utf-8"))
        check_invariants(mirror, chunk_text(mirror, 100, overlap, code=True), 100)


def test_short_text_is_one_chunk() -> None:
    mirror = "\n# Title\n\nBody line.\n"
    (chunk,) = chunk_text(mirror)
    assert (chunk.pos, chunk.text, chunk.start_line, chunk.end_line) == (
        1,
        "# Title\n\nBody line.",
        2,
        4,
    )


@pytest.mark.parametrize("text", ["", "\n", "  \n\t\n"])
def test_blank_text_has_no_chunks(text: str) -> None:
    assert chunk_text(text) == ()


def test_prefers_paragraph_break_near_target() -> None:
    first = "Alpha sentence one. " * 19 + "Alpha end."  # 390 chars
    mirror = f"{first}\n\n{'Beta words here. ' * 30}\n"
    chunks = chunk_text(mirror, max_tokens=100, overlap_percent=0)  # 400 chars, window 40
    assert chunks[0].text == first
    assert chunks[1].text.startswith("Beta")


def test_sentence_break_beats_newline_and_space() -> None:
    text = ("word " * 75) + "end of it. Next starts here " + ("more " * 60)
    chunks = chunk_text(text, max_tokens=100, overlap_percent=0)
    assert chunks[0].text.endswith("end of it.")
    assert chunks[1].text.startswith("Next starts")


def test_space_break_never_splits_words() -> None:
    text = " ".join(f"w{i:04d}" for i in range(600))
    for chunk in chunk_text(text, max_tokens=50, overlap_percent=15):
        assert all(len(word) == 5 for word in chunk.text.split(" "))


def test_hard_cut_without_any_break() -> None:
    text = "x" * 1000
    chunks = chunk_text(text, max_tokens=25, overlap_percent=0)
    assert [len(c.text) for c in chunks] == [100] * 10


def test_overlap_repeats_the_end_of_the_previous_chunk() -> None:
    text = " ".join(f"w{i:04d}" for i in range(2000))
    chunks = chunk_text(text, max_tokens=100, overlap_percent=20)
    for prev, nxt in itertools.pairwise(chunks):
        shared = prev.pos + len(prev.text) - nxt.pos
        assert 40 <= shared <= 80 + 6  # 20 % of 400, snapped to a word start
        assert prev.text[-shared:] == nxt.text[:shared]


def test_code_breaks_at_definitions_and_keeps_decorators() -> None:
    parts = []
    for i in range(12):
        parts.append(f"@register\ndef handler_{i}(event):\n" + "    x = event.value + 1\n" * 6)
    mirror = canonicalize("import os\n\n" + "\n".join(parts))
    chunks = chunk_text(mirror, max_tokens=100, overlap_percent=15, code=True)
    check_invariants(mirror, chunks, 100)
    assert len(chunks) > 2
    for chunk in chunks[1:]:
        assert chunk.text.startswith("@register\ndef handler_"), chunk.text[:40]


def test_language_callback_labels_each_chunk() -> None:
    text = "para one. " * 50 + "\n\n" + "para two. " * 50
    chunks = chunk_text(text, max_tokens=100, language=lambda t: f"len{len(t) // 100}")
    assert all(c.language and c.language.startswith("len") for c in chunks)
    assert chunk_text(text, max_tokens=100)[0].language is None


def test_line_numbers_of_later_chunks() -> None:
    lines = [f"Line number {i} has some words in it." for i in range(1, 401)]
    mirror = "\n".join(lines) + "\n"
    for chunk in chunk_text(mirror, max_tokens=100, overlap_percent=15):
        first = chunk.text.split("\n")[0]
        if first in lines:
            assert lines.index(first) + 1 == chunk.start_line
