"""Refactors: rename the most linked notes of real vaults and a hub of a generated one.

1. On temporary copies of ``../shared/data/dendron-site`` and ``foam-docs``: rename each of the
   ``--top`` most linked notes in turn (``<name>-renamed``, in its folder). After each apply:
   the resolved links of the index must be the graph before with the new name (same edges,
   same relations and confidence), no link newly unresolved or ambiguous, and a byte diff of
   the vault must show only the planned spans (every file outside the plan byte-identical,
   every file in it equal to its old bytes with the plan's edits applied). And, read from the
   files without gno (``_broken``): the relative Markdown links ``[t](x.md)`` and the link
   reference definitions ``[label]: x.md 'Title'`` whose file does not exist must be the ones
   broken before (0 newly broken).
2. A generated vault whose hub has ``--inbound`` linking notes (mixed forms: bare name,
   alias, path with heading, relative Markdown, embed): preview and apply latency (median of
   ``--rounds``, the hub renamed back and forth), beside a baseline measured in the same run:
   reading the hub's backlinks from the index plus every linking file's bytes.

Usage: python benchmarks/refactors.py [--top 20] [--inbound 2000] [--rounds 5] [--work DIR]
(``--top 0``: only the generated hub). Prints figures and the targets (preview <= 1 s, apply <= 3 s); exits 1 when a graph or byte
check fails.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"

from benchmarks.links import _add, _open  # noqa: E402

APPLY = {"action": "apply", "schema_version": "1.0", "confirmation": "apply", "confirm": True}


def _edges(gno: Any, rename: tuple[str, str] | None = None) -> Counter[tuple[str, ...]]:
    def name(rel: str) -> str:
        return rename[1] if rename and rel == rename[0] else rel

    return Counter(
        (name(e.source.rel_path), name(e.target.rel_path), e.relation, e.link_type, e.confidence)
        for e in gno.handle.index.links.edges()
    )


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.md")}


_INLINE = re.compile(r"(?<!!)\[[^\[\]]*\]\(<?([^()\s<>]+?\.md)(?:#[^()\s]*)?>?(?:\s[^()]*)?\)")
_DEFINITION = re.compile(r"^ {0,3}\[[^\[\]]+\]:[ \t]*<?([^\s<>]+?\.md)(?:#\S*)?>?(?:\s|$)")


def _broken(folder: Path) -> Counter[tuple[str, str, str]]:
    """(file, kind, destination) of every relative ``.md`` Markdown link (``inline``) and link
    reference definition (``definition``) outside fenced code whose file does not exist: a
    reading of the files on disk independent of gno's parser and index."""
    out: Counter[tuple[str, str, str]] = Counter()
    for path in sorted(folder.rglob("*.md")):
        rel = path.relative_to(folder).as_posix()
        fence = False
        for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
            if fence:
                continue
            found = [("inline", d) for d in _INLINE.findall(line)]
            found += [("definition", d) for d in _DEFINITION.findall(line)]
            for kind, dest in found:
                if "://" in dest:
                    continue
                base = "" if dest.startswith("/") else os.path.dirname(rel)
                joined = os.path.normpath(os.path.join(base, dest.lstrip("/")))
                if not (folder / joined).is_file():
                    out[(rel, kind, dest)] += 1
    return out


#: CPU seconds of this process (every thread) per preview and per apply of the hub.
CPU: dict[str, list[float]] = {"preview": [], "apply": []}


def _rename(gno: Any, collection: str, rel: str, name: str) -> tuple[Any, Any, float, float]:
    from gno_core.contracts.refactors import RenameNoteRequest

    request = RenameNoteRequest(ref=f"{collection}/{rel}", name=name)
    started, cpu = time.perf_counter(), time.process_time()
    preview = gno.rename_note(request)
    previewed = time.perf_counter() - started
    CPU["preview"].append(time.process_time() - cpu)
    started, cpu = time.perf_counter(), time.process_time()
    result = gno.rename_note(
        request.model_copy(update={**APPLY, "plan_digest": preview.plan_digest})
    )
    CPU["apply"].append(time.process_time() - cpu)
    return preview, result, previewed, time.perf_counter() - started


def _expected(before: dict[str, bytes], preview: Any) -> dict[str, bytes]:
    """The vault the plan describes: old bytes with its edit spans applied, the note moved."""
    from gno_core.refactors.text import Edit, apply_edits, decode_raw

    src, dst = preview.source.rel_path, preview.target.rel_path
    after = dict(before)
    after[dst] = after.pop(src)
    by_file: dict[str, list[Edit]] = {}
    for e in preview.edits:
        by_file.setdefault(e.rel_path, []).append(
            Edit(e.rel_path, e.line, e.start_column, e.end_column, e.replacement)
        )
    for rel, edits in by_file.items():
        raw = decode_raw(after[rel])
        assert raw is not None
        after[rel] = apply_edits(raw, edits)
    return after


