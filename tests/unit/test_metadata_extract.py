"""Extraction of the typed ``gno:`` → ``metadata:`` frontmatter namespace, through the real YAML
parser, with every bound of the reference facts (§15)."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_core.metadata.extract import INVALID, VALID, DocumentMetadata, extract_metadata

PARSER = YamlFrontmatterParser()


def extracted(yaml: str) -> DocumentMetadata:
    return extract_metadata(PARSER.parse(yaml))


def block(values: str) -> str:
    return "title: T\ngno:\n  metadata:\n" + "".join(
        f"    {line}\n" for line in values.splitlines()
    )


def test_typed_values_keep_their_types() -> None:
    got = extracted(
        block(
            'score: 0.9\ntext: "0.9"\nflag: false\nzero: 0\nempty: ""\nnone: []\n'
            "tags: [a, b]\nnums: [1, 2.5]\nwhen: 2024-01-02"
        )
    )
    assert got.state == VALID
    assert got.values == {
        "score": 0.9,
        "text": "0.9",
        "flag": False,
        "zero": 0,
        "empty": "",
        "none": (),
        "tags": ("a", "b"),
        "nums": (1, 2.5),
        "when": "2024-01-02",
    }
    assert type(got.values["flag"]) is bool


def test_a_literal_dotted_key_is_not_the_namespace() -> None:
    got = extracted('"gno.metadata":\n  status: x\n')
    assert got == DocumentMetadata(VALID, {})
    assert extracted("title: no namespace\n") == DocumentMetadata(VALID, {})
    assert extract_metadata(None) == DocumentMetadata(VALID, {})


@pytest.mark.parametrize(
    "values",
    [
        "status: null",
        "status:",
        "nested:\n  deeper: 1",
        "mixed: [1, a]",
        "mixed2: [true, 1]",
        "nested_list: [[1], [2]]",
        "inf: .inf",
        "nan: .nan",
        "__proto__: x",
        "prototype: x",
        "constructor: x",
        "list_with_null: [a, null]",
    ],
)
def test_invalid_values_make_the_whole_document_invalid(values: str) -> None:
    got = extracted(block(values + "\nok: fine"))
    assert got.state == INVALID and got.values == {} and got.error


def test_a_namespace_that_is_no_mapping_is_invalid() -> None:
    assert extracted("gno:\n  metadata: [1, 2]\n").state == INVALID
    assert extracted("gno:\n  metadata: 3\n").state == INVALID


def test_yaml_aliases_resolve_to_the_same_types() -> None:
    got = extracted(
        "base: &s approved\nlist: &l [a, b]\ngno:\n  metadata:\n    status: *s\n    tags: *l\n"
    )
    assert got.values == {"status": "approved", "tags": ("a", "b")}
    nested = extracted("obj: &o {a: 1}\ngno:\n  metadata:\n    bad: *o\n")
    assert nested.state == INVALID


def _mapping(n: int, value: Any = 1) -> dict[str, Any]:
    return {"gno": {"metadata": {f"k{i}": value for i in range(n)}}}


def test_bounds() -> None:
    assert extract_metadata(_mapping(64)).state == VALID
    assert extract_metadata(_mapping(65)).state == INVALID
    assert extract_metadata({"gno": {"metadata": {"k" * 128: 1}}}).state == VALID
    assert extract_metadata({"gno": {"metadata": {"k" * 129: 1}}}).state == INVALID
    assert extract_metadata({"gno": {"metadata": {"s": "x" * 4096}}}).state == VALID
    assert extract_metadata({"gno": {"metadata": {"s": "x" * 4097}}}).state == INVALID
    assert extract_metadata({"gno": {"metadata": {"a": list(range(128))}}}).state == VALID
    assert extract_metadata({"gno": {"metadata": {"a": list(range(129))}}}).state == INVALID
    # 64 KiB serialized: 20 strings of 4,000 characters pass every other bound
    big = {f"k{i}": "x" * 4000 for i in range(20)}
    assert extract_metadata({"gno": {"metadata": big}}).state == INVALID
    assert extract_metadata({"gno": {"metadata": {"big": 10**400}}}).state == INVALID
    assert extract_metadata({"gno": {"metadata": {"big": 2**60}}}).values == {"big": float(2**60)}
