"""Defaults that cheap code paths need without importing the configuration models."""

from __future__ import annotations

DEFAULT_PATTERN = "**/*.md"
DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".git",
    "node_modules",
    ".venv",
    "venv",
    ".idea",
    ".vscode",
    "dist",
    "build",
    "target",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".DS_Store",
    "Thumbs.db",
    ".gno",
)
#: Chunks embedded per model call and committed per transaction (``gno embed --batch-size``).
DEFAULT_EMBED_BATCH_SIZE = 32

__all__ = ["DEFAULT_EMBED_BATCH_SIZE", "DEFAULT_EXCLUDES", "DEFAULT_PATTERN"]
