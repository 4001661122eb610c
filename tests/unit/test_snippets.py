"""Best passage selection and line anchors."""

from __future__ import annotations

from gno_core.domain import Chunk
from gno_core.retrieval.snippets import best_passage, frontmatter_lines

DOC = "---\ntitle: Bone\ntags: [bone]\n---\n# Bone health\n\nIntro line.\nVitamin D improves bone density.\nMore text.\n"


def test_frontmatter_lines() -> None:
    assert frontmatter_lines(DOC) == 4
    assert frontmatter_lines("# no fm\n") == 0


def test_best_line_and_exact_anchor() -> None:
    chunk = Chunk(seq=0, pos=0, text=DOC, start_line=1, end_line=9)
    p = best_passage((chunk,), ("vitamin", "density"))
    assert p is not None
    assert p.best_line == 8
    assert DOC.split("\n")[p.start_line - 1].startswith("Vitamin D")
    assert p.text.startswith("Vitamin D improves")


def test_frontmatter_never_the_snippet_and_fallback_to_prose() -> None:
    chunk = Chunk(seq=0, pos=0, text=DOC, start_line=1, end_line=9)
    p = best_passage((chunk,), ("zzz",))
    assert p is not None and p.start_line == 5 and p.text.startswith("# Bone health")
    p2 = best_passage((chunk,), ("bone",))
    assert p2 is not None and p2.start_line >= 5


def test_a_word_only_in_the_frontmatter_anchors_there() -> None:
    chunk = Chunk(seq=0, pos=0, text=DOC, start_line=1, end_line=9)
    p = best_passage((chunk,), ("tags",))
    assert p is not None and p.best_line == 3 and p.text.startswith("tags: [bone]")


def test_later_chunk_lines_are_absolute() -> None:
    c0 = Chunk(seq=0, pos=0, text="alpha\nbeta", start_line=1, end_line=2)
    c1 = Chunk(seq=1, pos=11, text="gamma\ndelta target", start_line=3, end_line=4)
    p = best_passage((c0, c1), ("target",))
    assert p is not None and p.best_line == 4 and p.chunk.seq == 1
