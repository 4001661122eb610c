"""When a chunk's stored vector still fits it: the embedded text of a chunk
(``embedding.passage_text``) depends on its text with blank runs collapsed, on whether it opens
the document (frontmatter is only skipped there) and on the document's title, nothing else. Two
chunks with the same ``embedding_key`` are embedded identically by every embedder, so a new
mirror of a document (a file edited around unchanged passages, or mirrors that started keeping
blank lines) takes the vectors of its unchanged chunks over instead of embedding them again."""

from __future__ import annotations

from gno_core.text.canonical import collapse_blank_runs

__all__ = ["EmbeddingKey", "embedding_key"]

EmbeddingKey = tuple[str, bool, str]


def embedding_key(text: str, start_line: int, title: str | None) -> EmbeddingKey:
    """What the text embedded for a chunk is a function of."""
    return (collapse_blank_runs(text), start_line == 1, (title or "").strip())
