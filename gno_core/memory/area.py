"""The facts area of a memory collection: its ``facts/`` folder, which ``remember`` alone
writes. Capture, create-folder and the refactors (move, rename, duplicate) refuse it, so a fact
file is never written, moved, renamed or copied by anything else; what gets there by other means
(an editor, a shell) is checked by its identity at ingest (``records.read_fact``)."""

from __future__ import annotations

import unicodedata

from gno_core.config import CollectionConfig
from gno_core.errors import InvalidPathError

__all__ = ["FACTS_FOLDER", "in_facts_area", "refuse_facts_area"]

#: The folder of a memory collection that only ``remember`` writes.
FACTS_FOLDER = "facts"


def in_facts_area(rel_path: str) -> bool:
    """Whether ``rel_path`` is the facts folder of a collection or inside it, in any case (a
    case-insensitive file system writes ``Facts/x`` into ``facts/``)."""
    first = rel_path.strip().lstrip("/").split("/", 1)[0]
    return unicodedata.normalize("NFC", first).casefold() == FACTS_FOLDER


def refuse_facts_area(collection: CollectionConfig, rel_path: str, what: str = "path") -> None:
    """``INVALID_PATH`` (``details.reason`` ``memory_facts``) when ``rel_path`` is in the facts
    area of memory collection ``collection``."""
    if collection.memory_managed and in_facts_area(rel_path):
        raise InvalidPathError(
            f"{what} {rel_path[:200]} is in the facts folder of memory collection "
            f"{collection.name}, which only gno remember writes (state a fact with gno "
            "remember / gno_remember)",
            details={"path": rel_path[:300], "reason": "memory_facts"},
        )
