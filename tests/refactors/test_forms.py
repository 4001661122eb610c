"""The style-keeping rewrite rules and the byte-exact text round trip, case by case."""

from __future__ import annotations

import pytest

from gno_core.refactors.forms import Site, relocate_markdown, rename_wiki, wiki_sites
from gno_core.refactors.text import Edit, apply_edits, decode_raw


@pytest.mark.parametrize(
    ("written", "old", "new", "expected"),
    [
        ("old", "old.md", "new.md", "new"),
        ("old.md", "old.md", "new.md", "new.md"),
        ("Old", "old.md", "new.md", "New"),
        ("OLD", "old.md", "new.md", "NEW"),
        ("a/old", "a/old.md", "b/new.md", "b/new"),
        ("/a/old.md", "a/old.md", "b/new.md", "/b/new.md"),
        ("a.old", "a/old.md", "a/new.md", "a.new"),
        ("dendron.topic.links", "vault/dendron.topic.links.md", "vault/x.md", "x"),
        ("Old Note", "old.md", "new.md", None),  # a title: not a name of the file
    ],
)
def test_wiki_names_keep_their_form(written: str, old: str, new: str, expected: str | None) -> None:
    assert rename_wiki(written, old, new) == expected


@pytest.mark.parametrize(
    ("text", "linking", "after", "old", "new", "expected"),
    [
        ("old.md", "hub.md", "hub.md", "old.md", "new.md", "new.md"),
        ("./old.md", "hub.md", "hub.md", "old.md", "sub/new.md", "./sub/new.md"),
        ("../old", "d/x.md", "d/x.md", "old.md", "new.md", "../new"),
        ("/old.md", "d/x.md", "d/x.md", "old.md", "e/new.md", "/e/new.md"),
        ("other.md", "old.md", "sub/old.md", "old.md", "sub/old.md", "../other.md"),
        ("my%20old.md", "hub.md", "hub.md", "my old.md", "my new.md", "my%20new.md"),
        ("../../x.md", "a.md", "a.md", "old.md", "new.md", None),
    ],
)
def test_markdown_paths_stay_relative_or_rooted(
    text: str, linking: str, after: str, old: str, new: str, expected: str | None
) -> None:
    site = Site(0, len(text), text, encoded="%" in text)
    assert relocate_markdown(site, linking, after, old, new) == expected


def test_wiki_sites_find_both_halves_without_qualifier_or_anchor() -> None:
    line = "x [[notes: old#h|dendron://v/old.md#^b]] y"
    start = line.index("[[")
    end = line.index("]]") + 2
    assert [s.text for s in wiki_sites(line, start, end, False)] == ["old", "old.md"]


def test_edits_change_only_their_span_and_keep_bom_and_line_endings() -> None:
    data = "\ufeffa [[old]]\r\nb\rc [[old]] é\n".encode()
    raw = decode_raw(data)
    assert raw is not None and raw.encode() == data
    edited = apply_edits(raw, [Edit("x", 1, 5, 7, "new"), Edit("x", 3, 5, 7, "brand-new")])
    assert edited == "\ufeffa [[new]]\r\nb\rc [[brand-new]] é\n".encode()
    assert decode_raw(b"\xff\xfe\x00a") is None and decode_raw(b"\xc3") is None
