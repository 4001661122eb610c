"""Live indexing: every batch of file changes becomes one sync of the collections it touches
(the same ``sync`` use case, under the same write lease), and embedding follows behind,
stopping at its next batch whenever new changes are waiting so edits stay searchable fast."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gno_core.config import CollectionConfig
from gno_core.contracts import SyncResult
from gno_core.contracts.embedding import EmbedResult
from gno_core.errors import GnoError
from gno_core.indexing.collections import Collections
from gno_core.indexing.runs import IndexRuns
from gno_core.ports import SemanticModels
from gno_core.ports.changes import ChangeFeed
from gno_core.ports.lease import Cancelled
from gno_core.sources.patterns import exclusions

__all__ = ["LiveEvent", "LiveIndexer", "touched_collections"]


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """What one round did: the sync of ``collections`` (or the error that stopped it), and
    the embedding that followed (None when skipped or interrupted before it began)."""

    collections: tuple[str, ...]
    changed: int
    sync: SyncResult | None = None
    embed: EmbedResult | None = None
    error: GnoError | None = None

    def summary(self) -> str:
        """One line for a terminal or a log."""
        names = ", ".join(self.collections)
        if self.sync is None:
            return f"{names}: sync failed: {self.error.message if self.error else 'unknown'}"
        s = self.sync
        line = (
            f"{names}: {self.changed} changed path(s) -> +{s.total_added} ~{s.total_updated} "
            f"-{s.total_removed} !{s.total_failed} in {s.duration_ms:.0f} ms"
        )
        if self.embed is not None:
            line += f"; embedded {self.embed.embedded} chunk(s)"
        return line


def _under(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` (POSIX or Windows separators), or None when outside."""
    base = root.rstrip("/\\")
    if path == base:
        return ""
    for sep in ("/", "\\"):
        if path.startswith(base + sep):
            return path[len(base) + 1 :].replace("\\", "/")
    return None


def touched_collections(
    paths: frozenset[str], collections: Sequence[CollectionConfig]
) -> list[str]:
    """The collections a change to ``paths`` can concern: the path is under the root and no
    segment of it is excluded (a change inside ``.git`` or ``node_modules`` syncs nothing)."""
    names = []
    for collection in collections:
        excluded_name, excluded_path = exclusions(collection.exclude)
        for path in paths:
            rel = _under(path, collection.path)
            if rel is None:
                continue
            segments = [s for s in rel.split("/") if s]
            if any(excluded_name(s) for s in segments):
                continue
            if excluded_path is not None and rel and excluded_path(rel):
                continue
            names.append(collection.name)
            break
    return names


class LiveIndexer:
    def __init__(
        self,
        runs: IndexRuns,
        collections: Collections,
        models: SemanticModels,
        feed: ChangeFeed,
    ) -> None:
        self._runs = runs
        self._collections = collections
        self._models = models
        self._feed = feed

    def run(
        self,
        names: list[str] | None,
        stop: Cancelled,
        *,
        embed: bool = True,
        on_event: Callable[[LiveEvent], None] | None = None,
    ) -> None:
        """Sync ``names`` (all collections when None) now, then again on every batch of
        changes until ``stop()``; errors of one round are reported and the watch goes on."""
        chosen = self._collections.chosen(names)
        every = tuple(c.name for c in chosen)
        # Watching starts before the first sync: a change during that sync is a batch after it.
        batches = self._feed.batches([c.path for c in chosen], stop)
        # The backlog found at start (every collection's) stays owed until an embedding run
        # over it completes, whichever collections later batches touch.
        owed = set(every)
        self._round(every, len(every), stop, embed, on_event, owed)
        for batch in batches:
            touched = touched_collections(batch, chosen)
            if touched:
                self._round(tuple(touched), len(batch), stop, embed, on_event, owed)

    def _round(
        self,
        names: tuple[str, ...],
        changed: int,
        stop: Cancelled,
        embed: bool,
        on_event: Callable[[LiveEvent], None] | None,
        owed: set[str],
    ) -> None:
        try:
            synced = self._runs.sync(list(names), cancelled=stop)
        except GnoError as exc:
            if on_event is not None:
                on_event(LiveEvent(names, changed, error=exc))
            return
        embedded = None
        if embed and self._models.embedder is not None and not self._feed.pending():
            targets = [*names, *sorted(owed.difference(names))]
            try:
                embedded = self._runs.embed(
                    targets, cancelled=lambda: stop() or self._feed.pending()
                )
                owed.difference_update(targets)
            except GnoError as exc:
                if exc.code != "CANCELLED" and on_event is not None:
                    on_event(LiveEvent(names, changed, synced, error=exc))
                    return
        if on_event is not None:
            on_event(LiveEvent(names, changed, synced, embedded))
