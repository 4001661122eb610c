"""The keyword query grammar."""

from __future__ import annotations

import pytest

from gno_core.errors import ValidationError
from gno_core.retrieval.query import (
    MAX_CLAUSES,
    MAX_QUERY_CHARS,
    ONLY_EXCLUDED,
    OPERATOR_WORDS,
    STRAY_DASH,
    STRAY_QUOTE,
    STRAY_STAR,
    Phrase,
    Term,
    parse_query,
    plain_text,
    read_query,
)
from gno_core.text.words import words_of


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
    ["", "   ", "***", "?!.", "x" * 2001, " ".join(f"-w{i}" for i in range(64)) + " x"],
)
def test_malformed_queries_are_validation_errors(bad: str) -> None:
    with pytest.raises(ValidationError):
        parse_query(bad)


QUESTION = 'When did Joanna first watch "Eternal Sunshine of the Spotless Mind?'


def test_the_issue_question_reads_its_stray_quote_as_text() -> None:
    reading = read_query(QUESTION)
    assert reading.query.required == () and reading.query.excluded == ()
    assert [c.text for c in reading.query.optional if isinstance(c, Term)] == [
        "joanna",
        "first",
        "watch",
        "eternal",
        "sunshine",
        "spotless",
        "mind",
    ]
    assert reading.notes == (STRAY_QUOTE,)


@pytest.mark.parametrize(
    ("text", "required", "optional"),
    [
        # A well-formed phrase keeps its meaning next to a stray quote, before or after it.
        ('"eternal sunshine" of the "spotless mind', ("eternal sunshine",), ["spotless", "mind"]),
        ('watch "Eternal Sunshine and "Her" too', ("her",), ["watch", "eternal", "sunshine"]),
        # A closing quote followed by punctuation still closes; one inside a word never opens.
        ('Did Joanna see "Her"?', ("her",), ["joanna", "see"]),
        ("He is 5'10\" and 6'2\" tall", (), ["5 10", "6 2", "tall"]),
        # After punctuation a quote opens a phrase; a phrase does not run across lines.
        ('title:"foo bar"', ("foo bar",), ["title"]),
        ('say "yes\nmaybe" later', (), ["say", "yes", "maybe", "later"]),
        ('""', None, None),
    ],
)
def test_phrases_only_where_well_formed(
    text: str, required: tuple[str, ...], optional: list[str] | None
) -> None:
    if required is None:
        with pytest.raises(ValidationError):
            parse_query(text)
        return
    q = parse_query(text)
    assert [" ".join(_words(c)) for c in q.required] == list(required)
    assert [" ".join(_words(c)) for c in q.optional] == optional


def _words(clause: Term | Phrase) -> tuple[str, ...]:
    return clause.words if isinstance(clause, Phrase) else (clause.text,)


def test_stray_dashes_stars_and_operators_are_text() -> None:
    q = parse_query("What does git push --force do -5 - times * AND NEAR(x) -nope")
    assert q.excluded == (Term("nope"),)
    assert Term("force") in q.optional and Term("5") in q.optional
    assert Phrase(("near", "x")) in q.optional and not any(
        isinstance(c, Term) and c.prefix for c in q.optional
    )
    notes = read_query("git --force * AND x").notes
    assert set(notes) == {STRAY_DASH, STRAY_STAR, OPERATOR_WORDS}


def test_a_query_that_only_excludes_searches_those_words() -> None:
    reading = read_query('-java -"legacy code"')
    assert reading.query.optional == (Term("java"), Phrase(("legacy", "code")))
    assert reading.query.excluded == ()
    assert reading.notes == (ONLY_EXCLUDED,)


def test_well_formed_syntax_is_unchanged() -> None:
    q = parse_query('"error handling" retry* -java -"legacy code"')
    assert q.required == (Phrase(("error", "handling")),)
    assert q.optional == (Term("retry", prefix=True),)
    assert q.excluded == (Term("java"), Phrase(("legacy", "code")))
    assert read_query('"error handling" retry* -java -"legacy code"').notes == ()


def test_more_bare_words_than_clauses_keep_the_first() -> None:
    reading = read_query(" ".join(f"w{i}" for i in range(70)) + ' "a b" -c')
    assert len(reading.query.optional) == MAX_CLAUSES - 2
    assert reading.query.optional[-1] == Term(f"w{MAX_CLAUSES - 3}")
    assert reading.notes == (f"only the first {MAX_CLAUSES - 2} distinct words were searched",)


@pytest.mark.parametrize(
    "prose",
    [
        QUESTION,
        '"quoted" -excluded prefix* --flag "',
        "word " * 1000,
        " ".join(f"w{i}" for i in range(500)),
        "x" * 5000 + " tail",
        "-" * 10 + '"' * 7 + "*" * 3,
    ],
)
def test_plain_text_has_no_syntax_and_never_fails_on_words(prose: str) -> None:
    text = plain_text(prose)
    if not words_of(prose.replace("-", " ")):
        assert text == prose
        return
    reading = read_query(text)
    assert reading.query.required == reading.query.excluded == ()
    assert not any(isinstance(c, Term) and c.prefix for c in reading.query.optional)
    assert set(reading.notes) <= {OPERATOR_WORDS} and len(text) <= MAX_QUERY_CHARS


def test_newlines_are_whitespace() -> None:
    assert parse_query("alpha\nbeta").optional == (Term("alpha"), Term("beta"))


def test_cjk_and_nfkc_words() -> None:
    assert words_of("数据库 ＡＢＣ café") == ["数据库", "abc", "café"]
    assert parse_query("数据库").optional == (Term("数据库"),)


def test_positive_words_dedupe_in_order() -> None:
    q = parse_query('"bone density" bone loss')
    assert q.positive_words() == ("bone", "density", "loss")
