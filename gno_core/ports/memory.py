"""Port: the fact records of memory collections, as sync projected them from their files.

Recall finds facts through the lexical and vector ports with ``SearchFilters.memory_scopes``
(the eligible set: valid, current facts sharing a scope, decided inside the query); this port
reads the records of the documents found, and what remember and status need besides.
A fact is *current* unless an active, valid fact **of the same collection that shares one of
its scopes** names it in ``relations.supersedes``; any other ``supersedes`` entry (another
collection's path, a fact no scope of the successor reaches) supersedes nothing and is
reported by ``diagnostics`` (``MEMORY_SUPERSEDES_IGNORED``) beside the fact stating it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from gno_core.facts import FactRecord, InvalidFact
from gno_core.identity import make_uri

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
    """An active document under ``facts/`` that is not a valid fact, and why; or a valid fact
    one of whose ``supersedes`` entries is ignored (``MEMORY_SUPERSEDES_IGNORED``)."""

    collection: str
    rel_path: str
    problem: InvalidFact


def ignored_supersedes(collection: str, rel_path: str) -> InvalidFact:
    """The problem a fact's ``supersedes`` entry naming ``collection/rel_path`` has when it
    supersedes nothing (another collection, or no shared scope)."""
    return InvalidFact(
        "MEMORY_SUPERSEDES_IGNORED",
        f"supersedes {make_uri(collection, rel_path)} is ignored: a fact supersedes only facts of "
        "its own collection that share one of its scopes",
    )


class MemoryStore(Protocol):
    def facts(self, keys: Sequence[DocKey]) -> dict[DocKey, StoredFact]:
        """The valid fact records of the active documents ``keys`` (others left out)."""
        ...

    def facts_with_hash(self, collection: str, content_hash: str) -> list[StoredFact]:
        """Valid facts of ``collection`` (active documents) whose text has ``content_hash``,
        oldest first."""
        ...

    def successors(self, collection: str, rel_path: str) -> list[DocKey]:
        """Active documents of ``collection`` holding a valid fact that names the one at
        ``rel_path`` and shares one of its scopes."""
        ...

    def diagnostics(self, collections: Sequence[str], limit: int) -> list[FactDiagnostic]:
        """Invalid fact files of ``collections`` (active documents), and the valid facts there
        with an ignored ``supersedes`` entry (one diagnostic per entry), by path, at most
        ``limit``."""
        ...

    def count_facts(self, collections: Sequence[str]) -> tuple[int, int, int]:
        """(current, superseded, invalid) fact files of ``collections``."""
        ...
