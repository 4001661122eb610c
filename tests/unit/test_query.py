"""The keyword query grammar."""

from __future__ import annotations

import pytest

from gno_core.errors import ValidationError
from gno_core.retrieval.query import Phrase, Term, parse_query, words_of


def test_sentence_terms_are_optional_and_stopwords_dropped() -> None:
    q = parse_query("What is the effect of vitamin D on bone density?")
    assert q.required == ()
    assert [c.text for c in q.optional if isinstance(c, Term)] == [
        "effect",
        "vitamin",
        "d",
        "bone",
        "density",
    ]


def test_only_stopwords_are_kept() -> None:
    q = parse_query("the who")
    assert q.optional == (Term("the"), Term("who"))


def test_quoted_phrase_is_required_and_negation_excluded() -> None:
    q = parse_query('"error handling" retry -java -"legacy code"')
    assert q.required == (Phrase(("error", "handling")),)
    assert q.optional == (Term("retry"),)
    assert q.excluded == (Term("java"), Phrase(("legacy", "code")))


def test_identifiers_become_phrases_and_prefix_terms() -> None:
    q = parse_query("gpt-4 DEC-0054 retr*")
    assert q.optional == (Phrase(("gpt", "4")), Phrase(("dec", "0054")), Term("retr", prefix=True))


def test_single_word_quote_is_a_required_term() -> None:
    assert parse_query('"sqlite"').required == (Term("sqlite"),)


@pytest.mark.parametrize(
    "bad",
    ["", "   ", '"unbalanced', "-only", "***", "x" * 2001, " ".join(f"w{i}" for i in range(70))],
)
def test_malformed_queries_are_validation_errors(bad: str) -> None:
    with pytest.raises(ValidationError):
        parse_query(bad)


def test_punctuation_only_is_rejected_but_newlines_are_whitespace() -> None:
    with pytest.raises(ValidationError):
        parse_query("?!.")
    assert parse_query("alpha\nbeta").optional == (Term("alpha"), Term("beta"))


def test_cjk_and_nfkc_words() -> None:
    assert words_of("数据库 ＡＢＣ café") == ["数据库", "abc", "café"]
    assert parse_query("数据库").optional == (Term("数据库"),)


def test_positive_words_dedupe_in_order() -> None:
    q = parse_query('"bone density" bone loss')
    assert q.positive_words() == ("bone", "density", "loss")
