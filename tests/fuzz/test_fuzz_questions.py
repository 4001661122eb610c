"""Issue 22, failure 7: natural-language input never fails for syntax. Real questions (written
in ``tests/fuzz/questions.py``, plus the SciFact claims and documentation questions of
``../shared/data`` when present) with stray quotes, dashes, asterisks, parentheses, colons,
carets, operator words and typographic quotes go through every retrieval surface (search on the
real FTS5 index and on the in-memory fake, vsearch, query with explain, query diagnosis,
context, ask, recall) with 0 errors of any kind: not even a typed one.

CI runs 500 questions through the grammar and 150 through every surface; ``nox -s fuzz`` (``HYPOTHESIS_PROFILE=long``) runs 10,000.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_core.retrieval.query import OPERATOR_WORDS, plain_text, read_query
from gno_core.text.words import words_of
from tests.fuzz.questions import QUESTIONS, memory_gno, real_sentences, sqlite_gno
from tests.fuzz.test_fuzz_core import queries

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
EXAMPLES = 10_000 if LONG else 150  # through every surface: about 0.1 s a question
GRAMMAR_EXAMPLES = 10_000 if LONG else 500

STRAY = [
    '"',
    '"',
    '"',
    "“",
    "”",
    "„",
    "«",
    "»",
    "'",
    "’",
    "-",
    "--",
    "—",
    "–",
    "*",
    "**",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    "^",
    "+",
    "~",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "NEAR(",
    '-"',
    '"-',
    "*)",
    "\\",
    "/",
    "|",
    ";",
    "?",
    "!",
    "…",
    "#",
    "@",
    "$",
    "%",
    "&",
    "=",
    "<",
    ">",
    "`",
    "\n",
    "\t",
    "😀",
    "\u200b",
    "\u00a0",
    "：",
    "＂",
    "－",
    "依赖",
]


def sentences() -> list[str]:
    return [*QUESTIONS, *real_sentences()]


@st.composite
def questions(draw: st.DrawFn) -> str:
    """A real sentence (or a long paste of them) with 1-6 stray pieces: alone, glued before or
    after a word, or a span of words wrapped in quotes (one side of them possibly missing)."""
    words = draw(st.sampled_from(sentences())).split()
    if draw(st.integers(0, 9)) == 0:  # now and then a long paste of many sentences
        while len(" ".join(words)) < 1800:
            words += draw(st.sampled_from(sentences())).split()
    for _ in range(draw(st.integers(1, 6))):
        piece = draw(st.sampled_from(STRAY))
        at = draw(st.integers(0, len(words) - 1))
        how = draw(st.sampled_from(["alone", "before", "after", "span"]))
        if how == "alone":
            words.insert(at, piece)
        elif how == "before":
            words[at] = piece + words[at]
        elif how == "after":
            words[at] = words[at] + piece
        else:
            end = draw(st.integers(at, len(words) - 1))
            left, right = draw(st.sampled_from([('"', '"'), ('"', ""), ("", '"'), ("-", "*")]))
            words[at] = left + words[at]
            words[end] = words[end] + right
    text = draw(st.sampled_from([" ", "  ", "\n"])).join(words)
    return text[:1950]  # within the keyword grammar's 2,000 characters


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    real = sqlite_gno(tmp_path_factory.mktemp("questions"))
    fake = memory_gno()
    with real, fake:
        yield real, fake


def test_the_corpus_mixes_own_and_real_questions() -> None:
    assert len(QUESTIONS) >= 40
    if real_sentences():  # ../shared/data is there: its questions are in the mix
        assert len(sentences()) > 300


@settings(max_examples=GRAMMAR_EXAMPLES)
@given(questions())
def test_a_question_never_fails_the_grammar(question: str) -> None:
    reading = read_query(question)
    assert reading.query.optional or reading.query.required
    plain = read_query(plain_text(question))
    assert plain.query.required == plain.query.excluded == ()
    assert set(plain.notes) <= {OPERATOR_WORDS}  # nothing of it was read as syntax


@settings(max_examples=EXAMPLES)
@given(questions())
def test_a_question_goes_through_every_surface(indexes: tuple[Any, Any], question: str) -> None:
    from gno_core.contracts.evidence_requests import AskRequest, ContextRequest, DiagnoseRequest
    from gno_core.contracts.memory_requests import RecallRequest
    from gno_core.contracts.requests import QueryRequest, SearchRequest
    from gno_core.facts import MemoryIdentity

    real, fake = indexes
    me = MemoryIdentity(caller="cli:fuzz", session="s-1")
    for gno, memory in ((real, "mem"), (fake, "notes")):
        gno.search(SearchRequest(query=question))
        gno.recall(RecallRequest(query=question, collection=memory, scopes=["people", "team"]), me)
    real.vsearch(SearchRequest(query=question))
    real.query(QueryRequest(query=question, thorough=True, explain=True))  # expansion, rerank
    real.query_diagnose(DiagnoseRequest(query=question, target="gno://notes/films.md"))
    real.context(ContextRequest(goal=question, budgetTokens=20_000))
    real.context(ContextRequest(goal="films", query=question, budgetTokens=20_000))
    real.ask(AskRequest(query=question, verify=True))


@settings(max_examples=GRAMMAR_EXAMPLES)
@given(queries)
def test_any_text_with_a_word_searches_on_fts5_and_the_fake(
    indexes: tuple[Any, Any], text: str
) -> None:
    """Beyond questions: any text (lone surrogates, FTS5 operators, column filters, CJK) that
    has a word parses, and the MATCH expression compiled from it runs on the real FTS5 table."""
    from pydantic import ValidationError as ModelError

    from gno_core.contracts.requests import SearchRequest

    try:
        request = SearchRequest(query=text)
    except ModelError:
        return  # the request model refuses it (empty): every transport says VALIDATION
    if not words_of(text):
        return  # no word: nothing to search, a VALIDATION error (not a syntax one)
    for gno in indexes:
        gno.search(request)


def test_explain_says_how_a_stray_quote_was_read(indexes: tuple[Any, Any]) -> None:
    from gno_core.contracts.requests import QueryRequest

    real, _ = indexes
    out = real.query(QueryRequest(query=QUESTIONS[0], collection="notes", explain=True))
    lines = [(e.stage, e.message) for e in out.meta.explain or []]
    assert ("query", "a double quote that closes no phrase on its line was read as text") in lines
    assert out.results[0].uri == "gno://notes/films.md"


def test_data_is_read_from_the_shared_folder() -> None:
    if not Path(__file__).resolve().parents[3].joinpath("shared", "data").is_dir():
        pytest.skip("../shared/data is absent: the suite runs on its own questions")
    assert real_sentences()
