"""Links at sync and at read time.

1. Real vaults (dendron-site, foam-docs): extraction alone (the parser over every canonical
   mirror), a first sync with links, and resolution alone (every link marked pending again,
   then resolved), with link counts.
2. A generated vault of ``--notes`` notes (default 50,000) with 6 links each (300k links: wiki
   names, wiki paths, Markdown relative links, one frontmatter relation) beside a vault of the
   same notes without link syntax, synced in the same run: notes/s of each, and a no-change
   re-sync (which must extract nothing).
3. Backlinks of a hub that 2,500 notes link to, through the MCP tool's work (request
   validation, the answer in its wire form, the text, ``structuredContent`` and the JSON bytes
   of the result: the target's figure) and through the Python API (``Gno.backlinks``, validated
   models): p50 / p95 over ``--rounds`` calls, beside ``Gno.links`` of one note measured in the
   same run. ``--backlinks-only`` skips the syncs' figures and the no-links vault.

Every target is printed beside its measured figure and a baseline from the same run (the
machine is shared: compare ratios across runs, not absolute times). CPU time of the process is
printed beside wall time where load distorts the wall clock.

Usage: python benchmarks/links.py [--notes 50000] [--rounds 50] [--work DIR] [--skip-real]
       [--sync-only] [--backlinks-only] (``--sync-only``: part 2 without part 3's reads)
Prints figures; asserts nothing. Data is generated under a temporary folder (or ``--work``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import SHARED  # noqa: E402
from benchmarks.metrics import summary_ms  # noqa: E402

WORDS = (
    "note idea garden link graph project meeting draft review summary plan topic research "
    "reading writing tool method result question answer source reference"
).split()
HUB_INBOUND = 2500
PER_FOLDER = 1000


def _open(home: Path):  # type: ignore[no-untyped-def]
    import gno_core

    env = {
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    return gno_core.open(env=env)


def _add(gno, name: str, path: Path) -> None:  # type: ignore[no-untyped-def]
    from gno_core.config import CollectionConfig

    gno.add_collection(CollectionConfig(name=name, path=str(path)))


def real_vault(name: str, folder: Path, work: Path) -> None:
    from gno_adapters.files.frontmatter import YamlFrontmatterParser
    from gno_core.links.extract import extract_links
    from gno_core.links.resolve import resolve_pending
    from gno_core.text.canonical import canonicalize
    from gno_core.text.frontmatter import split_frontmatter

    parser = YamlFrontmatterParser()
    files = sorted(folder.rglob("*.md"))
    texts = [(p.relative_to(folder).as_posix(), canonicalize(p.read_text("utf-8"))) for p in files]
    started = time.perf_counter()
    total = 0
    for rel, text in texts:
        yaml, body = split_frontmatter(text)
        front = dict(parser.parse(yaml)) if yaml is not None else {}
        total += len(
            extract_links(text, rel, front, text.count("\n", 0, len(text) - len(body)) + 1)
        )
    extract_s = time.perf_counter() - started

    gno = _open(work / name)
    _add(gno, name, folder)
    started = time.perf_counter()
    gno.sync()
    sync_s = time.perf_counter() - started
    index = gno.handle.index
    conn = index.documents._db.conn
    conn.execute(
        "UPDATE doc_links SET state = 'pending' WHERE state != 'external' AND keys != '[]'"
    )
    started = time.perf_counter()
    resolved = resolve_pending(index.links)
    resolve_s = time.perf_counter() - started
    counts = index.links.counts()
    gno.close()
    print(
        f"{name}: {len(files)} notes, {total} links; extraction {extract_s * 1000:.0f} ms "
        f"({extract_s / len(files) * 1e6:.0f} us/note); resolution of {resolved} links "
        f"{resolve_s * 1000:.0f} ms; first sync {sync_s:.2f} s; resolved {counts.resolved}, "
        f"ambiguous {counts.ambiguous}, unresolved {counts.unresolved}, external {counts.external}"
    )


def generate(target: Path, notes: int, *, links: bool, seed: int = 7) -> int:
    """``notes`` notes in folders of 1,000; with ``links``, 6 per note: wiki names, a wiki path
    with a label, a relative Markdown link with an anchor, an embed, and a typed frontmatter
    relation in one note of ten (the other nine write that link in the body). Notes i < 2,500
    link the hub. Without ``links`` the same notes keep their text and frontmatter shape with
    no link syntax. Returns the number of links written."""
    rng = random.Random(seed)
    written = 0
    (target / "hub").mkdir(parents=True, exist_ok=True)
    (target / "hub" / "hub.md").write_text("# Hub\n\nThe centre of the vault.\n", "utf-8")
    for i in range(notes):
        folder = target / f"f{i // PER_FOLDER:03d}"
        if i % PER_FOLDER == 0:
            folder.mkdir(parents=True, exist_ok=True)
        words = " ".join(rng.choice(WORDS) for _ in range(60))
        a, b, c, d, e, f = (rng.randrange(notes) for _ in range(6))
        typed = i % 10 == 0
        if links:
            head = f'---\nrelations:\n  related: "[[note-{a}]]"\n---\n' if typed else ""
            first = "" if typed else f" (also [[note-{a}]])"
            body = (
                f"{head}# Note {i}\n\n{words[:200]} see [[note-{b}]]{first}, [[note-{f}]] and "
                f"[[f{c // PER_FOLDER:03d}/note-{c}|that one]].\n\n{words[200:]} "
                f"[more](../f{d // PER_FOLDER:03d}/note-{d}.md#top) "
                + ("and [[hub]]." if i < HUB_INBOUND else f"and ![[note-{e}]].")
                + "\n"
            )
            written += 6
        else:
            head = f'---\nabout:\n  related: "note {a}"\n---\n' if typed else ""
            first = "" if typed else f" (also note {a})"
            body = (
                f"{head}# Note {i}\n\n{words[:200]} see note {b}{first}, note {f} and that one, "
                f"f{c // PER_FOLDER:03d} note {c}.\n\n{words[200:]} more, note {d} top, and "
                + ("the hub." if i < HUB_INBOUND else f"note {e}.")
                + "\n"
            )
        (folder / f"note-{i}.md").write_text(body, "utf-8")
    return written


SYNC_TARGET = 1000  # notes/s
BACKLINKS_TARGET_MS = 20.0


def _extractions() -> list[int]:
    """Count the calls of the link parser made by sync from now on (a one-item list)."""
    from gno_core.indexing import ingest

    calls = [0]
    parse = ingest.extract_links

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return parse(*args, **kwargs)

    ingest.extract_links = counted  # type: ignore[assignment]
    return calls


Timed = tuple[list[float], list[float]]


def _timed(rounds: int, fn: Callable[[int], object]) -> Timed:
    """Wall and process CPU seconds of ``rounds`` calls ``fn(i)`` after one warm-up ``fn(-1)``
    (imports, pydantic builds)."""
    fn(-1)
    wall, cpu = [], []
    for i in range(rounds):
        started, used = time.perf_counter(), time.process_time()
        fn(i)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return wall, cpu


def _mcp_backlinks(gno, ref: str) -> bytes:  # type: ignore[no-untyped-def]
    """What the ``gno_backlinks`` handler and its transport do, without the JSON-RPC framing
    around them: the request validated, the answer in its wire form, the text, the result
    and the frame's JSON bytes (``json_bytes``, as stdio and HTTP write them)."""
    from gno_adapters.mcp.frames import json_bytes
    from gno_adapters.mcp.tools.common import tool_result
    from gno_adapters.mcp.tools.links import render_backlinks
    from gno_core.contracts.requests import BacklinksRequest

    req = BacklinksRequest.model_validate({"ref": ref})
    res = gno.backlinks_wire(req.ref, collection=req.collection)
    return json_bytes(tool_result(render_backlinks(res.wire()), res))


