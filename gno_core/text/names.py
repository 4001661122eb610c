"""Note names as links write them: a markdown file is linked by its path without extension."""

from __future__ import annotations

__all__ = ["MARKDOWN_EXTENSIONS", "strip_markdown_extension"]

#: The extensions of markdown notes, which links may leave off.
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdx")


def strip_markdown_extension(path: str) -> str:
    if "." not in path:  # most names: nothing to strip
        return path
    lower = path.lower()
    for ext in MARKDOWN_EXTENSIONS:
        if lower.endswith(ext) and len(path) > len(ext):
            return path[: -len(ext)]
    return path
