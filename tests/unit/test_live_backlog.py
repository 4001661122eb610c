"""Issue 22, failure 6: ``gno watch`` (and the resident server's live index, the same
``LiveIndexer``) embeds the backlog that was there before it started, in every watched
collection, even when changes arrive before its first embedding could run or finish."""

from __future__ import annotations

import threading

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.watch.feed import ManualFeed
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.indexing.live import LiveEvent


def test_watch_embeds_the_backlog_found_at_start() -> None:
    adapters = in_memory({"a.md": "# A\n\nalpha\n"})
    adapters.tree.mkdir("/other")  # type: ignore[attr-defined]
    adapters.tree.write("/other/x.md", "# X\n\nxray\n")  # type: ignore[attr-defined]
    adapters.config.save(
        GnoConfig(
            collections=[
                CollectionConfig(name="notes", path="/notes"),
                CollectionConfig(name="other", path="/other"),
            ]
        )
    )
    feed = adapters.changes
    assert isinstance(feed, ManualFeed)
    gno = build(adapters)
    gno.sync()  # indexed without embedding: a backlog in both collections
    assert gno.vector_gap_message(["other"]) is not None
    # An edit lands before the first round could embed (the first sync of a large vault).
    adapters.tree.write("/notes/b.md", "# B\n\nbravo\n")  # type: ignore[attr-defined]
    feed.push({"/notes/b.md"})
    events: list[LiveEvent] = []
    stop = threading.Event()

    def on_event(event: LiveEvent) -> None:
        events.append(event)
        if len(events) == 2:
            stop.set()

    gno.watch(stop=stop.is_set, on_event=on_event)
    first, second = events
    assert first.embed is None  # changes were waiting: the first round yielded to them
    assert second.collections == ("notes",)  # only notes changed
    assert second.embed is not None and second.embed.pending == 0
    assert gno.vector_gap_message() is None  # other's backlog too