def _backlink_figures(gno, rounds: int) -> None:  # type: ignore[no-untyped-def]
    hub = "gen/hub/hub.md"
    res = gno.backlinks(hub)
    one = [f"gen/f{i // PER_FOLDER:03d}/note-{i}.md" for i in range(rounds + 1)]
    step = iter(one * 2)
    base_wall, _ = _timed(rounds, lambda _: gno.links(next(step)))
    wall, cpu = _timed(rounds, lambda _: gno.backlinks(hub))
    mcp_wall, mcp_cpu = _timed(rounds, lambda _: _mcp_backlinks(gno, hub))
    n = res.meta.total_backlinks
    print(f"  baseline, links of one note (Gno.links): {summary_ms(base_wall)}")
    print(
        f"  backlinks of the hub ({n} inbound), Python API (Gno.backlinks, validated models): "
        f"{summary_ms(wall)}; CPU p50 {statistics.median(cpu) * 1000:.1f} ms"
    )
    met = statistics.median(mcp_wall) * 1000 <= BACKLINKS_TARGET_MS
    print(
        f"  gno_backlinks of the hub (the MCP tool's work: request, answer, text, JSON bytes): "
        f"{summary_ms(mcp_wall)}; CPU p50 {statistics.median(mcp_cpu) * 1000:.1f} ms; "
        f"target p50 <= {BACKLINKS_TARGET_MS:.0f} ms: {'met' if met else 'NOT met'}"
    )


