"""How a refactor says which saves of the user it kept: files a rollback (after a conflict,
a failure or a killed process) found changed since the commit wrote them, left as the user
saved them with the bytes the rollback would have restored beside them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gno_core.ports.refactors import KeptEdit

__all__ = ["joined", "kept_text", "rollback_text"]


def kept_text(kept: Iterable[KeptEdit]) -> str:
    """One sentence per kept file ("" when none)."""
    out: list[str] = []
    for edit in kept:
        if edit.copy_rel_path is None:
            out.append(f"Kept {edit.rel_path} as you saved it (the refactor had created it).")
        else:
            out.append(
                f"Kept {edit.rel_path} as you saved it; its version from before the refactor "
                f"is beside it: {edit.copy_rel_path}."
            )
    return " ".join(out)


def rollback_text(details: Mapping[str, Any]) -> str:
    """What a rolled-back apply kept of the user's saves, from its error's ``details``
    (``rolledBack``, ``kept``: ``{path, copy}`` each)."""
    kept = [KeptEdit("", k["path"], k["copy"]) for k in details.get("kept") or []]
    rolled = details.get("rolledBack") is True
    return joined("Every other file is as it was." if rolled else "", kept_text(kept))


def joined(*parts: str) -> str:
    """The non-empty ``parts``, one space apart."""
    return " ".join(p for p in parts if p)
