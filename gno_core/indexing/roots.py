"""Collection root safety: refuse folders whose indexing would sweep a whole system or home.

Pure (the caller resolves the path and names the home folder), so every front end that adds a
collection (CLI, MCP ``gno_add_collection``) applies the same rule. Only the bare roots are
refused: ``/tmp/notes``, ``/home/ana/notes`` or ``/opt/wiki`` are fine.
"""

from __future__ import annotations

import posixpath
import re

from gno_core.errors import InvalidPathError

#: The spec's "Collection Root Validation" list (system part).
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
#: Folders that hold every user's files, boot images, packages or mounts: broad, not notes.
BROAD_ROOTS = (
    "/home",
    "/Users",
    "/root",
    "/tmp",
    "/boot",
    "/opt",
    "/srv",
    "/mnt",
    "/media",
    "/Volumes",
    "/private",
    "/run",
)
#: The home folder itself ("") and its config and key stores.
HOME_SECRETS = ("", ".config", ".local", ".ssh", ".gnupg")
_LIB = re.compile(r"/lib(?:32|64|x32|exec)?")

#: ``details.code`` of the refusal: stable, for callers that offer an override.
BROAD_ROOT = "BROAD_ROOT"


def broad_root_reason(path: str, home: str) -> str | None:
    """Why ``path`` (absolute, resolved) is too broad to be a collection root, or None."""
    norm = posixpath.normpath(path)
    if norm.startswith("//"):
        norm = "/" + norm.lstrip("/")  # POSIX keeps a leading "//"; it is still the root
    home_norm = posixpath.normpath(home) if home else ""
    if norm in SYSTEM_ROOTS or _LIB.fullmatch(norm):
        return "a system folder"
    if home_norm:
        for secret in HOME_SECRETS:
            if norm == (posixpath.join(home_norm, secret) if secret else home_norm):
                return "the home folder" if not secret else "a configuration or key store"
    if norm in BROAD_ROOTS:
        return "a folder that holds far more than notes"
    return None


def check_collection_root(path: str, home: str, *, allow_broad: bool = False) -> None:
    """Raise ``INVALID_PATH`` (``details.code`` ``BROAD_ROOT``) for ``/``, the home folder,
    system folders, the home folder's config and key stores, and other bare broad roots
    (``/home``, ``/tmp``, ``/opt`` ...), unless ``allow_broad``. ``path`` must be absolute and
    resolved."""
    reason = broad_root_reason(path, home)
    if reason is None or allow_broad:
        return
    norm = posixpath.normpath(path)
    raise InvalidPathError(
        f"Refusing to index {norm}: it is {reason}; choose a notes folder inside it",
        details={"code": BROAD_ROOT, "path": norm},
    )


def default_collection_name(path: str) -> str:
    """A collection name derived from a folder name (lowercase, invalid characters as ``-``)."""
    base = posixpath.basename(posixpath.normpath(path)).lower()
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "-" for ch in base)
    cleaned = cleaned.strip("-_")[:64] or "notes"
    return cleaned
