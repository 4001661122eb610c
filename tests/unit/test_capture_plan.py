"""Capture planning (pure): paths, names, frontmatter merge, tags, presets."""

from __future__ import annotations

import typing

import pytest

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_core.config import CollectionConfig
from gno_core.contracts.write_requests import CaptureRequest, PresetId, SourceKind
from gno_core.errors import InvalidPathError, ValidationError
from gno_core.writes.capture import (
    check_indexable,
    check_rel_path,
    compose_note,
    plan_path,
    suffixed,
)
from gno_core.writes.presets import PRESETS, SOURCE_KINDS

PARSER = YamlFrontmatterParser()
NOW = "2026-12-01T00:00:00Z"


def compose(**fields: object) -> tuple[str, list[str]]:
    request = CaptureRequest.model_validate({"collection": "notes", **fields})
    note = compose_note(request, None, PARSER, NOW)
    return note.text, note.tags


def test_the_cli_choices_are_the_request_literals() -> None:
    assert list(typing.get_args(PresetId)) == list(PRESETS)
    assert typing.get_args(SourceKind) == SOURCE_KINDS


@pytest.mark.parametrize(
    "bad", ["../x", "a/../b", "/abs", "~/x", "C:/x", "a\\b", "a//b", "./a", ".git/x", "x/.SSH/y"]
)
def test_unsafe_relative_paths(bad: str) -> None:
    with pytest.raises(InvalidPathError):
        check_rel_path(bad)


def test_generated_and_given_paths() -> None:
    req = CaptureRequest(collection="n", content="x")
    assert plan_path(req, "Hello, World!", "x", "2026-12-01") == "inbox/2026-12-01/hello-world.md"
    generated = plan_path(req, None, "body", "2026-12-01")
    assert generated.startswith("inbox/2026-12-01/capture-") and generated.endswith(".md")
    req = CaptureRequest(collection="n", content="x", path="a/b", folderPath="top/")
    assert plan_path(req, None, "x", "2026-12-01") == "top/a/b.md"
    assert suffixed("a/b.md", 3) == "a/b-3.md"


def test_indexable_follows_pattern_and_excludes() -> None:
    coll = CollectionConfig(name="n", path="/n", exclude=("drafts",), include=(".txt",))
    check_indexable(coll, "a/b.md")
    check_indexable(coll, "a/b.txt")
    for bad in ("drafts/x.md", "a/b.bin"):
        with pytest.raises(InvalidPathError):
            check_indexable(coll, bad)


def test_frontmatter_of_the_content_is_merged_not_duplicated() -> None:
    text, tags = compose(
        content="---\ntitle: Kept\ntags: [old]\nrating: 3\n---\nBody text\n",
        tags=["New", "#old"],
        source={"kind": "email", "author": "Ana"},
    )
    front = PARSER.parse(text.split("---\n")[1])
    assert front["title"] == "Kept" and front["rating"] == 3
    assert front["tags"] == ["old", "new"] == tags
    assert front["source"] == {"kind": "email", "author": "Ana", "capturedAt": NOW}
    assert text.count("---\n") == 2 and text.endswith("Body text\n")


def test_values_are_never_retyped_by_yaml() -> None:
    text, _ = compose(content="no: really", title="yes", source={"title": "null: [1"})
    front = PARSER.parse(text.split("---\n")[1])
    assert front["source"]["title"] == "null: [1"


def test_preset_scaffold_and_title() -> None:
    text, _ = compose(presetId="decision-note", title="Pick a DB", content="We need one.")
    assert "# Pick a DB\n\nWe need one.\n\n## Context\n\n## Decision\n\n## Consequences\n" in text
    assert 'type: "decision-note"' in text
    with pytest.raises(ValidationError):
        compose(presetId="blank")


@pytest.mark.parametrize("tag", ["a<b", "", "   ", "#"])
def test_bad_tags(tag: str) -> None:
    with pytest.raises(ValidationError):
        compose(content="x", tags=[tag])


def test_tags_need_markdown() -> None:
    request = CaptureRequest(collection="n", content="x", tags=["t"], path="a.txt")
    with pytest.raises(ValidationError):
        compose_note(request, "a.txt", PARSER, NOW)
