"""Source coordinates: every line number gno shows or accepts for a Markdown or text file is a
line of the file as it is on disk (LF, CRLF and a lone CR each end a line, as editors count),
whatever blank-line runs, BOM, trailing whitespace, frontmatter or code fences it holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.bootstrap.in_memory_set import NOTES_ROOT
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts.evidence_requests import ContextRequest
from gno_core.contracts.requests import SearchRequest
from gno_core.indexing.embedding import passage_text
from gno_core.ports.vectors import PendingChunk
from gno_core.text.canonical import canonicalize, collapse_blank_runs
from gno_core.text.chunking import chunk_text

_BREAK = re.compile(r"\r\n|\r|\n")


def file_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them (a final terminator ends the last line)."""
    text = text.removeprefix("\ufeff")
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def notes(files: dict[str, str]) -> Adapters:
    """The in-memory adapters over ``files``, every file of the folder indexed."""
    adapters = in_memory(files)
    adapters.config.save(
        GnoConfig(collections=[CollectionConfig(name="notes", path=NOTES_ROOT, pattern="**/*")])
    )
    return adapters


def test_a_line_after_a_blank_run_is_read_at_its_file_line() -> None:
    source = "# Notes\n\n\n\nalpha\n\n\n\n\nbeta gamma\n"
    assert file_lines(source)[9] == "beta gamma"
    with build(notes({"n.md": source})) as gno:
        gno.sync()
        got = gno.get("notes/n.md:10", line_count=1)
        assert got.content == "beta gamma\n"
        assert got.coordinate_space == "source" and got.conversion is None
        assert gno.get("notes/n.md").total_lines == 10
        hit = gno.search(SearchRequest(query="gamma")).results[0]
        assert hit.line == 10
        assert hit.snippet_range is not None and hit.snippet_range.start_line == 10


@pytest.mark.slow
def test_the_issue_example_reads_the_file_lines(shared_data: Path) -> None:
    """fastapi's release notes: ``get ...:5533 -l 1`` showed line 5,572 of the file, and the
    document had 7,358 lines where the file has 7,402 (the issue counts the empty line after the
    final line break, which editors show and `wc -l` does not)."""
    source = (shared_data / "fastapi-docs" / "en" / "docs" / "release-notes.md").read_text()
    expected = file_lines(source)
    with build(notes({"release-notes.md": source})) as gno:
        gno.sync()
        ref = "notes/release-notes.md"
        assert gno.get(ref).total_lines == len(expected) == 7402
        for number in (1, 5533, 5572, 7402):
            got = gno.get(f"{ref}:{number}", line_count=1).content
            assert got == expected[number - 1].rstrip() + "\n", number


def test_leading_and_trailing_blank_lines_are_lines() -> None:
    source = "\n\n\nfirst\n\n\n"
    with build(notes({"t.txt": source})) as gno:
        gno.sync()
        got = gno.get("notes/t.txt")
        assert got.total_lines == 6
        assert gno.get("notes/t.txt:4", line_count=1).content == "first\n"
        assert gno.search(SearchRequest(query="first")).results[0].line == 4


def test_backlinks_and_capsule_evidence_name_file_lines() -> None:
    target = "# Target\n\nThe target note.\n"
    source = "# Source\n\n\n\nIntro.\n\n\n\nSee [[target]] for the zeppelin plan.\n"
    lines = file_lines(source)
    with build(notes({"target.md": target, "source.md": source})) as gno:
        gno.sync()
        (mention,) = gno.backlinks("notes/target.md").backlinks
        assert mention.position.start_line == 9
        assert lines[mention.position.start_line - 1].index("[[") + 1 == mention.position.start_col
        capsule = gno.context(ContextRequest(goal="zeppelin plan", budget_tokens=2000))
        item = next(e for e in capsule.evidence if e.uri.endswith("source.md"))
        text = "\n".join(lines[item.start_line - 1 : item.end_line])
        assert "zeppelin" in text and text.strip() == item.text.strip()


