"""The CJK segmenter: every substring of a CJK run is findable, nothing else is."""

from __future__ import annotations

import random

import pytest

from gno_core.text.cjk import has_cjk, query_units, segment_for_index


def occurs(index_text: str, units: tuple[tuple[str, ...], bool]) -> bool:
    """Phrase match of ``units`` against the whitespace tokens of segmented text."""
    tokens = index_text.lower().split()
    phrase, prefix = units
    n = len(phrase)
    for i in range(len(tokens) - n + 1):
        head = all(tokens[i + j] == phrase[j].lower() for j in range(n - 1))
        last = tokens[i + n - 1]
        want = phrase[-1].lower()
        if head and (last.startswith(want) if prefix else last == want):
            return True
    return False


def test_ascii_text_is_left_alone() -> None:
    text = "Plain English, with punctuation: gpt-4 and C++."
    assert segment_for_index(text) is text
    assert not has_cjk(text)


def test_runs_become_bigrams_plus_their_last_character() -> None:
    assert segment_for_index("检索引擎").split() == ["检索", "索引", "引擎", "擎"]
    assert segment_for_index("中").split() == ["中"]
    assert segment_for_index("学习Python编程").split() == ["学习", "习", "Python", "编程", "程"]
    assert segment_for_index("한국어 검색").split() == ["한국", "국어", "어", "검색", "색"]


def test_halfwidth_katakana_is_normalized() -> None:
    assert segment_for_index("ｶﾀｶﾅ").split() == ["カタ", "タカ", "カナ", "ナ"]
    assert query_units("ｶﾀ") == (("カタ",), False)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("中", (("中",), True)),
        ("中文", (("中文",), False)),
        ("中文字", (("中文", "文字"), False)),
        ("中文a", (("中文", "文", "a"), False)),
        ("a中", (("a", "中"), True)),
        ("中a", (("中", "a"), False)),
        ("plain", (("plain",), False)),
    ],
)
def test_query_units(word: str, expected: tuple[tuple[str, ...], bool]) -> None:
    assert query_units(word) == expected


@pytest.mark.parametrize("seed", range(5))
def test_every_substring_is_found_and_non_substrings_are_not(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = "中文检索引擎가나다カタ"  # small, so that random strings repeat characters
    text = "".join(
        rng.choice([*alphabet, *alphabet, " ", "x", "。"]) for _ in range(rng.randrange(5, 40))
    )
    indexed = segment_for_index(text)
    for start in range(len(text)):
        for end in range(start + 1, min(len(text), start + 6) + 1):
            sub = text[start:end]
            if has_cjk(sub) and all(has_cjk(ch) for ch in sub):
                assert occurs(indexed, query_units(sub)), (text, sub)
    for _ in range(50):
        probe = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 5)))
        assert occurs(indexed, query_units(probe)) == (probe in text), (text, probe)