def real(name: str, top: int, work: Path) -> bool:
    folder = work / name
    shutil.copytree(SHARED / name, folder)
    gno = _open(work / f"home-{name}")
    _add(gno, name, folder)
    gno.sync()
    inbound = Counter(e.target.rel_path for e in gno.handle.index.links.edges())
    hubs = [rel for rel, _ in inbound.most_common(top)]
    ok = True
    applied = blocked = rewrites = 0
    broken_before = broken_now = _broken(folder)
    newly_broken: Counter[str] = Counter()
    previews: list[float] = []
    applies: list[float] = []
    for rel in hubs:
        stem, _, ext = rel.rpartition("/")[2].rpartition(".")
        new_name = f"{stem}-renamed.{ext}"
        new_rel = rel.rpartition("/")[0] + "/" + new_name if "/" in rel else new_name
        edges = _edges(gno, (rel, new_rel))
        counts = gno.handle.index.links.counts()
        files = _snapshot(folder)
        preview, result, p_s, a_s = _rename(gno, name, rel, new_name)
        previews.append(p_s)
        if result.status != "applied":
            blocked += 1
            print(f"  {rel}: {result.status} ({', '.join(preview.safety.blockers)})")
            continue
        applied += 1
        applies.append(a_s)
        rewrites += preview.safety.rewrites
        after_counts = gno.handle.index.links.counts()
        after_broken = _broken(folder)
        # A link already broken in the renamed note is the same link under its new name.
        moved = Counter(
            {(new_rel if k[0] == rel else k[0], *k[1:]): n for k, n in broken_now.items()}
        )
        broken, broken_now = after_broken - moved, after_broken
        newly_broken.update(kind for (_, kind, _), n in broken.items() for _ in range(n))
        same_graph = _edges(gno) == edges
        same_bytes = _snapshot(folder) == _expected(files, preview)
        newly = (
            after_counts.unresolved - counts.unresolved,
            after_counts.ambiguous - counts.ambiguous,
        )
        if not (same_graph and same_bytes and newly == (0, 0) and not broken):
            ok = False
            print(
                f"  FAIL {rel}: graph {same_graph}, bytes {same_bytes}, new unresolved/ambiguous "
                f"{newly}, newly broken on disk {sum(broken.values())} {sorted(broken)[:3]}"
            )
    print(
        f"{name}: {applied} of {len(hubs)} most linked notes renamed ({blocked} refused by the "
        f"planner), {rewrites} links rewritten; graph equal, 0 broken, 0 newly ambiguous and "
        f"only planned bytes changed after every apply: {'yes' if ok else 'NO'}; read from the "
        f"files: {sum(broken_before.values())} Markdown links and definitions broken before, "
        f"newly broken after the renames: {newly_broken['inline']} inline, "
        f"{newly_broken['definition']} definitions; preview p50 "
        f"{statistics.median(previews) * 1000:.0f} ms, apply p50 "
        f"{statistics.median(applies) * 1000 if applies else float('nan'):.0f} ms"
    )
    return ok


FORMS = (
    "see [[hub]] here",
    "see [[hub|the hub]] here",
    "see [[hub/hub#Heading]] here",
    "see [the hub](../hub/hub.md) here",
    "embed ![[hub]] here",
)


def generated(inbound: int, rounds: int, work: Path) -> None:
    folder = work / "gen"
    (folder / "hub").mkdir(parents=True)
    (folder / "hub" / "hub.md").write_text("# Hub\n\n## Heading\n\nThe centre.\n", "utf-8")
    for i in range(inbound):
        sub = folder / f"f{i // 1000:02d}"
        sub.mkdir(exist_ok=True)
        text = (
            f"# Note {i}\n\nSome words about note {i} and [[note-{(i + 1) % inbound}]].\n\n"
            f"{FORMS[i % len(FORMS)]}, then [next](note-{(i + 2) % inbound}.md).\n"
        )
        (sub / f"note-{i}.md").write_text(text, "utf-8")
    gno = _open(work / "home-gen")
    _add(gno, "gen", folder)
    gno.sync()
    names = [("hub/hub.md", "hub2.md"), ("hub/hub2.md", "hub.md")]
    baseline: list[float] = []
    CPU["preview"].clear()
    CPU["apply"].clear()
    previews: list[float] = []
    applies: list[float] = []
    for i in range(rounds):
        rel, new = names[i % 2]
        started = time.perf_counter()
        links = gno.backlinks(f"gen/{rel}").backlinks
        for uri in {b.source_doc_uri for b in links}:
            (folder / uri.removeprefix("gno://gen/")).read_bytes()
        baseline.append(time.perf_counter() - started)
        preview, result, p_s, a_s = _rename(gno, "gen", rel, new)
        assert result.status == "applied", (result.status, preview.safety.blockers)
        previews.append(p_s)
        applies.append(a_s)
    print(
        f"generated hub with {inbound} linking notes ({preview.safety.rewrites} links rewritten "
        f"per rename): preview p50 {statistics.median(previews) * 1000:.0f} ms (target <= 1000), "
        f"apply p50 {statistics.median(applies) * 1000:.0f} ms (target <= 3000); baseline "
        f"(backlinks + reading the linking files) p50 {statistics.median(baseline) * 1000:.0f} ms; "
        f"CPU of this process p50: preview {statistics.median(CPU['preview']) * 1000:.0f} ms, "
        f"apply {statistics.median(CPU['apply']) * 1000:.0f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--inbound", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--work")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp)
        ok = args.top == 0 or all(
            [real("dendron-site", args.top, work), real("foam-docs", args.top, work)]
        )
        generated(args.inbound, args.rounds, work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
