"""Key stores: folders that hold private keys, tokens, passwords or session cookies. No
collection root is one or lies inside one (``indexing.roots``), and no ``SourceTree`` reads a
file inside one (``key_store_in``, asked of every file walked)."""

from __future__ import annotations

import re

__all__ = ["EXACT_KEY_STORES", "KEY_STORE", "KEY_STORES", "SYSTEM_KEY_STORES", "key_store_in"]

#: Folders (as consecutive path segments, matched anywhere and case-insensitively) that hold
#: private keys, tokens, passwords or session cookies.
KEY_STORES: tuple[tuple[str, ...], ...] = tuple(
    tuple(store.split("/"))
    for store in (
        ".ssh",
        ".gnupg",
        ".gpg",
        ".aws",
        ".azure",
        ".kube",
        ".docker",
        ".password-store",
        ".gcloud",
        ".pki",
        ".mozilla",
        ".thunderbird",
        ".terraform.d",
        ".vault-token",
        ".netrc",
        ".git-credentials",
        ".oci",
        ".bluemix",
        ".minikube",
        ".talos",
        ".m2",
        ".cargo",
        ".electrum",
        ".bitcoin",
        ".ethereum",
        ".gnome2/keyrings",
        ".local/share/keyrings",
        ".local/share/kwalletd",
        ".config/gh",
        ".config/hub",
        ".config/gcloud",
        ".config/op",
        ".config/1password",
        ".config/rclone",
        ".config/doctl",
        ".config/sops",
        ".config/google-chrome",
        ".config/chromium",
        ".config/bravesoftware",
        ".config/microsoft-edge",
        ".config/vivaldi",
        "library/keychains",
    )
)
#: Key stores that are one only where the system puts them: ``Library/Cookies`` in that case
#: (a notes folder ``library/cookies`` of recipes is not one), the host's keys under ``/etc``.
EXACT_KEY_STORES = ("Library/Cookies",)
SYSTEM_KEY_STORES = ("/etc/ssh", "/etc/ssl/private", "/etc/pki", "/etc/letsencrypt")
_DOTTED = sorted("/".join(store)[1:] for store in KEY_STORES if store[0].startswith("."))
_PLAIN = sorted("/".join(store) for store in KEY_STORES if not store[0].startswith("."))
_STORES_RX = re.compile(  # "/." first, so most positions fail at once
    r"(?:^|/)(\.(?:"
    + "|".join(map(re.escape, _DOTTED))
    + ")|"
    + "|".join(map(re.escape, _PLAIN))
    + r")(?=/|$)",
    re.IGNORECASE,
)
_EXACT_RX = re.compile(
    "(?:^|/)(" + "|".join(re.escape(store) for store in EXACT_KEY_STORES) + ")(?=/|$)"
)
#: ``details.code`` of a refusal nobody overrides: the folder is, or is inside, a key store.
KEY_STORE = "KEY_STORE"


def key_store_in(path: str) -> str | None:
    """The key store ``path`` is or lies under (the path up to and including it, as spelled
    in ``path``), or None. ``path`` is absolute or relative; ``KEY_STORES`` segments compare
    case-insensitively (a case-insensitive disk opens ``~/.SSH`` as ``~/.ssh``). Cheap (two
    regular expressions, skipped for a path with no hidden segment, ``library`` or ``/etc/``),
    so sync asks it of every file it walks."""
    if (
        "/." not in path
        and not path.startswith(".")
        and "ibrary" not in path.casefold()
        and not path.startswith("/etc/")
    ):
        return None  # every store is a hidden segment but these
    found = _STORES_RX.search(path) or _EXACT_RX.search(path)
    if found is not None:
        return path[: found.end(1)]
    for system in SYSTEM_KEY_STORES:
        if path == system or path.startswith(system + "/"):
            return system
    return None
