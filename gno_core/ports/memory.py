"""Port: the fact records of memory collections, as sync projected them from their files.

Recall finds facts through the lexical and vector ports with ``SearchFilters.memory_scopes``
(the eligible set: valid, current facts sharing a scope, decided inside the query); this port
reads the records of the documents found, and what remember and status need besides.
A fact is *current* unless an active, valid fact names it in ``relations.supersedes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from gno_core.facts import FactRecord, InvalidFact

#: A document of the index: (collection, rel_path).
DocKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class StoredFact:
    """A valid fact record of an active document, and whether a successor replaced it."""

    collection: str
    rel_path: str
    record: FactRecord
    superseded: bool


@dataclass(frozen=True, slots=True)
class FactDiagnostic:
    """An active document under ``facts/`` that is not a valid fact, and why."""

    collection: str
    rel_path: str
    problem: InvalidFact


class MemoryStore(Protocol):
    def facts(self, keys: Sequence[DocKey]) -> dict[DocKey, StoredFact]:
        """The valid fact records of the active documents ``keys`` (others left out)."""
        ...

    def facts_with_hash(self, collection: str, content_hash: str) -> list[StoredFact]:
        """Valid facts of ``collection`` (active documents) whose text has ``content_hash``,
        oldest first."""
        ...

    def successors(self, collection: str, rel_path: str) -> list[DocKey]:
        """Active documents holding a valid fact that supersedes the one at ``rel_path``."""
        ...

    def diagnostics(self, collections: Sequence[str], limit: int) -> list[FactDiagnostic]:
        """Invalid fact files of ``collections`` (active documents), by path, at most ``limit``."""
        ...

    def count_facts(self, collections: Sequence[str]) -> tuple[int, int, int]:
        """(current, superseded, invalid) fact files of ``collections``."""
        ...
