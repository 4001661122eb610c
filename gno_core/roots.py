"""Collection root safety: refuse folders whose indexing would sweep a whole system or home."""

from __future__ import annotations

import posixpath

from gno_core.errors import InvalidPathError

SYSTEM_ROOTS = (
    "/",
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/var",
    "/System",
    "/Library",
    "/proc",
    "/sys",
    "/dev",
)
HOME_SECRETS = ("", ".config", ".local", ".ssh", ".gnupg")


def check_collection_root(path: str, home: str) -> None:
    """Raise ``INVALID_PATH`` for ``/``, the home folder itself, system folders and the home
    folder's config and key stores. ``path`` must be absolute and resolved."""
    norm = posixpath.normpath(path)
    home_norm = posixpath.normpath(home) if home else ""
    dangerous = set(SYSTEM_ROOTS)
    if home_norm:
        dangerous.update(posixpath.join(home_norm, p) if p else home_norm for p in HOME_SECRETS)
    if norm in dangerous:
        raise InvalidPathError(
            f"Refusing to index {norm}: it is a system or home root; choose a notes folder",
            details={"path": norm},
        )


def default_collection_name(path: str) -> str:
    """A collection name derived from a folder name (lowercase, invalid characters as ``-``)."""
    base = posixpath.basename(posixpath.normpath(path)).lower()
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "-" for ch in base)
    cleaned = cleaned.strip("-_")[:64] or "notes"
    return cleaned
