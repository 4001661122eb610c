"""Link extraction (``gno_core.links.extract``): every form, nothing from code, comments or
math, positions, frontmatter edges, and bounded cost on hostile input."""

from __future__ import annotations

import time

from gno_core.domain import ExtractedLink
from gno_core.links.extract import MAX_LINKS, extract_links, snake_case
from gno_core.links.names import document_names, link_keys, target_path


def links(text: str, path: str = "dir/src.md", **kw: object) -> list[ExtractedLink]:
    return list(extract_links(text, path, **kw))  # type: ignore[arg-type]


def short(text: str) -> list[tuple[str, str, str | None, str | None]]:
    return [(k.link_type, k.target_ref, k.target_anchor, k.target_collection) for k in links(text)]


def test_wiki_forms() -> None:
    text = "[[a]] [[b|Alias]] [[c#Heading]] [[d#^block1]] ![[e.png]] [[work:f]] [[#local]]\n"
    got = links(text)
    assert [(k.target_ref, k.target_anchor, k.target_collection, k.embed) for k in got] == [
        ("a", None, None, False),
        ("b", None, None, False),
        ("c", "Heading", None, False),
        ("d", "^block1", None, False),
        ("e.png", None, None, True),
        ("f", None, "work", False),
    ]
    assert got[1].link_text == "Alias" and got[1].alias == "Alias"
    assert got[4].relation == "embeds" and got[0].relation == "links_to"
    assert (got[0].start_line, got[0].start_col, got[0].end_col) == (1, 1, 5)
    assert got[4].start_col == 47  # the ``!`` of the embed


def test_markdown_forms() -> None:
    text = (
        "[a](a.md) [b](../up.md#sec) [c](/root/c.md) [d](<with space.md>) "
        '[e](my%20note.md "title") ![img](pic.png) [f](https://x.org) [g](mailto:a@b.c) '
        "[h](#here) [i](gno://other/i.md)\n"
    )
    got = links(text)
    assert [(k.target_ref, k.target_anchor, k.external, k.embed) for k in got] == [
        ("a.md", None, False, False),
        ("../up.md", "sec", False, False),
        ("/root/c.md", None, False, False),
        ("with space.md", None, False, False),
        ("my note.md", None, False, False),
        ("pic.png", None, False, True),
        ("https://x.org", None, True, False),
        ("mailto:a@b.c", None, True, False),
        ("/i.md", None, False, False),
    ]
    assert got[-1].target_collection == "other"
    assert got[0].keys == ("dir/a.md", "a.md", "dir/a", "a")
    assert got[6].keys == ()


def test_reference_style_links_use_their_definitions() -> None:
    text = (
        "See [the note][n1], [N2][] and [n3] but not [unknown].\n\n"
        "[n1]: one.md\n[n2]: <two words.md> 'Two'\n[N3]: three.md#part\n"
    )
    got = links(text)
    # Each use at its place (line 1), then each definition at its own line (issue 22: 2).
    assert [(k.start_line, k.start_col, k.end_col, k.target_ref, k.target_anchor) for k in got] == [
        (1, 5, 18, "one.md", None),
        (1, 21, 26, "two words.md", None),
        (1, 32, 35, "three.md", "part"),
        (3, 1, 12, "one.md", None),
        (4, 1, 26, "two words.md", None),
        (5, 1, 19, "three.md", "part"),
    ]
    assert {k.link_type for k in got} == {"markdown"}
    assert [k.link_text for k in got] == ["the note", "N2", "n3", "n1", "n2", "N3"]


def test_foam_definitions_do_not_double_wiki_links() -> None:
    """``[[wikilinks]]`` is one wiki link (not also a shortcut use of ``[wikilinks]``); the
    definition is a link of its own, from its line."""
    text = "Use [[wikilinks]] here.\n\n[wikilinks]: features/wikilinks.md 'Wikilinks'\n"
    assert short(text) == [
        ("wiki", "wikilinks", None, None),
        ("markdown", "features/wikilinks.md", None, None),
    ]
    assert [k.start_line for k in links(text)] == [1, 3]


def test_every_definition_is_a_link_even_unused_or_repeated() -> None:
    text = (
        "Text.\n\n   [a]: ../x.md\n[A]: y.md\n[web]: https://example.com 'Web'\n"
        "[self]: #here\n[ ]: z.md\n```\n[code]: c.md\n```\n"
    )
    got = links(text)
    assert [(k.start_line, k.start_col, k.target_ref, k.external) for k in got] == [
        (3, 4, "../x.md", False),
        (4, 1, "y.md", False),
        (5, 1, "https://example.com", True),
    ]
    assert got[0].context == "[a]: ../x.md"


