"""Port: the stream of file changes under collection roots that keeps the index live."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from gno_core.ports.lease import Cancelled


class ChangeFeed(Protocol):
    def batches(self, roots: Sequence[str], stop: Cancelled) -> Iterator[frozenset[str]]:
        """Start watching ``roots`` now (before the caller's first sync) and return the batches
        of changed paths (absolute, under ``roots``) until ``stop()`` is true: a
        burst of changes (a checkout, a save's write-rename dance) arrives as one batch, and
        batches that piled up while the caller was busy are merged into one. Where file events
        are unavailable the feed falls back to a periodic scan and yields ``roots``
        themselves (every collection is synced). A root that is removed, recreated, moved
        away or replaced by a file or a symlink is noticed and logged; once a folder stands
        there again it is watched and the root itself is yielded (its changes meanwhile were
        missed), so its collection is synced."""
        ...

    def pending(self) -> bool:
        """Whether a batch is waiting: background work (embedding) yields to it."""
        ...
