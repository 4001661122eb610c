"""The language hint: CJK by script ratio, European languages by marker words, None if unsure."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from gno_core.text.canonical import canonicalize
from gno_core.text.language import detect_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The quick brown fox jumps over the lazy dog and it is happy with that.", "en"),
        ("Der Hund ist nicht mit dem Ball auf der Wiese, und das ist auch gut so.", "de"),
        ("Le chat est dans la maison avec les enfants et ce n'est pas un problème.", "fr"),
        ("El perro está en la casa con los niños y no es un problema para ellos.", "es"),
        ("Il gatto è nella casa con gli amici e non è un problema per questo.", "it"),
        ("O cachorro está em casa com os amigos e não é um problema para você.", "pt"),
        ("这是一个用于搜索本地笔记的工具，它可以索引文件夹。", "zh"),
        ("これはローカルのノートを検索するためのツールです。", "ja"),
        ("이것은 로컬 노트를 검색하기 위한 도구입니다.", "ko"),
        ("Это инструмент для поиска по локальным заметкам.", None),
        ("", None),
        ("git commit -m", None),
        ("the", None),  # one marker word is not evidence enough
    ],
)
def test_examples(text: str, expected: str | None) -> None:
    assert detect_language(text) == expected


def test_cjk_needs_ten_percent_of_the_text() -> None:
    english = "This page explains how the index is built and what the options are. " * 5
    assert detect_language(english + "索引") == "en"
    assert detect_language("索引文件夹" * 20 + english) == "zh"


def test_code_spans_are_not_language_evidence() -> None:
    text = "Der Befehl:\n\n```\nfor the and of to is that with for this are be it\n```\n"
    assert detect_language(text) is None
    assert detect_language(text + "Das ist nicht mit dem Ball und der Hund.") == "de"


def test_decoy_languages_stay_unknown() -> None:
    assert detect_language("Dit is een bestand van het project en het wordt niet gebruikt.") is None


@pytest.mark.slow
def test_fastapi_docs_by_language(shared_data: Path) -> None:
    root = shared_data / "fastapi-docs"
    expected = {
        "en": "en",
        "de": "de",
        "es": "es",
        "fr": "fr",
        "pt": "pt",
        "ja": "ja",
        "ko": "ko",
        "zh": "zh",
        "zh-hant": "zh",
        "ru": None,
        "uk": None,
        "tr": None,
        "hi": None,
    }
    for folder, lang in expected.items():
        found = Counter(
            detect_language(canonicalize(p.read_text(encoding="utf-8")))
            for p in sorted((root / folder).rglob("*.md"))
        )
        total = sum(found.values())
        assert found[lang] / total >= 0.9, (folder, found.most_common(3))
