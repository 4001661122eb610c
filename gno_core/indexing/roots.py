"""Collection root safety: refuse folders whose indexing would sweep a whole system or home, or
hand keys and credentials to whoever reads the index.

Pure (the caller resolves the path, symlinks included, and names the home folder, resolved too),
so every front end that adds a collection (CLI, MCP ``gno_add_collection``) applies the same rule:

- **Key stores** (``~/.ssh``, ``~/.gnupg``, ``~/.aws``, ``~/.config/gh``, keyrings, browser
  profiles ...; ``KEY_STORES``) and every folder under one are never a root, for any caller and
  with no override (``details.code`` ``KEY_STORE``). They are matched as path segments anywhere in
  the resolved path, case-insensitively, so another user's ``.ssh`` or one reached through a
  symlink is refused as well. ``key_store_in`` is the same test for a file inside a collection.
- **Broad roots** (``/``, the home folder, system folders, ``/home``, ``/tmp`` ...) and the
  home folder's other hidden folders, its macOS ``Library``, and everything under them
  (``~/.config``, ``~/.local/share``, ``~/.cache/x`` ...) are refused (``details.code`` ``BROAD_ROOT``) unless the person passes
  ``allow_broad`` (the CLI's ``--allow-broad-root``); an agent's tool call never can.
  ``/tmp/notes``, ``/home/ana/notes`` or ``/opt/wiki`` are fine.
- ``overlapping_root`` finds an existing collection whose root contains, or is inside, a new one.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from gno_core.errors import InvalidPathError
from gno_core.sources.key_stores import KEY_STORE, key_store_in

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
_HOME = "the home folder"
_BROAD = "a folder that holds far more than notes"
_HINTED = (_HOME, _BROAD)
_LIB = re.compile(r"/lib(?:32|64|x32|exec)?")

#: ``details.code`` of a refusal the person may override (``--allow-broad-root``).
BROAD_ROOT = "BROAD_ROOT"


def _norm(path: str) -> str:
    norm = posixpath.normpath(path) if path else ""
    if norm.startswith("//"):
        norm = "/" + norm.lstrip("/")  # POSIX keeps a leading "//"; it is still the root
    return norm


def _hidden_home_folder(norm: str, home: str) -> str | None:
    """The hidden folder of ``home`` (or its macOS ``Library``) that ``norm`` is or lies under
    (``~/.config`` for ``~/.config/x/y``), or None."""
    if not home or home == "/" or not norm.startswith(home + "/"):
        return None
    first = norm[len(home) + 1 :].split("/", 1)[0]
    hidden = first.startswith(".") or first.casefold() == "library"
    return posixpath.join(home, first) if hidden else None


def broad_root_reason(path: str, home: str) -> str | None:
    """Why ``path`` (absolute, resolved) is too broad to be a collection root, or None (a key
    store is ``key_store_in``'s to say)."""
    norm = _norm(path)
    home_norm = _norm(home)
    if norm in SYSTEM_ROOTS or _LIB.fullmatch(norm):
        return "a system folder"
    if home_norm and norm == home_norm:
        return _HOME
    hidden = _hidden_home_folder(norm, home_norm)
    if hidden is not None:
        inside = "" if hidden == norm else f"inside {hidden}, "
        return f"{inside}a hidden folder of the home folder (settings and caches, not notes)"
    if norm in BROAD_ROOTS:
        return _BROAD
    return None


def check_collection_root(path: str, home: str, *, allow_broad: bool = False) -> None:
    """Raise ``INVALID_PATH`` for a root that is, or is inside, a key store (``details.code``
    ``KEY_STORE``, whatever ``allow_broad`` says), or one that is too broad (``BROAD_ROOT``:
    ``/``, the home folder and its hidden folders, system folders, bare broad roots such as
    ``/home``, ``/tmp``, ``/opt``) unless ``allow_broad``. ``path`` and ``home`` must be
    absolute and resolved."""
    norm = _norm(path)
    store = key_store_in(norm)
    if store is not None:
        where = "is" if store == norm else f"is inside {store}, which is"
        raise InvalidPathError(
            f"Refusing to index {norm}: it {where} a store of keys, tokens or credentials; "
            "gno never indexes such a folder or anything in it",
            details={"code": KEY_STORE, "path": norm, "keyStore": store},
        )
    reason = broad_root_reason(norm, home)
    if reason is None or allow_broad:
        return
    # Inside the home folder or a bare broad root is where notes live; not so for the rest.
    hint = "; choose a notes folder inside it" if reason in _HINTED else ""
    raise InvalidPathError(
        f"Refusing to index {norm}: it is {reason}{hint}",
        details={"code": BROAD_ROOT, "path": norm},
    )


def _contains(outer: str, inner: str) -> bool:
    return outer == inner or inner.startswith(outer.rstrip("/") + "/")


def overlapping_root(path: str, others: Iterable[tuple[str, str]]) -> tuple[str, str, str] | None:
    """The first of ``others`` (``(name, root)``) whose root contains ``path`` or lies inside it,
    as ``(name, root, relation)`` with relation ``inside`` (``path`` is inside that root),
    ``contains`` or ``same``; None when the folders are apart."""
    norm = _norm(path)
    for name, root in others:
        other = _norm(root)
        if other == norm:
            return name, root, "same"
        if _contains(other, norm):
            return name, root, "inside"
        if _contains(norm, other):
            return name, root, "contains"
    return None


def default_collection_name(path: str) -> str:
    """A collection name derived from a folder name (lowercase, invalid characters as ``-``)."""
    base = posixpath.basename(posixpath.normpath(path)).lower()
    cleaned = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "-" for ch in base)
    cleaned = cleaned.strip("-_")[:64] or "notes"
    return cleaned
