"""Inline ``#tags`` from a Markdown body: what counts as a tag and what never does."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gno_core.indexing.inline_tags import MAX_INLINE_TAGS, inline_tags


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("A dish worth keeping #recipe", ("recipe",)),
        ("#recipe at the start, #Dinner/Quick nested", ("recipe", "dinner/quick")),
        ("Dendron style #role.seeder and #stage.germ.", ("role.seeder", "stage.germ")),
        ("ends a sentence #todo. and a comma #later,", ("todo", "later")),
        ("#1984 is a number, #2024q is a tag", ("2024q",)),
        ("`#code` and ``#more`` are code, #yes is not", ("yes",)),
        ("[see #x](notes.md) and ![#img](a.png) #real", ("real",)),
        ("[[note#heading]] and [[note|#alias]] #ok", ("ok",)),
        ("[#label][ref] then #after", ("after",)),
        ("<a href='#x' title=\"#y\"> #t", ("t",)),
        ('  style="border:1px solid #bfcbda88;" #css', ("css",)),
        ("| #43B02A | colour cell | #cell |", ("cell",)),
        ("## Summary { #recap } #z", ("z",)),
        ("http://example.com/#frag and https://x.y/a#b #u", ("u",)),
        ("a#b is not a tag, (#p) neither, #q is", ("q",)),
        ("# Heading\n## Another\n#tag", ("tag",)),
        ("<!-- #hidden --> #shown", ("shown",)),
        ("$#math$ #shown", ("shown",)),
        ("#same #Same #SAME", ("same",)),
        ("#ünïcode #日本語", ("ünïcode", "日本語")),
    ],
)
def test_what_is_a_tag(text: str, tags: tuple[str, ...]) -> None:
    assert inline_tags(text + "\n", 1) == tags


def test_code_blocks_definitions_and_frontmatter_are_not_read() -> None:
    text = (
        "---\ntags: [front]\nnote: '#notatag'\n---\n"
        "Prose #one\n\n```\n#fenced\n```\n\n    #indented code\n\n"
        "[ref]: #anchor 'title'\n~~~\n#tilde\n~~~\n$$\n#math\n$$\nlast #two\n"
    )
    assert inline_tags(text, 5) == ("one", "two")


def test_tags_are_bounded() -> None:
    many = " ".join(f"#t{i}x" for i in range(MAX_INLINE_TAGS + 50))
    assert len(inline_tags(many + "\n", 1)) == MAX_INLINE_TAGS
    assert inline_tags("#" + "a" * 5000 + "\n", 1) == ()


@pytest.mark.parametrize(
    "hostile",
    [
        "[" * 2_000_000 + " #a\n",
        "#a " * 1_000_000 + "\n",
        "x #a\n" * 1_000_000,
        "[x #a\n" * 500_000,
        "<a " * 500_000 + "#b\n",
    ],
)
def test_hostile_bodies_cost_their_length(hostile: str) -> None:
    started = time.perf_counter()
    inline_tags(hostile, 1)
    assert time.perf_counter() - started < 5.0  # a hang guard, not a benchmark


@given(st.text(alphabet=st.sampled_from(list("#ab1 \n[]()<>{}`$-/._:!|\"';")), max_size=300))
def test_any_text_gives_normalised_tags(text: str) -> None:
    for tag in inline_tags(text, 1):
        assert tag == tag.lower().strip("/")
        assert any(c.isalpha() for c in tag)
        assert " " not in tag and "#" not in tag
