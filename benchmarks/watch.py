"""Live indexing: ``python -m benchmarks.watch [--edits 100] [--burst 5000] [--recreate 30]
[--random-minutes 0]`` (0 skips a part).

Runs ``Gno.watch`` (watchfiles feed, real walker and SQLite, no embedding) in a thread over a
generated collection and measures, from outside through a second facade as a user would:

- edit-to-searchable latency over ``--edits`` saves (each adds a fresh word; the time until a
  search finds it), p50/p95 (target p95 <= 1 s);
- ``--burst`` files written at once (a checkout): how many syncs it took (target <= 3);
- ``--recreate`` rounds of the collection root replaced under the watch (in turn ``rm -rf root
  && mkdir root``, ``mv root root.old && mkdir root``, its parent folder renamed): the time
  from the new root to a note written in it being searchable, then of a second note written
  after that (the re-armed watch), p50/max (target max <= 3 s);
- with ``--random-minutes``, a randomized mix of edits, renames and deletes for that long,
  then the index is compared with the folder: every file present with its last word, nothing
  deleted still found (target: 0 missed changes).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.metrics import percentile

if TYPE_CHECKING:
    from gno_core.indexing.live import LiveEvent


def _searchable(word: str, uri: str | None, deadline: float = 30.0) -> float:
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.requests import SearchRequest

    started = time.perf_counter()
    with open_gno() as gno:
        while time.perf_counter() - started < deadline:
            uris = [r.uri for r in gno.search(SearchRequest(query=word)).results]
            if (uri in uris) if uri else not uris:
                return time.perf_counter() - started
            time.sleep(0.01)
    raise SystemExit(f"FAIL: {word!r} not {'found' if uri else 'gone'} after {deadline} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--burst", type=int, default=5000)
    parser.add_argument("--notes", type=int, default=500, help="notes in the collection")
    parser.add_argument("--recreate", type=int, default=30, help="root replaced, rounds")
    parser.add_argument("--random-minutes", type=float, default=0.0)
    args = parser.parse_args()
    from gno_adapters.bootstrap import open_gno
    from gno_core.config import CollectionConfig

    with tempfile.TemporaryDirectory(prefix="gno-watch-bench-") as tmp:
        for var, name in (("GNO_CONFIG_DIR", "c"), ("GNO_DATA_DIR", "d"), ("GNO_CACHE_DIR", "k")):
            os.environ[var] = str(Path(tmp) / name)
        root = Path(tmp) / "vaults" / "notes"
        root.mkdir(parents=True)
        for i in range(args.notes):
            (root / f"note{i:04d}.md").write_text(f"# Note {i}\n\nfiller text {i}\n")
        with open_gno() as gno:
            gno.add_collection(CollectionConfig(name="notes", path=str(root)))
        events: list[LiveEvent] = []
        stop = threading.Event()

        def watch() -> None:
            with open_gno() as gno:
                gno.watch(stop=stop.is_set, embed=False, on_event=events.append)

        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        while not events:
            time.sleep(0.05)
        print(f"collection: {args.notes} notes; first sync {events[0].sync.duration_ms:.0f} ms")  # type: ignore[union-attr]

        latencies = []
        for n in range(args.edits):
            word = f"edit{n}x{random.randrange(10**9)}"
            path = root / f"note{n % args.notes:04d}.md"
            path.write_text(f"# Note\n\nnow {word}\n")
            latencies.append(_searchable(word, f"gno://notes/{path.name}"))
        if latencies:
            p95 = percentile(latencies, 95)
            print(
                f"edit -> searchable over {args.edits} edits: "
                f"p50 {percentile(latencies, 50):.3f} s, "
                f"p95 {p95:.3f} s, max {max(latencies):.3f} s "
                f"(target p95 <= 1 s: {'PASS' if p95 <= 1 else 'FAIL'})"
            )
        if args.burst > 0:
            _burst(root, events, args.burst)
        if args.recreate > 0:
            _recreated(root, args.recreate)
        if args.random_minutes > 0:
            missed = _randomized(root, args.random_minutes)
            print(
                f"randomized edits/renames/deletes for {args.random_minutes:g} min: {missed} missed change(s)"
            )
        stop.set()
        thread.join(timeout=30)
    return 0


def _burst(root: Path, events: list[LiveEvent], count: int) -> None:
    time.sleep(1.0)
    before = len(events)
    burst = root / "checkout"
    burst.mkdir()
    started = time.perf_counter()
    for i in range(count):
        (burst / f"f{i:05d}.md").write_text(f"# F{i}\n\nburstword{i}\n")
    written = time.perf_counter() - started
    _searchable(f"burstword{count - 1}", f"gno://notes/checkout/f{count - 1:05d}.md", 120)
    while sum(e.sync.total_added for e in events[before:] if e.sync) < count:
        time.sleep(0.05)
    time.sleep(2.0)
    syncs = len(events) - before
    took = time.perf_counter() - started
    print(
        f"{count} files written in {written:.2f} s -> {syncs} sync(s), all searchable "
        f"{took:.2f} s after the first write (target <= 3 syncs: "
        f"{'PASS' if syncs <= 3 else 'FAIL'})"
    )


def _recreated(root: Path, rounds: int) -> None:
    """``rounds`` times: the root replaced (in turn ``rm -rf`` + ``mkdir``, ``mv`` + ``mkdir``,
    its parent folder renamed + ``mkdir -p``), a note written in the new root, the time until it
    is searchable; then a second note, the time until the re-armed watch made it searchable."""
    import logging
    import shutil

    rearmed: list[str] = []

    class _Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "re-armed" in record.getMessage():
                rearmed.append(record.getMessage())

    logging.getLogger("gno_adapters.watch.feed").addHandler(_Count())
    ways = ("rm -rf root", "mv root root.old", "mv parent parent.old")
    first: dict[str, list[float]] = {how: [] for how in ways}
    second: dict[str, list[float]] = {how: [] for how in ways}
    for n in range(rounds):
        how = ways[n % len(ways)]
        time.sleep(0.3)  # the previous round's syncs are done
        if how == ways[0]:
            shutil.rmtree(root)
        elif how == ways[1]:
            os.rename(root, root.with_name(f"{root.name}.old{n}"))
        else:
            os.rename(root.parent, root.parent.with_name(f"{root.parent.name}.old{n}"))
        root.mkdir(parents=True)
        started = time.perf_counter()
        word = f"recreated{n}x{random.randrange(10**9)}"
        (root / f"r{n}.md").write_text(f"# R\n\n{word}\n")
        _searchable(word, f"gno://notes/r{n}.md")
        first[how].append(time.perf_counter() - started)
        word = f"after{n}x{random.randrange(10**9)}"
        (root / f"s{n}.md").write_text(f"# S\n\n{word}\n")
        second[how].append(_searchable(word, f"gno://notes/s{n}.md"))
    worst = 0.0
    for how, found in first.items():
        if not found:
            continue
        worst = max(worst, *found, *second[how])
        print(
            f"{how} && mkdir, x{len(found)}: a note in the new root searchable after "
            f"p50 {percentile(found, 50):.3f} s, max {max(found):.3f} s; the next note "
            f"p50 {percentile(second[how], 50):.3f} s, max {max(second[how]):.3f} s"
        )
    print(
        f"  {len(rearmed)} re-armed log line(s) over {rounds} round(s) "
        f"(target max <= 3 s: {'PASS' if worst <= 3 else 'FAIL'})"
    )


def _randomized(root: Path, minutes: float) -> int:
    """Random edits, renames, creates and deletes for ``minutes``, then the index is checked
    against the folder. Returns the number of files whose state the index does not show."""
    from gno_adapters.bootstrap import open_gno
    from gno_core.contracts.requests import SearchRequest

    rng = random.Random(15)
    folder = root / "random"
    folder.mkdir()
    live: dict[str, str] = {}  # file name -> its current unique word
    gone: set[str] = set()  # words of deleted or overwritten contents
    counter = 0
    deadline = time.monotonic() + minutes * 60
    operations = 0
    while time.monotonic() < deadline:
        counter += 1
        word = f"rnd{counter}q"
        action = rng.random()
        if not live or action < 0.35:
            name = f"r{counter}.md"
            (folder / name).write_text(f"# R\n\n{word}\n")
            live[name] = word
        elif action < 0.65:
            name = rng.choice(sorted(live))
            gone.add(live[name])
            (folder / name).write_text(f"# R\n\n{word}\n")
            live[name] = word
        elif action < 0.85:
            name = rng.choice(sorted(live))
            new = f"r{counter}.md"
            os.rename(folder / name, folder / new)
            live[new] = live.pop(name)
        else:
            name = rng.choice(sorted(live))
            gone.add(live.pop(name))
            (folder / name).unlink()
        operations += 1
        time.sleep(rng.uniform(0.0, 0.2))
    time.sleep(3.0)  # the last burst's sync
    missed = 0
    with open_gno() as gno:
        for name, word in live.items():
            uris = [r.uri for r in gno.search(SearchRequest(query=word)).results]
            missed += uris != [f"gno://notes/random/{name}"]
        for word in gone:
            missed += bool(gno.search(SearchRequest(query=word)).results)
    print(
        f"  {operations} operations, {len(live)} files at the end, {len(gone)} stale words checked"
    )
    return missed


if __name__ == "__main__":
    sys.exit(main())