def test_nothing_from_code_comments_or_math() -> None:
    text = (
        "```\n[[fenced]]\n```\n"
        "~~~~md\n[x](fenced.md)\n~~~~\n\n"
        "    [[indented]]\n\n"
        "text `[[inline]]` and ``[y](code.md)`` <!-- [[comment]] --> $[[math]]$\n"
        "<!-- start\n[[multi-line comment]]\nend -->\n"
        "$$\n[[display math]]\n$$\n"
        "- list\n\n    [[list continuation]]\n"
        "costs $5 and [[kept]] and $6\n"
    )
    assert [k.target_ref for k in links(text)] == ["list continuation", "kept"]


def test_unclosed_fence_hides_the_rest() -> None:
    assert links("[[a]]\n```\n[[b]]\n") == links("[[a]]\n")


def test_frontmatter_relations_become_typed_edges() -> None:
    text = (
        '---\ntitle: X\nrelations:\n  worksAt: "[[Acme]]"\n  mentions: [bob, carol]\n'
        "up: [[parent]]\n---\nbody [[z]]\n"
    )
    front = {
        "title": "X",
        "relations": {"worksAt": "[[Acme]]", "mentions": ["bob", "carol"]},
        "up": [["parent"]],
    }
    got = links(text, front=front, body_start_line=8)
    assert [(k.relation, k.target_ref, k.edge_source, k.start_line) for k in got] == [
        ("works_at", "Acme", "frontmatter-relation", 4),
        ("mentions", "bob", "frontmatter-relation", 5),
        ("mentions", "carol", "frontmatter-relation", 5),
        ("up", "parent", "frontmatter-relation", 6),
        ("links_to", "z", "wikilink", 8),
    ]
    assert [snake_case(k) for k in ("worksAt", "works-at", "Works At", "--")] == [
        "works_at",
        "works_at",
        "works_at",
        None,
    ]


def test_paths_never_leave_the_collection() -> None:
    (up,) = links("[x](../../etc/passwd) ")
    assert target_path(up, "dir/src.md") is None
    assert up.keys == ()
    (wiki,) = links("[[../../../etc/passwd]]")
    assert target_path(wiki, "dir/src.md") is None
    (inside,) = links("[x](../ok.md)")
    assert target_path(inside, "dir/src.md") == "ok.md"


def test_names_fold_case_and_unicode() -> None:
    names = document_names("Dir/Cafe\u0301.md", "Le Café", ("Other Name",))
    assert [(n.kind, n.key) for n in names] == [
        ("path", "dir/café"),
        ("stem", "café"),
        ("dendron", "dir.café"),
        ("title", "le café"),
        ("alias", "other name"),
    ]
    (link,) = links("[[CAFÉ]]")
    assert "café" in link_keys(link, "x.md")


def test_hostile_lines_cost_linear_time_and_are_bounded() -> None:
    many = "[[n]] " * 10_000 + "\n"
    started = time.perf_counter()
    assert len(links(many)) == 10_000
    unclosed = "[[" * 50_000 + "\n" + "[a](" * 50_000 + "\n" + "`" * 3 + "x`" * 30_000 + "\n"
    dollars = "$a " * 50_000 + "\n" + "[" * 50_000 + "]" * 50_000 + "\n"
    assert links(unclosed + dollars) == []
    assert len(links("[[n]]" * (MAX_LINKS + 50))) == MAX_LINKS
    # A hang guard with room for a loaded machine, not a speed target.
    assert time.perf_counter() - started < 20
    assert [k.target_ref for k in links("[[a\x00b]] [[c]]")] == ["a\ufffdb", "c"]


def test_nested_image_inside_a_link_counts_both() -> None:
    got = links("[![logo](logo.png)](home.md)")
    assert sorted((k.target_ref, k.embed) for k in got) == [("home.md", False), ("logo.png", True)]


def test_link_keys_depend_on_the_folder_only_for_relative_markdown_links() -> None:
    # Keys are remembered by what they depend on: the same link text from another folder
    # gives the keys of that folder, and a wiki link the same keys from anywhere.
    (md,) = links("[n](../t.md)", "a/b/src.md")
    assert link_keys(md, "a/b/src.md")[0] == "a/t.md"
    assert link_keys(md, "c/d/src.md")[0] == "c/t.md"
    assert link_keys(md, "src.md") == ()  # leaves the collection
    (wiki,) = links("[[a|Label]]", "x/src.md")
    assert link_keys(wiki, "x/src.md") == link_keys(wiki, "y/z/src.md")
    assert "label" in link_keys(wiki, "x/src.md")


def test_plain_wiki_targets_get_the_keys_of_the_general_rule() -> None:
    from gno_core.links.names import _keys

    for target in ("Some Note", "note-1", "A", " pad", "pad\x1f", "a.b", "x/y", "Éa", "a\x00", ""):
        link = ExtractedLink(
            0, "wiki", "wikilink", "links_to", target, None, None, None, 1, 1, 1, 1
        )
        assert link_keys(link, "dir/src.md") == _keys(False, target, None, None), target
    plain = ExtractedLink(
        0, "wiki", "wikilink", "links_to", "Some Note", None, None, None, 1, 1, 1, 1
    )
    assert link_keys(plain, "src.md") == ("some note",)
