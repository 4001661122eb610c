"""The planner's shortcuts (``gno_core.refactors.reading``: the stored links of a note whose
text is its indexed mirror, only the edited lines of a note parsed again) give the plan that
extracting every note whole gives: the same preview and digest, preconditions, every
reference with its classification and edit, and the same bytes to write. On dendron-site
(its 10 most linked notes renamed and moved) and on a generated hub with every link form."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.facade import Gno
from gno_core.refactors import reading
from gno_core.refactors.planner import Planner
from gno_core.refactors.preview import to_preview

FORMS = (
    "see [[hub]] here",
    "see [[hub|the hub]] and [[Hub Title]]",
    "see [[hub/hub#Heading]] here",
    "see [the hub](../hub/hub.md) and [ref][h]\n\n[h]: ../hub/hub.md",
    "embed ![[hub]] and `[[hub]]` in code",
    "---\nup: '[[hub]]'\n---\nfrontmatter and [[hub.md]]",
    "windows [[hub]] line\r\nand [[hub]] again   \r\n",
    "```\n[[hub]] in a fence\n```\n<!-- [[hub]] -->\n[[hub]] after",
)


def _gno(notes: dict[str, str | bytes]) -> tuple[Gno, Adapters]:
    adapters = in_memory(notes)
    gno = build(adapters)
    gno.sync()
    return gno, adapters


def _compare(
    gno: Gno, adapters: Adapters, plans: list[tuple[str, str, str]], monkeypatch: Any
) -> tuple[int, int]:
    """Plan each (operation, source, target) both ways and compare; the number of whole-text
    extractions each way."""
    calls = Counter[bool]()
    extract = reading.extract_links
    exact_now = [False]

    def counted(*args: Any) -> Any:
        calls[exact_now[0]] += 1
        return extract(*args)

    monkeypatch.setattr(reading, "extract_links", counted)
    config = gno.handle.load_config()
    index = gno.handle.index
    collection = gno.handle.collection("notes")
    for operation, source, target in plans:
        made = []
        for exact in (False, True):
            exact_now[0] = exact
            planner = Planner(
                config,
                index.documents,
                index.links,
                adapters.notes,
                adapters.frontmatter,
                index.ledger,
                exact=exact,
            )
            made.append(planner.plan(operation, collection, source, target))
        fast, slow = made
        assert to_preview(fast, "default") == to_preview(slow, "default"), (source, target)
        assert fast.references == slow.references
        assert fast.changes == slow.changes
        assert fast.blockers == slow.blockers
    return calls[False], calls[True]


def test_a_generated_hub_plans_the_same_with_and_without_shortcuts(monkeypatch: Any) -> None:
    notes: dict[str, str | bytes] = {
        "hub/hub.md": "---\ntitle: Hub Title\n---\n# Hub\n## Heading\n"
    }
    for i in range(40):
        notes[f"f{i % 3}/note-{i}.md"] = (
            f"# Note {i}\n\nabout [[note-{i + 1}]].\n\n{FORMS[i % len(FORMS)]}\n"
        )
    gno, adapters = _gno(notes)
    plans = [
        ("rename", "hub/hub.md", "hub/hub2.md"),
        ("move", "hub/hub.md", "f1/hub.md"),
        ("move", "hub/hub.md", "hub.md"),
        ("duplicate", "hub/hub.md", "hub/hub-copy.md"),
        ("rename", "f0/note-3.md", "f0/renamed.md"),
    ]
    fast, exact = _compare(gno, adapters, plans, monkeypatch)
    assert fast * 2 < exact  # the shortcuts were taken (not for CRLF notes, definitions)


def test_dendron_site_plans_the_same_with_and_without_shortcuts(
    shared_data: Path, monkeypatch: Any
) -> None:
    root = shared_data / "dendron-site"
    notes: dict[str, str | bytes] = {
        p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.md"))
    }
    gno, adapters = _gno(notes)
    inbound = Counter(e.target.rel_path for e in gno.handle.index.links.edges())
    plans: list[tuple[str, str, str]] = []
    for rel, _ in inbound.most_common(10):
        folder, _, name = rel.rpartition("/")
        stem = name.rpartition(".")[0]
        plans.append(
            ("rename", rel, f"{folder}/{stem}-renamed.md" if folder else f"{stem}-renamed.md")
        )
        plans.append(("move", rel, f"moved/{name}"))
    fast, exact = _compare(gno, adapters, plans, monkeypatch)
    assert fast * 2 < exact, (fast, exact)
