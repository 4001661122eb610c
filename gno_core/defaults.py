"""Defaults that cheap code paths need without importing the configuration models."""

from __future__ import annotations

DEFAULT_PATTERN = "**/*.md"
#: The default list of the first releases (version control, dependencies, builds, editors).
_FIRST_EXCLUDES: tuple[str, ...] = (
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
DEFAULT_EXCLUDES: tuple[str, ...] = (
    *_FIRST_EXCLUDES,
    # Vault tools' own folders: settings, plugins, and notes the person deleted (Obsidian's
    # .trash, the system trash, Syncthing's old versions) must not come back in search.
    ".obsidian",
    ".trash",
    ".Trash",
    ".foam",
    ".logseq",
    ".stversions",
)
#: The defaults of earlier releases: a collection whose stored ``exclude`` is exactly one of
#: them was never customised, and is read as today's ``DEFAULT_EXCLUDES``.
PREVIOUS_DEFAULT_EXCLUDES: tuple[tuple[str, ...], ...] = (_FIRST_EXCLUDES,)
#: Chunks embedded per model call and committed per transaction (``gno embed --batch-size``).
DEFAULT_EMBED_BATCH_SIZE = 32

#: How long a writer waits for the write lease before ``LOCKED``. Commands and the Python API
#: wait long (a person or script would rather wait than retry); MCP sync/embed/index tools answer
#: fast; capture waits as long as a command (the spec's 120 s contention contract).
WRITE_WAIT_SECONDS = 120.0
TOOL_WRITE_WAIT_SECONDS = 5.0
CAPTURE_WRITE_WAIT_SECONDS = 120.0
#: Remember waits as long as capture (the spec's window for both), then MEMORY_WRITE_LEASE_BUSY.
MEMORY_WRITE_WAIT_SECONDS = CAPTURE_WRITE_WAIT_SECONDS

__all__ = [
    "CAPTURE_WRITE_WAIT_SECONDS",
    "DEFAULT_EMBED_BATCH_SIZE",
    "DEFAULT_EXCLUDES",
    "DEFAULT_PATTERN",
    "MEMORY_WRITE_WAIT_SECONDS",
    "PREVIOUS_DEFAULT_EXCLUDES",
    "TOOL_WRITE_WAIT_SECONDS",
    "WRITE_WAIT_SECONDS",
]