def backlinks_only(notes: int, rounds: int, work: Path) -> None:
    """The generated vault with links (kept in ``work`` between runs) and the backlink
    figures alone."""
    folder = work / "vault-links"
    if not folder.is_dir():
        generate(folder, notes, links=True)
    gno = _open(work / "home-links")
    if not gno.list_collections().collections:
        _add(gno, "gen", folder)
    gno.sync()
    print(f"generated vault of {notes} notes with links (in {work})")
    _backlink_figures(gno, rounds)
    gno.close()


def generated(notes: int, rounds: int, work: Path, *, reads: bool = True) -> None:
    results: dict[str, float] = {}
    extracted = _extractions()
    for kind in ("baseline", "links"):
        folder = work / f"vault-{kind}"
        count = generate(folder, notes, links=kind == "links")
        gno = _open(work / f"home-{kind}")
        _add(gno, "gen", folder)
        started, used = time.perf_counter(), time.process_time()
        result = gno.sync()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - used
        results[kind] = elapsed
        docs = result.total_added
        extra = ""
        if kind == "links":
            c = gno.handle.index.links.counts()
            extra = f", {count} links written, {c.links} stored, {c.resolved} resolved"
        print(
            f"generated {kind}: {docs} notes synced in {elapsed:.1f} s = {docs / elapsed:.0f} "
            f"notes/s (CPU {cpu:.1f} s, load average {os.getloadavg()[0]:.1f}){extra}"
        )
        extracted[0] = 0
        started = time.perf_counter()
        again = gno.sync()
        print(
            f"  no-change re-sync {time.perf_counter() - started:.2f} s "
            f"(updated {again.total_updated}, notes whose links were extracted {extracted[0]} "
            f"[target 0], pending links {len(gno.handle.index.links.pending(10))})"
        )
        if kind == "links" and reads:
            _backlink_figures(gno, rounds)
            t = time.perf_counter()
            edges = sum(1 for _ in gno.handle.index.links.edges())
            print(f"  all {edges} edges streamed in {(time.perf_counter() - t) * 1000:.0f} ms")
        gno.close()
    rate = notes / results["links"]
    print(
        f"sync with links: {rate:.0f} notes/s against {notes / results['baseline']:.0f} notes/s "
        f"without link syntax in the same run ({results['links'] / results['baseline']:.2f}x the "
        f"baseline time); target >= {SYNC_TARGET} notes/s: "
        f"{'met' if rate >= SYNC_TARGET else 'NOT met'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument(
        "--sync-only", action="store_true", help="part 2 only: no backlinks or edge stream"
    )
    parser.add_argument("--backlinks-only", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gno-links-") as tmp:
        work = args.work or Path(tmp)
        if args.backlinks_only:
            backlinks_only(args.notes, args.rounds, work)
            return
        if not args.skip_real and SHARED.is_dir():
            real_vault("dendron", SHARED / "dendron-site" / "vault", work)
            real_vault("foam", SHARED / "foam-docs", work)
        generated(args.notes, args.rounds, work, reads=not args.sync_only)


if __name__ == "__main__":
    main()
