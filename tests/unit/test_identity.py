"""Names, URIs, docids and refs."""

from __future__ import annotations

import pytest

from gno_core.errors import ValidationError
from gno_core.identity import (
    make_docid,
    make_uri,
    normalize_collection_name,
    normalize_index_name,
    parse_ref,
    parse_uri,
)


def test_collection_names_case_insensitive_in_lowercase_out() -> None:
    assert normalize_collection_name("  Work_Notes-1 ") == "work_notes-1"
    for bad in ["", "-x", "a b", "x" * 65, "ünï"]:
        with pytest.raises(ValidationError):
            normalize_collection_name(bad)


def test_index_names() -> None:
    assert normalize_index_name("Research Notes") == "research notes"
    assert normalize_index_name("Café.v2") == "café.v2"
    for bad in ["", " x", "x.", "a..b", "x/y", "x" * 65, "-x"]:
        with pytest.raises(ValidationError):
            normalize_index_name(bad)


def test_uri_encoding_matches_spec_table() -> None:
    assert (
        make_uri("work", "My Documents/file name.pdf")
        == "gno://work/My%20Documents/file%20name.pdf"
    )
    assert make_uri("w", "a#b?c%d.md") == "gno://w/a%23b%3Fc%25d.md"
    assert make_uri("w", "x.md", "research") == "gno://w/x.md?index=research"
    assert parse_uri("gno://w/a%23b%3Fc%25d.md").rel_path == "a#b?c%d.md"


def test_docid() -> None:
    assert make_docid("abcdef0123456789") == "#abcdef01"


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("gno://Notes/a/b.md", ("notes", "a/b.md", None, None)),
        ("notes/a/b.md:12", ("notes", "a/b.md", None, 12)),
        ("#ABC123", (None, None, "abc123", None)),
        ("abc12345:3", (None, None, "abc12345", 3)),
        ("gno://n/x.md?index=Other", ("n", "x.md", None, None)),
    ],
)
def test_parse_ref(ref: str, expected: tuple[object, ...]) -> None:
    r = parse_ref(ref)
    assert (r.collection, r.rel_path, r.docid_prefix, r.line) == expected


def test_parse_ref_index() -> None:
    assert parse_ref("gno://n/x.md?index=Other").index == "other"


@pytest.mark.parametrize(
    "bad", ["", "#xyz", "#12345", "nocollection", "gno://c", "c/../etc", "c//x", "gno://c/a/./b"]
)
def test_bad_refs(bad: str) -> None:
    with pytest.raises(ValidationError):
        parse_ref(bad)