def test_a_long_blank_run_never_swells_capsule_evidence() -> None:
    """Paragraphs merge across one blank line only: 1,000 blank lines between two paragraphs
    made one block of 1,004 lines, over the capsule's budget, and no evidence at all."""
    source = "# Big\n\nzeppelin alpha\n" + "\n" * 1000 + "zeppelin beta\n"
    with build(notes({"big.md": source})) as gno:
        gno.sync()
        capsule = gno.context(ContextRequest(goal="zeppelin", budget_tokens=2000))
        spans = [(e.start_line, e.end_line) for e in capsule.evidence]
        assert spans and all(end - start < 10 for start, end in spans)
        assert any("zeppelin" in e.text for e in capsule.evidence)


_WORDS = st.sampled_from(["alpha", "beta", "Gamma", "délta", "x", "```", "---", "# Head", "  "])
_LINE = st.lists(_WORDS, max_size=4).map(" ".join)
_PIECE = st.one_of(
    _LINE,
    st.integers(1, 5).map(lambda n: "\n" * (n - 1)),  # a blank run (joined below)
    st.sampled_from(["```python\ncode  \n\n\n```", "---\ntitle: T\n---", "text\t \u00a0"]),
)


@st.composite
def sources(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(_PIECE, min_size=1, max_size=25))
    body = "\n".join(pieces)
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    body = body.replace("\n", ending) if ending != "\n" else body
    if draw(st.booleans()):
        body += ending * draw(st.integers(1, 3))
    if draw(st.booleans()):
        body = "\ufeff" + body
    return body


@pytest.mark.parametrize("source", ["alpha\n  ", "alpha\r\t", "alpha\n \n ", "a\n\nb\n  "])
def test_a_whitespace_last_line_without_a_terminator_is_a_line(source: str) -> None:
    """Found by the property test below: the trimmed last line was dropped with its spaces, so
    ``totalLines`` was one short of what an editor shows."""
    expected = file_lines(source)
    with build(notes({"p.md": source})) as gno:
        gno.sync()
        assert gno.get("notes/p.md").total_lines == len(expected)
        last = gno.get(f"notes/p.md:{len(expected)}", line_count=1).content
        assert last == expected[-1].rstrip() + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources(), st.sampled_from(["p.md", "p.txt"]))
def test_get_line_n_is_line_n_of_the_file(source: str, name: str) -> None:
    expected = file_lines(source)
    mirror = canonicalize(source)
    if not mirror.strip():
        return  # nothing to index
    with build(notes({name: source})) as gno:
        synced = gno.sync()
        ref = f"notes/{name}"
        if synced.total_added == 0:
            return  # e.g. malformed frontmatter: not indexed, reported as a failure
        assert gno.get(ref).total_lines == len(expected)
        for number, line in enumerate(expected, start=1):
            got = gno.get(f"{ref}:{number}", line_count=1).content
            assert got == line.rstrip() + "\n", (number, source)


@settings(max_examples=100, deadline=None)
@given(sources())
def test_chunks_keep_file_lines_and_embed_the_collapsed_text(source: str) -> None:
    mirror = canonicalize(source)
    collapsed = canonicalize(source, collapse_blank_lines=True)
    chunks = chunk_text(mirror, max_tokens=8, overlap_percent=15)
    before = chunk_text(collapsed, max_tokens=8, overlap_percent=15)
    # Same boundaries as on the collapsed mirror: the embedded text is unchanged.
    assert [collapse_blank_runs(c.text) for c in chunks] == [c.text for c in before]
    for chunk in chunks:
        assert mirror[chunk.pos : chunk.pos + len(chunk.text)] == chunk.text
        assert chunk.start_line == mirror.count("\n", 0, chunk.pos) + 1
        assert chunk.end_line == chunk.start_line + chunk.text.count("\n")
    for new, old in zip(chunks, before, strict=True):
        pending = [PendingChunk("m", c.seq, c.text, c.start_line, "T") for c in (new, old)]
        if new.start_line == 1 or old.start_line != 1:  # frontmatter is only skipped at line 1
            texts = {passage_text(_Profiled(), p) for p in pending}
            assert len(texts) == 1


class _Profile:
    def document(self, text: str, title: str | None) -> str:
        return f"{title}|{text}"


class _Profiled:
    profile = _Profile()
