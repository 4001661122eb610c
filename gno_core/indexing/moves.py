"""Moves sync finds: a file moved outside gno (a shell ``mv``, an editor's or a file manager's
rename, a folder renamed) is seen by sync as one path gone and one new. When both are in the
same collection and the same sync pass and have the same source bytes (SHA-256), sync records
them as one move, which the change journal keeps as one ``rename`` entry.

Pairing with several identical candidates is deterministic: per source hash, the k-th new path
in path order takes the k-th gone path in path order (so a renamed folder full of identical
files maps each file to its own new place); new paths left over are creates, gone paths left
over are inactivations. A file whose bytes changed as it moved is a create and an inactivation.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Mapping

from gno_core.domain import SourceState

__all__ = ["MoveCandidates"]


class MoveCandidates:
    """The active documents of one collection whose paths the walk did not yield, by source
    hash, each taken at most once by a new path with the same hash."""

    def __init__(self, states: Mapping[str, SourceState], seen: Iterable[str]) -> None:
        present = set(seen)
        self._by_hash: dict[str, deque[str]] = defaultdict(deque)
        gone = [
            rel_path
            for rel_path, state in states.items()
            if state.active and not state.failed and rel_path not in present
        ]
        for rel_path in sorted(gone):
            self._by_hash[states[rel_path].source_hash].append(rel_path)
        #: the gone paths paired so far (their deactivation went with their move)
        self.taken: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self._by_hash)

    def take(self, source_hash: str) -> str | None:
        """The gone path a new file with ``source_hash`` moved from, or None."""
        waiting = self._by_hash.get(source_hash)
        if not waiting:
            return None
        rel_path = waiting.popleft()
        if not waiting:
            del self._by_hash[source_hash]
        self.taken.add(rel_path)
        return rel_path
