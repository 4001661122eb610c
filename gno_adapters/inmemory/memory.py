"""``InMemoryMemory``: the ``MemoryStore`` port over the in-memory index state."""

from __future__ import annotations

from collections.abc import Sequence

from gno_adapters.inmemory.state import InMemoryState
from gno_core.facts import InvalidFact
from gno_core.ports.memory import DocKey, FactDiagnostic, StoredFact, ignored_supersedes


class InMemoryMemory:
    def __init__(self, state: InMemoryState) -> None:
        self._s = state

    def facts(self, keys: Sequence[DocKey]) -> dict[DocKey, StoredFact]:
        out: dict[DocKey, StoredFact] = {}
        for key in keys:
            fact = self._stored(key)
            if fact is not None:
                out[key] = fact
        return out

    def facts_with_hash(self, collection: str, content_hash: str) -> list[StoredFact]:
        found = [
            fact
            for key in sorted(self._s.rows)
            if key[0] == collection
            and (fact := self._stored(key)) is not None
            and fact.record.content_hash == content_hash
        ]
        return sorted(found, key=lambda f: (f.record.created_at, f.rel_path))

    def successors(self, collection: str, rel_path: str) -> list[DocKey]:
        return self._s.successors(collection, rel_path)

    def diagnostics(self, collections: Sequence[str], limit: int) -> list[FactDiagnostic]:
        out = []
        for (collection, rel_path), row in sorted(self._s.rows.items()):
            if collection not in collections or not row.doc.active:
                continue
            if isinstance(row.fact, InvalidFact):
                out.append(FactDiagnostic(collection, rel_path, row.fact))
            for target in self._s.ignored_supersedes((collection, rel_path)):
                out.append(FactDiagnostic(collection, rel_path, ignored_supersedes(*target)))
        return out[: max(0, limit)]

    def count_facts(self, collections: Sequence[str]) -> tuple[int, int, int]:
        current = superseded = invalid = 0
        for key, row in self._s.rows.items():
            if key[0] not in collections or not row.doc.active or row.fact is None:
                continue
            if isinstance(row.fact, InvalidFact):
                invalid += 1
            elif self._s.successors(*key):
                superseded += 1
            else:
                current += 1
        return (current, superseded, invalid)

    def _stored(self, key: DocKey) -> StoredFact | None:
        record = self._s.valid_fact(key)
        if record is None:
            return None
        return StoredFact(key[0], key[1], record, bool(self._s.successors(*key)))
