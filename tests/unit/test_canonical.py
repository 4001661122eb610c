"""The canonical mirror: each normalization rule, idempotence, and the mirror hash."""

from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path

import pytest

from gno_core.text.canonical import canonicalize, mirror_hash


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("\ufeff# Title\n", "# Title\n", id="bom"),
        pytest.param("a\r\nb\rc\n", "a\nb\nc\n", id="crlf-cr"),
        pytest.param("Cafe\u0301\n", "Caf\u00e9\n", id="nfc"),
        pytest.param("a\x00b\x07c\x1b[0m\x7f\x85d\n", "abc[0md\n", id="controls"),
        pytest.param("a\tb\n", "a\tb\n", id="tab-kept"),
        pytest.param("a  \t\nb\u00a0\u3000\n", "a\nb\n", id="trailing-whitespace"),
        pytest.param("a\n   \n\t\nb\n", "a\n\n\nb\n", id="whitespace-only-lines"),
        pytest.param("a\n\n\n\n\nb\n", "a\n\n\n\n\nb\n", id="blank-runs-kept"),
        pytest.param("a\n\nb\n", "a\n\nb\n", id="single-blank-kept"),
        pytest.param("\n\n\na\n", "\n\n\na\n", id="leading-blank-lines-kept"),
        pytest.param("a", "a\n", id="final-newline-added"),
        pytest.param("a\n\n\n", "a\n\n\n", id="trailing-blank-lines-kept"),
        pytest.param("a\r\n\r\rb\r", "a\n\n\nb\n", id="crlf-and-cr-blank-lines"),
        pytest.param("", "\n", id="empty"),
        pytest.param(" \r\n\t\n", "\n", id="whitespace-only"),
        pytest.param("e\x01\u0301\n", "\u00e9\n", id="control-between-base-and-mark"),
        pytest.param("  indented\n", "  indented\n", id="leading-whitespace-kept"),
    ],
)
def test_rules(source: str, expected: str) -> None:
    assert canonicalize(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("a\n   \n\t\nb\n", "a\n\nb\n", id="whitespace-only-lines"),
        pytest.param("a\n\n\n\n\nb\n", "a\n\nb\n", id="blank-runs"),
        pytest.param("\n\n\na\n", "\na\n", id="leading-blank-run"),
        pytest.param("a\n\n\n", "a\n", id="final-newlines-collapsed"),
        pytest.param(" \r\n\t\n", "\n", id="whitespace-only"),
    ],
)
def test_converted_mirrors_collapse_blank_runs(source: str, expected: str) -> None:
    assert canonicalize(source, collapse_blank_lines=True) == expected


@pytest.mark.parametrize(
    "source",
    [
        "",
        "\n",
        "x",
        "\ufeff\r\n\r\n \r\nA\u0301\x00 \t\r\r\r\rb  ",
        "\u2000a\u2001\n\n\n\u3000\n",
        "\n\n",
        "# T\n\n\n```\ncode  \n```\n",
    ],
)
def test_idempotent(source: str) -> None:
    once = canonicalize(source)
    assert canonicalize(once) == once
    collapsed = canonicalize(source, collapse_blank_lines=True)
    assert canonicalize(collapsed, collapse_blank_lines=True) == collapsed


@pytest.mark.slow
def test_invariants_on_real_files(shared_data: Path) -> None:
    paths = sorted((shared_data / "fastapi-docs").rglob("*.md"))[:300]
    paths += sorted((shared_data / "hugo-docs" / "content").rglob("*.md"))[:100]
    for path in paths:
        source = path.read_text(encoding="utf-8")
        text = canonicalize(source)
        assert canonicalize(text) == text, path
        assert text.count("\n") == len(source.removeprefix("\ufeff").splitlines()), path
        assert "\r" not in text, path
        assert unicodedata.is_normalized("NFC", text), path
        assert all(line == line.rstrip() for line in text.split("\n")), path


def test_mirror_hash_is_sha256_of_utf8() -> None:
    text = canonicalize("Grüße\r\n")
    assert mirror_hash(text) == hashlib.sha256("Grüße\n".encode()).hexdigest()
    assert mirror_hash(canonicalize("Gru\u0308\u00dfe\n")) == mirror_hash(text)
