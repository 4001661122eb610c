"""Contract suite of the ``LinkStore`` port (and the link writes of ``SyncLedger``), run against
every adapter (memory, apsw). Documents carry links and names as ingest makes them; the
resolution step is the core's ``resolve_pending`` (the store's ``resolve_pending`` over the
shared rules, ``resolve_batch``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gno_core.domain import EXPLICIT, INFERRED, DocRef, IndexedDocument, SourceState, SyncBatch
from gno_core.links.extract import extract_links
from gno_core.links.names import document_names
from gno_core.links.resolve import RESOLVE_BATCH, resolve_batch, resolve_link, resolve_pending
from gno_core.ports.links import BatchResolver, NameRow, PendingRow, Resolution
from tests.contract.store_support import Store, make_doc, put


def note(
    rel_path: str,
    body: str,
    *,
    collection: str = "notes",
    title: str | None = None,
    aliases: tuple[str, ...] = (),
    front: dict[str, object] | None = None,
) -> IndexedDocument:
    doc = make_doc(rel_path, body, collection=collection, title=title)
    return replace(
        doc,
        links=extract_links(doc.markdown, rel_path, front),
        names=document_names(rel_path, title, aliases),
    )


def targets_of(store: Store, rel_path: str, collection: str = "notes") -> list[tuple[str, ...]]:
    return [
        tuple(f"{t.document.rel_path}:{t.confidence}" for t in rec.targets) or (rec.state,)
        for rec in store.links.outgoing(collection, rel_path)
    ]


def sources_of(store: Store, rel_path: str, **kw: str) -> list[str]:
    return [
        f"{r.source.rel_path}:{r.link.start_line}"
        for r in store.links.incoming("notes", rel_path, **kw)
    ]


def test_links_round_trip_with_positions_and_text(store: Store) -> None:
    put(store, note("a.md", "# A\n\nsee [[b|the b note]] and [c](sub/c.md#part)\n"))
    records = store.links.outgoing("notes", "a.md")
    assert [r.state for r in records] == ["pending", "pending"]
    wiki, md = (r.link for r in records)
    assert (wiki.link_type, wiki.target_ref, wiki.link_text, wiki.alias) == (
        "wiki",
        "b",
        "the b note",
        "the b note",
    )
    assert (wiki.start_line, wiki.start_col, wiki.end_line, wiki.end_col) == (3, 5, 3, 20)
    assert (md.link_type, md.target_ref, md.target_anchor, md.link_text) == (
        "markdown",
        "sub/c.md",
        "part",
        "c",
    )
    assert wiki.context == "see [[b|the b note]] and [c](sub/c.md#part)"
    assert store.links.outgoing("notes", "missing.md") == []


def test_resolution_by_path_name_title_and_unresolved(store: Store) -> None:
    put(
        store,
        note("a.md", "[[b]] [[B]] [[sub/c]] [[Title Of D]] [[nowhere]] [x](https://e.org)\n"),
        note("b.md", "b"),
        note("sub/c.md", "c"),
        note("d.md", "d", title="Title Of D"),
    )
    assert resolve_pending(store.links) == 5
    assert targets_of(store, "a.md") == [
        ("b.md:explicit",),
        ("b.md:inferred",),
        ("sub/c.md:explicit",),
        ("d.md:inferred",),
        ("unresolved",),
        ("external",),
    ]
    assert store.links.pending(10) == []
    assert [r.link.target_ref for r in store.links.unresolved()] == ["nowhere"]


def test_several_candidates_are_ambiguous_and_all_kept(store: Store) -> None:
    put(store, note("a.md", "[[index]]\n"), note("x/index.md", "1"), note("y/index.md", "2"))
    resolve_pending(store.links)
    (record,) = store.links.outgoing("notes", "a.md")
    assert record.state == "ambiguous"
    assert [(t.document.rel_path, t.confidence) for t in record.targets] == [
        ("x/index.md", "ambiguous"),
        ("y/index.md", "ambiguous"),
    ]
    assert store.links.counts().ambiguous == 1


def test_backlinks_filter_by_source_collection(store: Store) -> None:
    put(
        store,
        note("hub.md", "hub"),
        note("one.md", "line\n[[hub]]\n"),
        note("two.md", "[[hub]] and [[hub|again]]\n"),
        note("three.md", "[[other:hub]]\n", collection="other"),
        note("hub.md", "other hub", collection="other"),
    )
    resolve_pending(store.links)
    assert sources_of(store, "hub.md") == ["one.md:2", "two.md:1", "two.md:1"]
    assert sources_of(store, "hub.md", source_collection="other") == []
    other = store.links.incoming("other", "hub.md")
    assert [(r.source.collection, r.source.rel_path) for r in other] == [("other", "three.md")]
    (record,) = store.links.incoming("notes", "hub.md")[:1]
    assert record.targets[0].document.rel_path == "hub.md"
    assert record.targets[0].confidence == EXPLICIT


def test_added_target_resolves_waiting_links_without_touching_sources(store: Store) -> None:
    put(store, note("a.md", "[[later]]\n"))
    resolve_pending(store.links)
    assert targets_of(store, "a.md") == [("unresolved",)]
    put(store, note("later.md", "now here"))
    assert [p.source.rel_path for p in store.links.pending(10)] == ["a.md"]
    assert resolve_pending(store.links) == 1
    assert targets_of(store, "a.md") == [("later.md:explicit",)]


def test_deactivated_target_drops_its_backlinks_and_rename_moves_them(store: Store) -> None:
    put(store, note("a.md", "[[note]]\n"), note("old/note.md", "n"))
    resolve_pending(store.links)
    assert sources_of(store, "old/note.md") == ["a.md:1"]
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("old/note.md",)))
    assert sources_of(store, "old/note.md") == []
    resolve_pending(store.links)
    assert targets_of(store, "a.md") == [("unresolved",)]
    put(store, note("new/note.md", "n"))
    resolve_pending(store.links)
    assert sources_of(store, "new/note.md") == ["a.md:1"]


def test_unchanged_names_leave_resolved_links_alone(store: Store) -> None:
    put(store, note("a.md", "[[b]]\n"), note("b.md", "b"))
    resolve_pending(store.links)
    put(store, note("b.md", "new body, same names"))
    assert store.links.pending(10) == []
    put(store, note("b.md", "renamed title", title="B Title"))
    assert [p.source.rel_path for p in store.links.pending(10)] == ["a.md"]


def test_inactive_sources_are_invisible_and_come_back(store: Store) -> None:
    put(store, note("a.md", "[[b]]\n"), note("b.md", "b"))
    resolve_pending(store.links)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    assert store.links.outgoing("notes", "a.md") == []
    assert store.links.incoming("notes", "b.md") == []
    assert list(store.links.edges()) == []
    assert store.links.counts().links == 0
    doc = note("a.md", "[[b]]\n")
    state = SourceState("a.md", doc.source_hash, doc.source_size, doc.source_mtime_ns, True, 2)
    store.ledger.apply_batch(SyncBatch("notes", touched=(state,)))
    resolve_pending(store.links)
    assert targets_of(store, "a.md") == [("b.md:explicit",)]


def test_edges_and_counts(store: Store) -> None:
    put(
        store,
        note(
            "a.md",
            "[[b]] ![[c]] [[zzz]] <https://x.org>\n",
            front={"relations": {"worksAt": "[[c]]"}},
        ),
        note("b.md", "[[a]]\n"),
        note("c.md", "c"),
    )
    resolve_pending(store.links)
    edges = [
        (e.source.rel_path, e.target.rel_path, e.relation, e.edge_source, e.confidence)
        for e in store.links.edges()
    ]
    assert edges == [
        ("a.md", "c.md", "works_at", "frontmatter-relation", EXPLICIT),
        ("a.md", "b.md", "links_to", "wikilink", EXPLICIT),
        ("a.md", "c.md", "embeds", "wikilink", EXPLICIT),
        ("b.md", "a.md", "links_to", "wikilink", EXPLICIT),
    ]
    assert [e.source.rel_path for e in store.links.edges("other")] == []
    assert [e.target.rel_path for e in store.links.edges(relation="embeds")] == ["c.md"]
    assert [e.relation for e in store.links.edges("notes", "works_at")] == ["works_at"]
    around_b = [
        (e.source.rel_path, e.target.rel_path, e.relation)
        for e in store.links.adjacent([("notes", "b.md")])
    ]
    assert around_b == [("a.md", "b.md", "links_to"), ("b.md", "a.md", "links_to")]
    both = store.links.adjacent([("notes", "a.md"), ("notes", "b.md"), ("notes", "nope.md")])
    assert [(e.source.rel_path, e.target.rel_path) for e in both] == [
        (e.source.rel_path, e.target.rel_path) for e in store.links.edges()
    ]
    assert [e.target.rel_path for e in store.links.adjacent([("notes", "c.md")], "embeds")] == [
        "c.md"
    ]
    assert store.links.adjacent([]) == []
    counts = store.links.counts()
    assert (counts.links, counts.resolved, counts.unresolved, counts.external) == (6, 4, 1, 1)
    assert dict(counts.edge_types) == {"links_to": 2, "embeds": 1, "works_at": 1}
    assert dict(counts.confidence) == {EXPLICIT: 4}
    assert store.links.counts("other").links == 0


def test_collection_rename_keeps_links_and_resolves_again(store: Store) -> None:
    put(store, note("a.md", "[[b]]\n"), note("b.md", "b"))
    resolve_pending(store.links)
    store.ledger.rename_collection("notes", "renamed")
    resolve_pending(store.links)
    assert targets_of(store, "a.md", "renamed") == [("b.md:explicit",)]
    assert [r.source.collection for r in store.links.incoming("renamed", "b.md")] == ["renamed"]


def test_candidates_are_scoped_to_a_collection_and_active(store: Store) -> None:
    put(store, note("b.md", "b", title="Bee"), note("b.md", "b", collection="other"))
    hits = store.links.candidates("notes", ["b", "bee", "zzz"])
    assert sorted((h.document.rel_path, h.kind, h.key) for h in hits) == [
        ("b.md", "path", "b"),
        ("b.md", "stem", "b"),
        ("b.md", "title", "bee"),
    ]
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("b.md",)))
    assert store.links.candidates("notes", ["b"]) == []


def test_reupsert_replaces_links(store: Store) -> None:
    put(store, note("a.md", "[[b]] [[c]]\n"), note("b.md", "b"))
    put(store, note("a.md", "[[b]]\n"))
    resolve_pending(store.links)
    assert targets_of(store, "a.md") == [("b.md:explicit",)]
    assert INFERRED not in dict(store.links.counts().confidence)


def test_whole_graph_read_matches_the_edges(store: Store) -> None:
    put(
        store,
        note("a.md", "[[b]] [[b]] ![[c]] [[a]] [[zzz]] [[other:x]]\n"),
        note("b.md", "[[a]] [[other:x]]\n"),
        note("c.md", "c"),
        note("gone.md", "[[a]]\n"),
        note("x.md", "[[notes:a]]\n", collection="other"),
    )
    resolve_pending(store.links)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("gone.md",)))

    def named(collection: str | None) -> tuple[list[str], list[tuple[str, ...]]]:
        graph = store.links.graph(collection)
        docs = [f"{d.collection}/{d.rel_path}" for d in graph.documents]
        return docs, sorted((docs[s], docs[t], kind, level) for s, t, kind, level in graph.edges)

    def streamed(collection: str | None) -> list[tuple[str, ...]]:
        return sorted(
            (
                f"{e.source.collection}/{e.source.rel_path}",
                f"{e.target.collection}/{e.target.rel_path}",
                e.link_type,
                e.confidence,
            )
            for e in store.links.edges(collection)
            if collection is None or e.target.collection == collection
        )

    docs, edges = named(None)
    assert docs == ["notes/a.md", "notes/b.md", "notes/c.md", "other/x.md"]
    assert edges == streamed(None)
    assert ("notes/a.md", "notes/a.md", "wiki", EXPLICIT) in edges  # self-links are kept
    assert ("notes/b.md", "other/x.md", "wiki", EXPLICIT) in edges
    docs, edges = named("notes")
    assert docs == ["notes/a.md", "notes/b.md", "notes/c.md"]
    assert edges == streamed("notes") and len(edges) == 5
    assert store.links.graph("nowhere").documents == ()


def test_mentions_are_the_incoming_links_flat(store: Store) -> None:
    put(
        store,
        note("hub.md", "# Hub\n"),
        note("a.md", "x [[hub|the hub]] y\n\n[h](hub.md#part)\n", title="A"),
        note("z.md", "[[hub]] [[hub]]\n"),
        note("b.md", "[[notes:hub]]\n", collection="other"),
        note("gone.md", "[[hub]]\n"),
    )
    resolve_pending(store.links)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("gone.md",)))
    for source in (None, "notes", "other"):
        flat = [tuple(m) for m in store.links.mentions("notes", "hub.md", source)]
        records = [
            (
                r.source.collection,
                r.source.rel_path,
                r.source.title,
                r.source.source_hash,
                r.link.link_text,
                r.link.link_type,
                r.link.edge_source,
                r.link.relation,
                r.link.target_anchor,
                r.link.start_line,
                r.link.start_col,
                r.link.end_line,
                r.link.end_col,
                r.targets[0].confidence,
                r.link.context,
            )
            for r in store.links.incoming("notes", "hub.md", source)
        ]
        assert flat == records
    everything = store.links.mentions("notes", "hub.md")
    assert [(m.collection, m.rel_path, m.start_line) for m in everything] == [
        ("notes", "a.md", 1),
        ("notes", "a.md", 3),
        ("notes", "z.md", 1),
        ("notes", "z.md", 1),
        ("other", "b.md", 1),
    ]
    assert everything[1].target_anchor == "part" and everything[0].title == "A"
    assert store.links.mentions("notes", "missing.md") == []


Handed = list[tuple[list[PendingRow], list[NameRow]]]


def _spy(handed: Handed, answer: BatchResolver = resolve_batch) -> BatchResolver:
    """A resolver recording each batch the store hands it, answering with ``answer``."""

    def resolve(rows: Sequence[PendingRow], names: Sequence[NameRow]) -> list[Resolution]:
        handed.append((list(rows), list(names)))
        return answer(rows, names)

    return resolve


def test_resolve_pending_hands_the_rules_the_pending_rows_and_the_names_they_hit(
    store: Store,
) -> None:
    # None of these is settled by a store's bulk step: other case, a title, a collection.
    put(
        store,
        note("a.md", "[[Bee]] [x](sub/c.md) [[other:b]] [[B|label]]\n"),
        note("b.md", "b", title="Bee"),
        note("b.md", "b", collection="other"),
        note("c.md", "named by sub/c.md's file name, not its target"),
        note("d.md", "not named"),
    )
    pending = store.links.pending(10)
    handed: Handed = []
    assert store.links.resolve_pending(_spy(handed), 10) == 4
    ((rows, names),) = handed
    assert [r.link_id for r in rows] == [p.link_id for p in pending]
    assert [
        (r.collection, r.rel_path, r.link_type, r.target_ref, r.alias, r.target_collection, r.keys)
        for r in rows
    ] == [
        (
            p.source.collection,
            p.source.rel_path,
            p.link.link_type,
            p.link.target_ref,
            p.link.alias,
            p.link.target_collection,
            p.link.keys,
        )
        for p in pending
    ]
    assert [r.scope for r in rows] == ["notes", "notes", "other", "notes"]
    assert rows[3].alias == "label"
    # The names of each scope carrying one of its links' keys, and no others.
    wanted: dict[str, set[str]] = {}
    for r in rows:
        wanted.setdefault(r.scope, set()).update(r.keys)
    hits = [
        (h.kind, h.key, h.document.collection, h.document.rel_path)
        for scope, keys in wanted.items()
        for h in store.links.candidates(scope, sorted(keys))
    ]
    assert sorted((k, key, d.collection, d.rel_path) for k, key, d in names) == sorted(hits)
    assert {(d.collection, d.rel_path) for _, _, d in names} == {
        ("notes", "b.md"),
        ("notes", "c.md"),
        ("other", "b.md"),
    }
    # One handle per document, different across collections.
    handles = {(d.collection, d.rel_path): d.doc_id for _, _, d in names}
    assert len({d.doc_id for _, _, d in names}) == len(handles) == 3
    assert targets_of(store, "a.md") == [
        ("b.md:inferred",),
        ("unresolved",),
        ("b.md:explicit",),
        ("b.md:inferred",),
    ]
    assert store.links.pending(10) == []
    assert store.links.resolve_pending(_spy(handed), 10) == 0 and len(handed) == 1


def test_resolve_pending_goes_in_batches_of_the_size_given(store: Store) -> None:
    put(
        store,
        note("a.md", "[[Bee]] [[B]]\n[[Sea]] [[zzz]] [[C]]\n"),
        note("b.md", "b", title="Bee"),
        note("c.md", "c", title="Sea"),
    )
    ids = [p.link_id for p in store.links.pending(10)]
    handed: Handed = []
    assert store.links.resolve_pending(_spy(handed), 2) == 5
    assert [[r.link_id for r in rows] for rows, _ in handed] == [ids[:2], ids[2:4], ids[4:]]
    # Each batch gets the names of its own links.
    assert [sorted({d.rel_path for _, _, d in names}) for _, names in handed] == [
        ["b.md"],
        ["c.md"],
        ["c.md"],
    ]
    assert targets_of(store, "a.md") == [
        ("b.md:inferred",),
        ("b.md:inferred",),
        ("c.md:inferred",),
        ("unresolved",),
        ("c.md:inferred",),
    ]


def test_resolve_pending_records_what_the_rules_answer_by_handle(store: Store) -> None:
    put(
        store,
        note("a.md", "[[B]] [[X]] [[nowhere]]\n"),
        note("b.md", "b"),
        note("x/x.md", "1"),
        note("y/x.md", "2"),
    )

    def answer(rows: Sequence[PendingRow], names: Sequence[NameRow]) -> list[Resolution]:
        ids = {d.rel_path: d.doc_id for _, _, d in names}
        return [
            (rows[0].link_id, ((ids["b.md"], EXPLICIT, "path"),)),
            (
                rows[1].link_id,
                ((ids["x/x.md"], "ambiguous", "name"), (ids["y/x.md"], "ambiguous", "name")),
            ),
            (rows[2].link_id, ()),
        ]

    handed: Handed = []
    assert store.links.resolve_pending(_spy(handed, answer), 10) == 3
    assert len(handed) == 1 and store.links.pending(10) == []
    assert [r.state for r in store.links.outgoing("notes", "a.md")] == [
        "resolved",
        "ambiguous",
        "unresolved",
    ]
    assert targets_of(store, "a.md") == [
        ("b.md:explicit",),
        ("x/x.md:ambiguous", "y/x.md:ambiguous"),
        ("unresolved",),
    ]
    assert [t.method for t in store.links.outgoing("notes", "a.md")[0].targets] == ["path"]
    # Resolved again (the target went), the new answer replaces the old one.
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("b.md",)))
    assert [p.link.target_ref for p in store.links.pending(10)] == ["B"]
    resolve_pending(store.links)
    assert targets_of(store, "a.md")[0] == ("unresolved",)


def test_document_links_are_the_stored_links_with_their_version(store: Store) -> None:
    a = note("a.md", "# A\n\n[[b|B]] and ![img](p/c.png) <https://x.org>\n", front={"up": "[[b]]"})
    b = note("b.md", "no links\n")
    other = note("a.md", "[[a]]\n", collection="other")
    put(store, a, b, other)
    resolve_pending(store.links)
    wanted = [("notes", "a.md"), ("notes", "b.md"), ("other", "a.md"), ("notes", "gone.md")]
    found = store.links.document_links(wanted)
    assert set(found) == {("notes", "a.md"), ("notes", "b.md"), ("other", "a.md")}
    assert found[("notes", "a.md")].links == a.links  # every field, keys included
    assert len(a.links) == 4 and a.links[1].keys
    assert (found[("notes", "a.md")].source_hash, found[("notes", "a.md")].mirror_hash) == (
        a.source_hash,
        a.mirror_hash,
    )
    assert found[("notes", "b.md")].links == ()
    assert found[("other", "a.md")].links == other.links
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("b.md",)))
    assert set(store.links.document_links(wanted)) == {("notes", "a.md"), ("other", "a.md")}


def test_crowded_documents_are_the_active_ones_with_that_many_links(store: Store) -> None:
    put(
        store,
        note("many.md", "[[a]] [[b]] [[c]]\n"),
        note("few.md", "[[a]] [[b]]\n"),
        note("none.md", "text\n"),
        note("many.md", "[[x]] [[y]] [[z]] [[w]]\n", collection="other"),
        note("gone.md", "[[a]] [[b]] [[c]]\n"),
    )
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("gone.md",)))
    assert store.links.crowded(3) == [("notes", "many.md"), ("other", "many.md")]
    assert store.links.crowded(4) == [("other", "many.md")]
    assert store.links.crowded(2) == [
        ("notes", "few.md"),
        ("notes", "many.md"),
        ("other", "many.md"),
    ]
    assert store.links.crowded(5) == []


def test_degrees_count_the_merged_links_adjacent_gives(store: Store) -> None:
    put(
        store,
        note("a.md", "[[b]] [[b]] [b](b.md) ![[c]] [[a]] [[zzz]] [[other:x]]\n"),
        note("b.md", "[[a]] [[other:x]]\n"),
        note("c.md", "c"),
        note("gone.md", "[[a]] [[c]]\n"),
        note("x.md", "[[notes:a]] [[notes:c]]\n", collection="other"),
    )
    resolve_pending(store.links)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("gone.md",)))
    every = [("notes", "a.md"), ("notes", "b.md"), ("notes", "c.md"), ("other", "x.md")]

    def by_adjacent(collection: str | None) -> dict[tuple[str, str], int]:
        merged = {
            (s, t, e.link_type)
            for e in store.links.adjacent(every)
            for s, t in [(_key(e.source), _key(e.target))]
            if s != t and (collection is None or s[0] == t[0] == collection)
        }
        counted: dict[tuple[str, str], int] = {}
        for s, t, _ in merged:
            for end in (s, t):
                counted[end] = counted.get(end, 0) + 1
        return counted

    # a: to b twice by wiki (one graph link) and once by Markdown, to c and x, and back from
    # b and x; the self-link, the unresolved link and the inactive note's links do not count.
    whole = {("notes", "a.md"): 6, ("notes", "b.md"): 4, ("notes", "c.md"): 2, ("other", "x.md"): 4}
    assert store.links.degrees(every) == by_adjacent(None) == whole
    inside = {("notes", "a.md"): 4, ("notes", "b.md"): 3, ("notes", "c.md"): 1}
    assert store.links.degrees(every, "notes") == by_adjacent("notes") == inside
    assert store.links.degrees([("notes", "c.md"), ("notes", "gone.md")]) == {("notes", "c.md"): 2}
    assert store.links.degrees([("notes", "nope.md")]) == store.links.degrees([]) == {}


def _key(doc: DocRef) -> tuple[str, str]:
    return (doc.collection, doc.rel_path)


Found = list[tuple[str, str, str]]


def _bulk_then_rules(store: Store, rel_path: str, bulk: set[int]) -> dict[int, Found]:
    """What the rules give each pending link of ``rel_path`` (by seq), checked against what
    ``resolve_pending`` stores, and which links the store settled itself in bulk (``bulk``:
    the seqs the SQLite store settles in SQL, never handed to the rules; the fake settles
    none)."""
    expected: dict[int, Found] = {}
    seqs: dict[int, int] = {}
    for p in store.links.pending(100):
        if p.source.rel_path != rel_path:
            continue
        hits = store.links.candidates(p.link.target_collection or "notes", p.link.keys)
        seqs[p.link_id] = p.link.seq
        expected[p.link.seq] = [
            (t.document.rel_path, t.confidence, t.method)
            for t in resolve_link(p.link, p.source, hits)
        ]
    handed: Handed = []
    assert store.links.resolve_pending(_spy(handed), RESOLVE_BATCH) == len(expected)
    to_rules = {r.link_id for rows, _ in handed for r in rows}
    settled = {seq for link_id, seq in seqs.items() if link_id not in to_rules}
    assert settled == (bulk if type(store.links).__name__ == "ApswLinks" else set())
    assert {
        r.link.seq: [(t.document.rel_path, t.confidence, t.method) for t in r.targets]
        for r in store.links.outgoing("notes", rel_path)
        if r.link.seq in expected
    } == expected
    return expected


def test_plain_names_resolved_in_bulk_are_what_the_rules_give(store: Store) -> None:
    put(
        store,
        note(
            "a.md",
            "[[b]] [[B]] [[Deep]] [[deep]] [[twice]] [[dir/b]] [[b|label]] [[other:b]] "
            "[[Title Of D]] [[e.f]] [[Café]] [[nowhere]] [b](b.md) [[c]]\n",
        ),
        note("b.md", "b"),
        note("sub/Deep.md", "d", title="Title Of D"),
        note("x/twice.md", "1"),
        note("y/twice.markdown", "2"),
        note("e/f.md", "f"),
        note("c", "a file without extension"),
        note("café.md", "c"),
    )
    # [[b]], [[Deep]], [[twice]], [[c]] by rules 1-2; [[b|label]] and [b](b.md) by rule 1
    expected = _bulk_then_rules(store, "a.md", {0, 2, 4, 6, 12, 13})
    assert expected[0] == [("b.md", EXPLICIT, "path")]
    assert expected[4] == [
        ("x/twice.md", "ambiguous", "name"),
        ("y/twice.markdown", "ambiguous", "name"),
    ]


def test_paths_resolved_in_bulk_are_what_the_rules_give(store: Store) -> None:
    """The bulk step's rule 1 for links with a path (folders, labels, Markdown links relative
    to their note) gives what the rules give; forms it cannot spell stay pending for them."""
    put(
        store,
        note(
            "top/a.md",
            "[[dir/b]] [[dir/b|label]] [[dir/b|dir.c]] [[dir/b|x#h]] [[Dir/B]] [[dir/none|l]] "
            "[up](../dir/b.md) [here](b.md#h) [sub](sub/c.md) [bare](sub/c) [dots](./b.md) "
            "[back](../top/../dir/b.md) [root](/dir/b.md) [case](../Dir/b.md) "
            "[both](../dir/twice.md) [deep](../../dir/b.md) [[dir/twice]] [[dir/b#h|l]]\n",
        ),
        note("dir/b.md", "b"),
        note("dir/c.md", "c"),
        note("top/b.md", "tb"),
        note("top/sub/c.md", "tc"),
        note("dir/twice.md", "1"),
        note("dir/twice.md.md", "2"),
        note("dir/twice.markdown", "3"),
    )
    # rule 1 for [[dir/b]], [[dir/b|label]], [up], [here], [sub], [bare], [both],
    # [[dir/twice]], [[dir/b#h|l]]; the rest (a label that may be the target, other
    # case, ./, .., root-relative, no document at the path) left to the rules
    expected = _bulk_then_rules(store, "top/a.md", {0, 1, 6, 7, 8, 9, 14, 16, 17})
    assert 15 not in expected  # ../../ leaves the collection: unresolved when written
    assert expected[14] == [
        ("dir/twice.md", "ambiguous", "path"),
        ("dir/twice.md.md", "ambiguous", "path"),
    ]
