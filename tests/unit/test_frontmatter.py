"""Frontmatter: splitting, metadata normalization, and the YAML parser (both of its paths)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_core.domain import DocumentMeta
from gno_core.errors import ValidationError
from gno_core.text.canonical import canonicalize
from gno_core.text.frontmatter import (
    document_meta,
    first_heading,
    normalize_date,
    normalize_tag,
    split_frontmatter,
)

FAST = YamlFrontmatterParser()
FULL = YamlFrontmatterParser(fast_path=False)

# -- splitting --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "yaml", "body"),
    [
        ("---\ntitle: A\n---\nBody\n", "title: A\n", "Body\n"),
        ("---\ntitle: A\n...\nBody\n", "title: A\n", "Body\n"),
        ("---\n---\nBody\n", "", "Body\n"),
        ("---\ntitle: A\n---\n", "title: A\n", ""),
        ("# No frontmatter\n", None, "# No frontmatter\n"),
        ("---\ntitle: A\nno closing fence\n", None, "---\ntitle: A\nno closing fence\n"),
        ("Text\n---\ntitle: A\n---\n", None, "Text\n---\ntitle: A\n---\n"),
        # A thematic break, not frontmatter: nothing in between looks like a key.
        ("---\nJust a paragraph.\n---\nMore\n", None, "---\nJust a paragraph.\n---\nMore\n"),
    ],
)
def test_split(text: str, yaml: str | None, body: str) -> None:
    assert split_frontmatter(text) == (yaml, body)


# -- metadata ---------------------------------------------------------------------------------


def test_title_precedence() -> None:
    assert document_meta({"title": " Front "}, "# Heading\n", "stem").title == "Front"
    assert document_meta({}, "intro\n## Second level\n# First\n", "stem").title == "Second level"
    assert document_meta({"title": ""}, "no heading\n", "stem").title == "stem"
    assert document_meta({"title": 2024}, "", "stem").title == "2024"


def test_first_heading_skips_code_fences_and_notes() -> None:
    body = "```bash\n# a shell comment\n```\n\n# Notes\n\n### Deep\n\n# Real title #\n"
    assert first_heading(body) == "Real title"
    assert first_heading("~~~\n# inside\n~~~\n#not a heading\n") is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Project/Alpha", "project/alpha"),
        ("#todo", "todo"),
        ("  two words ", "two-words"),
        ("snake_case", "snake-case"),
        ("a//b/", "a/b"),
        ("v1.2", "v1.2"),
        ("C++!", "c"),
        ("Überblick", "überblick"),
        ("日本語", "日本語"),
        ("हिन्दी", "हिन्दी"),
        ("#", None),
        ("", None),
        (42, "42"),
        (True, None),
        (None, None),
    ],
)
def test_normalize_tag(raw: object, expected: str | None) -> None:
    assert normalize_tag(raw) == expected


def test_tags_from_every_key_and_shape() -> None:
    meta = document_meta(
        {"tags": ["A", "b, c", ["nested"]], "tag": "#d", "keywords": "e, A"}, "", "s"
    )
    assert meta.tags == ("a", "b", "c", "nested", "d", "e")


def test_categories_type_author() -> None:
    meta = document_meta(
        {
            "type": " note ",
            "categories": ["Guides", "guides", "How-to, Reference"],
            "category": "Extra",
            "authors": [{"name": "Ada"}, "Grace"],
        },
        "",
        "s",
    )
    assert meta.content_type == "note"
    assert meta.categories == ("Guides", "How-to", "Reference", "Extra")
    assert meta.author == "Ada, Grace"
    assert document_meta({"by": "Linus", "owner": "x"}, "", "s").author == "Linus"
    assert document_meta({"creator": {"title": "Org"}}, "", "s").author == "Org"


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ({"date": "2024-05-26"}, "2024-05-26"),
        ({"date": "2024-05-26T09:10:33-07:00"}, "2024-05-26T09:10:33-07:00"),
        ({"published": False, "created": "2021-01-02"}, "2021-01-02"),
        ({"publishDate": "2023/04/05"}, "2023-04-05"),
        ({"lastmod": "2023-04-05 10:30"}, "2023-04-05T10:30:00"),
        ({"updated": 1653409628830}, "2022-05-24T16:27:08.830000+00:00"),  # epoch ms (Dendron)
        ({"created_at": 1653409628}, "2022-05-24T16:27:08+00:00"),
        ({"date": "not a date", "updated": "January 2, 2006"}, "2006-01-02"),
        ({"date": 2021}, "2021-01-01"),
        ({"date": "2024-02-30"}, None),
        ({}, None),
    ],
)
def test_dates(front: dict[str, Any], expected: str | None) -> None:
    assert document_meta(front, "", "s").date == expected


def test_normalize_date_rejects_non_dates() -> None:
    assert normalize_date(True) is None
    assert normalize_date(["2024-01-01"]) is None
    assert normalize_date(42) is None
    assert normalize_date("  ") is None


def test_language_from_frontmatter_wins() -> None:
    assert document_meta({"lang": "pt-BR"}, "", "s", "es").language == "pt"
    assert document_meta({"language": "not a code!"}, "", "s", "es").language == "es"
    assert document_meta({}, "", "s", None) == DocumentMeta(title="s")


# -- the YAML parser --------------------------------------------------------------------------


@pytest.mark.parametrize("parser", [FAST, FULL], ids=["fast", "full"])
def test_parser_values(parser: YamlFrontmatterParser) -> None:
    parsed = parser.parse(
        "title: 'Hello: world'\ndate: 2024-05-26\nwhen: 2024-05-26T09:10:33-07:00\n"
        "tags: [a, b]\nitems:\n  - x\n  - 2\nempty:\ndraft: true\nn: 3\n"
    )
    assert parsed == {
        "title": "Hello: world",
        "date": "2024-05-26",
        "when": "2024-05-26T09:10:33-07:00",
        "tags": ["a", "b"],
        "items": ["x", 2],
        "empty": None,
        "draft": True,
        "n": 3,
    }


@pytest.mark.parametrize("parser", [FAST, FULL], ids=["fast", "full"])
@pytest.mark.parametrize(
    "text",
    ["title: [unclosed\n", "a: b: c\n", "- just\n- a list\n", "plain scalar\n", "\tkey: tab\n"],
)
def test_parser_rejects(parser: YamlFrontmatterParser, text: str) -> None:
    with pytest.raises(ValidationError) as info:
        parser.parse(text)
    assert info.value.details["code"] == "FRONTMATTER"


@pytest.mark.parametrize("parser", [FAST, FULL], ids=["fast", "full"])
def test_parser_lenient_cases(parser: YamlFrontmatterParser) -> None:
    assert parser.parse("") == {}
    assert parser.parse("# only a comment\n") == {}
    assert parser.parse("a: 1\na: 2\n") == {"a": 1}  # duplicate keys: the first wins
    assert parser.parse("2: x\ntrue: y\n") == {"2": "x", "True": "y"}


# Scalars whose YAML meaning is easy to get wrong: the fast path must agree with ruamel.
EDGE_BLOCKS = [
    "a: yes\nb: No\nc: on\nd: OFF\ne: y\n",
    "a: 0123\nb: 010\nc: 0x1F\nd: 1_000\ne: 1e3\nf: .5\ng: 1.50\nh: -1\ni: +1\n",
    "a: null\nb: Null\nc: ~\nd: NULL\ne: nulls\n",
    "a: True\nb: FALSE\nc: tRue\n",
    "a: 12:30\nb: 2024-5-6\nc: 2024-05-06 10:00\nd: 2024-13-01\ne: 20240506\n",
    "a: 8L4Qrg3P\nb: 19f4e85e-da75-44cf\nc: 1. User Interface\nd: 2022-02-08 New\n",
    "a: 'it''s'\nb: \"say \\\"hi\\\"\"\nc: 'x' # comment\nd: x # comment\ne: x#y\n",
    "a: [x, 'y']\nb: [1, 2.5]\nc: [true, null]\nd: []\ne: {}\nf: [a, [b]]\n",
    "a: https://example.com/x?y=1#frag\nb: don't\nc: C:\\path\nd: <<\n",
    "list:\n- a\n- b\nother: 1\n",
    "list:\n  - a\n  -  b\n  - c: d\n",
    "a: >-\n  folded\n  text\nb: |\n  literal\n",
    "a: &anchor x\nb: *anchor\n",
    "a: !!str 1\n",
    # One-level mappings (memory facts, typed relations) and quoted flow items.
    'memory:\n  recordId: "mem-1"\n  scopes: ["a:b", "c"]\n  n: 3\nrelations:\n  x: [y]\n',
    "m:\n  a: 1\n    b: 2\n",
    "m:\n  a: 1\n b: 2\n",
    "m:\n  a: 1\n  a: 2\n",
    "m:\n  a:\n  b: 1\n",
    "m:\n  - a\n  b: 1\n",
    "m:\n  a: 1\n  - b\n",
    "m:\n  yes: 1\n",
    'a: ["x, y", "z"]\nb: ["q\\"r"]\nc: ["", "s"]\n',
    "m:\n\tb: 1\n",
]


@pytest.mark.parametrize("block", EDGE_BLOCKS)
def test_fast_path_agrees_with_ruamel_on_edge_cases(block: str) -> None:
    assert _outcome(FAST, block) == _outcome(FULL, block)


@pytest.mark.slow
def test_fast_path_agrees_with_ruamel_on_corpora(shared_data: Path) -> None:
    blocks = 0
    for folder in ("hugo-docs", "dendron-site", "fastapi-docs", "foam-docs"):
        for path in sorted((shared_data / folder).rglob("*.md")):
            yaml, _ = split_frontmatter(canonicalize(path.read_text(encoding="utf-8")))
            if yaml is not None:
                blocks += 1
                assert _outcome(FAST, yaml) == _outcome(FULL, yaml), path
    assert blocks > 2000


@pytest.mark.slow
def test_hugo_frontmatter_to_meta(shared_data: Path) -> None:
    content = shared_data / "hugo-docs" / "content"
    metas = {}
    for path in sorted(content.rglob("*.md")):
        yaml, body = split_frontmatter(canonicalize(path.read_text(encoding="utf-8")))
        front = FAST.parse(yaml) if yaml is not None else {}
        metas[path.relative_to(content).as_posix()] = document_meta(front, body, path.stem)
    assert len(metas) > 900
    assert all(m.title for m in metas.values())
    highlight = metas["en/shortcodes/highlight.md"]
    assert highlight.title == "Highlight shortcode"
    assert highlight.tags == ("highlight",)
    assert highlight.categories == ()


@pytest.mark.slow
def test_dendron_epoch_dates(shared_data: Path) -> None:
    vault = shared_data / "dendron-site" / "vault"
    dated = 0
    for path in sorted(vault.glob("*.md"))[:200]:
        yaml, body = split_frontmatter(canonicalize(path.read_text(encoding="utf-8")))
        assert yaml is not None, path
        meta = document_meta(FAST.parse(yaml), body, path.stem)
        assert meta.title, path
        if meta.date:
            dated += 1
            assert meta.date.startswith("20") and meta.date[4] == "-", meta.date
    assert dated >= 190


def _outcome(parser: YamlFrontmatterParser, text: str) -> object:
    try:
        return parser.parse(text)
    except ValidationError as exc:
        return ("error", exc.details["code"])
