"""Contract suites of the evidence ports: ``TokenCounter`` (the bundled WordPiece counter) and
``Generator`` (the extractive generator and the OpenAI-compatible client over a loopback
fake)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gno_adapters.generation.extractive import ExtractiveGenerator
from gno_adapters.generation.openai_chat import OpenAiChatGenerator
from gno_adapters.onnx.token_counter import WordPieceTokenCounter
from gno_core.evidence.ask import user_prompt
from gno_core.ports import EvidencePassage, GenerationRequest, Generator, TokenCounter
from tests.evidence.test_ask import FakeChat

COUNTER = WordPieceTokenCounter()
PASSAGES = (
    EvidencePassage("a" * 64, "gno://n/a.md", 1, 3, "# A\n\nAlice owns the launch decision.\n"),
    EvidencePassage("b" * 64, "gno://n/b.md", 4, 4, "Bob reviews the launch plan in March."),
)


@pytest.fixture(params=["wordpiece"])
def counter(request: pytest.FixtureRequest) -> TokenCounter:
    return COUNTER


def test_counter_basics(counter: TokenCounter) -> None:
    assert counter.count("") == 0
    assert counter.count("hello") >= 1
    assert counter.fingerprint == WordPieceTokenCounter().fingerprint
    assert counter.count('{"a":"b"}') == counter.count('{"a"') + counter.count(':"b"}')


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.text(max_size=200))
def test_counts_add_across_punctuation(left: str, right: str) -> None:
    """Punctuation is a token of its own, so a canonical JSON payload's count is the sum of its
    parts split at a comma (what lets a capsule bound its self-referential fields)."""
    assert COUNTER.count(left + "," + right) == COUNTER.count(left) + 1 + COUNTER.count(right)


@pytest.fixture(params=["extractive", "openai-chat"])
def generator(request: pytest.FixtureRequest) -> Iterator[Generator]:
    if request.param == "extractive":
        yield ExtractiveGenerator()
        return
    chat = FakeChat()
    chat.reply = lambda prompt: "Alice owns the launch decision [evidence:" + "a" * 64 + "]."
    try:
        yield OpenAiChatGenerator(chat.url, "m")
    finally:
        chat.stop()


def request_for(question: str) -> GenerationRequest:
    return GenerationRequest(question, PASSAGES, "system", user_prompt(question, PASSAGES), 64)


def test_generator_cites_only_given_passages(generator: Generator) -> None:
    text = generator.generate(request_for("Who owns the launch decision?"))
    assert isinstance(text, str) and text
    ids = set(re.findall(r"\[evidence:([0-9a-f]{64})\]", text))
    assert ids and ids <= {p.evidence_id for p in PASSAGES}
    assert generator.model_id


def test_user_prompt_fences_hold_every_passage() -> None:
    prompt: Any = user_prompt("q", PASSAGES)
    for p in PASSAGES:
        assert f"[evidence:{p.evidence_id}] {p.uri}:{p.start_line}-{p.end_line}" in prompt
        assert p.text in prompt
