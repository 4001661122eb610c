"""Resolution rules (``gno_core.links.resolve``) on hand-made candidate sets."""

from __future__ import annotations

from gno_core.domain import DocRef, NameHit
from gno_core.links.extract import extract_links
from gno_core.links.names import document_names
from gno_core.links.resolve import resolve_link

DOCS = {
    "notes/Plan.md": "Quarterly Plan",
    "notes/plan-b.md": None,
    "dendron.topic.md": None,
    "dendron.topic.markdown.md": None,
    "dendron.topic.tags.md": None,
    "tags.md": "Tags",
    "a/b.md": None,
    "x/index.md": None,
    "y/index.md": None,
    "Café.md": None,
}


def hits(aliases: dict[str, tuple[str, ...]] | None = None) -> list[NameHit]:
    out = []
    for path, title in DOCS.items():
        for name in document_names(path, title, (aliases or {}).get(path, ())):
            out.append(NameHit(DocRef("c", path, title), name.kind, name.key))
    return out


def resolve(text: str, source: str = "src.md", **kw: tuple[str, ...]) -> list[tuple[str, str, str]]:
    (link,) = extract_links(text + "\n", source)
    found = resolve_link(link, DocRef("c", source), hits(kw or None))
    return [(t.document.rel_path, t.confidence, t.method) for t in found]


def test_paths_and_names() -> None:
    assert resolve("[[notes/Plan]]") == [("notes/Plan.md", "explicit", "path")]
    assert resolve("[[notes/plan]]") == [("notes/Plan.md", "inferred", "path-nocase")]
    assert resolve("[[Plan]]") == [("notes/Plan.md", "explicit", "name")]
    assert resolve("[[plan]]") == [("notes/Plan.md", "inferred", "name")]
    assert resolve("[[cafe\u0301]]") == [("Café.md", "inferred", "name")]
    assert resolve("[x](Plan.md)", source="notes/src.md") == [("notes/Plan.md", "explicit", "path")]
    assert resolve("[x](../tags.md)", source="notes/src.md") == [("tags.md", "explicit", "path")]


def test_a_dotted_name_is_not_cut_at_a_markdown_extension() -> None:
    assert resolve("[[dendron.topic.markdown]]") == [
        ("dendron.topic.markdown.md", "explicit", "path")
    ]
    assert resolve("[[a.b]]") == [("a/b.md", "inferred", "dendron")]


def test_several_names_are_ambiguous() -> None:
    assert resolve("[[index]]") == [
        ("x/index.md", "ambiguous", "name"),
        ("y/index.md", "ambiguous", "name"),
    ]


def test_titles_and_aliases() -> None:
    assert resolve("[[Quarterly Plan]]") == [("notes/Plan.md", "inferred", "title")]
    assert resolve("[[The Plan]]", **{"notes/plan-b.md": ("The Plan",)}) == [
        ("notes/plan-b.md", "inferred", "alias")
    ]
    assert resolve("[[Quarterly Plan|label]]") == []  # a label is never taken for a title


def test_either_half_of_a_piped_link() -> None:
    assert resolve("[[tags|the tags]]") == [("tags.md", "explicit", "path")]
    assert resolve("[[Some label|tags]]") == [("tags.md", "inferred", "path+label-first")]
    # A dotted hierarchy name or an anchor can only be the target: it goes first.
    assert resolve("[[tags|dendron.topic.tags]]") == [
        ("dendron.topic.tags.md", "inferred", "path+label-first")
    ]
    assert resolve("[[tags|dendron://vault/dendron.topic.tags#x]]") == [
        ("dendron.topic.tags.md", "inferred", "path+label-first")
    ]


def test_nothing_outside_the_collection_or_the_scope() -> None:
    assert resolve("[x](../../tags.md)", source="notes/src.md") == []
    assert resolve("[x](https://example.org/tags.md)") == []
