"""The OpenAI-compatible claim verifier against a local HTTP server speaking that API (127.0.0.1,
a free port, stopped by each test): claims are supported exactly where the server's scripted
verdict says so, and a time-out, a malformed answer, an oversized answer or an HTTP 500 is a
typed failure that leaves Ask abstaining, never a verdict."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from gno_adapters.bootstrap import build
from gno_adapters.generation.chat_transport import ChatEndpoint
from gno_adapters.generation.openai_verifier import PROTOCOL, OpenAiChatVerifier
from gno_core.contracts.evidence_requests import AskRequest
from gno_core.errors import CancelledError, GnoError, ModelUnavailableError, RuntimeFailure
from gno_core.ports import ClaimToVerify, EvidencePassage, VerificationRequest
from tests.chat_support import FakeChat, verdict_json
from tests.evidence.support import evidence_adapters
from tests.schema_check import assert_valid

A = EvidencePassage("a" * 64, "gno://n/a.md", 1, 3, "Alice owns the launch decision.")
B = EvidencePassage("b" * 64, "gno://n/b.md", 4, 4, "Bob reviews the launch plan in March.")
REQUEST = VerificationRequest(
    "Who owns the launch?",
    (
        ClaimToVerify(1, "Alice owns the launch decision", (A,)),
        ClaimToVerify(2, "Bob reviews the launch plan in March", (A, B)),
    ),
)
#: What the extractive generator drafts from the evidence corpus for this question.
QUESTION = "Who owns the launch decision?"


@pytest.fixture
def chat() -> Iterator[FakeChat]:
    fake = FakeChat()
    yield fake
    fake.stop()


def scripted(verdicts: dict[int, str], evidence: str = "cited") -> Any:
    def answer(claims: list[tuple[int, str, list[str]]]) -> str:
        return verdict_json(
            [
                {
                    "claim": i,
                    "verdict": verdicts.get(i, "unknown"),
                    "evidence": cited if evidence == "cited" else [evidence],
                    "confidence": 0.9,
                    "reason": f"scripted {verdicts.get(i, 'unknown')}",
                }
                for i, _, cited in claims
            ]
        )

    return answer


def test_verdicts_are_the_servers_and_labels_map_back_to_ids(chat: FakeChat) -> None:
    chat.verdicts = scripted({1: "supported", 2: "not_supported"})
    first, second = OpenAiChatVerifier(chat.url, "m").verify(REQUEST)
    assert (first.verdict, first.evidence_ids, first.confidence) == ("supported", ("a" * 64,), 0.9)
    assert second.verdict == "not_supported"
    (sent,) = chat.requests
    body = sent["body"]
    assert body["temperature"] == 0 and body["max_tokens"] == 2048
    assert body["response_format"]["type"] == "json_schema"
    prompt = body["messages"][1]["content"]
    assert "Question: Who owns the launch?" in prompt and "a" * 64 not in prompt
    assert "2. Bob reviews the launch plan in March (cites E1, E2)" in prompt


def ask(chat: FakeChat, timeout: float = 60.0) -> dict[str, Any]:
    verifier = OpenAiChatVerifier(chat.url, "m", timeout_seconds=timeout)
    made = replace(evidence_adapters(), verifier=verifier)
    with build(made) as gno:
        result: dict[str, Any] = gno.ask(AskRequest(query=QUESTION, verify=True)).wire()
    assert_valid("ask", result)
    return result


@pytest.mark.parametrize(
    ("verdicts", "statuses", "answered"),
    [
        ({1: "supported", 2: "supported"}, ["supported", "supported"], True),
        ({1: "supported", 2: "not_supported"}, ["supported", "uncertain"], False),
        ({1: "unknown", 2: "supported"}, ["uncertain", "supported"], False),
        ({1: "contradicted", 2: "supported"}, ["contradicted", "supported"], False),
        ({}, ["uncertain", "uncertain"], False),
    ],
)
def test_ask_supports_claims_only_where_the_server_says_so(
    chat: FakeChat, verdicts: dict[int, str], statuses: list[str], answered: bool
) -> None:
    chat.verdicts = scripted(verdicts)
    result = ask(chat)
    claims = result["verification"]["claims"]["claims"]
    assert [c["status"] for c in claims] == statuses
    assert result["answerStatus"] == ("answered" if answered else "abstained")
    assert result["verification"]["claims"]["coverage"]["supported"] == statuses.count("supported")


def test_a_supported_verdict_citing_another_claims_passage_is_not_support(chat: FakeChat) -> None:
    chat.verdicts = scripted({1: "supported", 2: "supported"}, evidence="E9")
    result = ask(chat)
    assert result["verification"]["claims"]["coverage"]["supported"] == 0
    assert result["answerStatus"] == "abstained"


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (lambda chat: setattr(chat, "verdicts", lambda claims: None), "http_status"),
        (lambda chat: setattr(chat, "verdicts", lambda claims: "all good"), "malformed"),
        (
            lambda chat: setattr(
                chat, "verdicts", lambda claims: json.dumps({"protocol": "other", "verdicts": []})
            ),
            "malformed",
        ),
        (
            lambda chat: setattr(
                chat,
                "verdicts",
                lambda claims: verdict_json(
                    [{"claim": 1, "verdict": "probably", "evidence": [], "reason": ""}]
                ),
            ),
            "malformed",
        ),
        (lambda chat: setattr(chat, "raw", b"<html>not json</html>"), "malformed"),
        (lambda chat: setattr(chat, "raw", b"x" * (1024 * 1024 + 10)), "too_large"),
        (lambda chat: setattr(chat, "delay", 1.5), "timeout"),
    ],
    ids=["500", "prose", "protocol", "verdict", "not-a-completion", "too-large", "timeout"],
)
def test_failures_are_typed_and_ask_abstains(chat: FakeChat, setup: Any, reason: str) -> None:
    setup(chat)
    verifier = OpenAiChatVerifier(chat.url, "m", timeout_seconds=0.5)
    with pytest.raises(RuntimeFailure) as info:
        verifier.verify(REQUEST)
    assert info.value.details["reason"] == reason
    result = ask(chat, timeout=0.5)
    assert result["verification"]["semantic"]["state"] == "failed"
    assert result["abstention"]["reason"] == "semantic_verification_failed"
    assert result["verification"]["claims"]["coverage"]["supported"] == 0


def test_nothing_listening_is_model_unavailable() -> None:
    gone = FakeChat()
    url = gone.url
    gone.stop()
    with pytest.raises(ModelUnavailableError):
        OpenAiChatVerifier(url, "m", timeout_seconds=2).verify(REQUEST)


def test_the_callers_time_limit_bounds_the_request(chat: FakeChat) -> None:
    chat.delay = 1.5
    verifier = OpenAiChatVerifier(chat.url, "m", timeout_seconds=60)
    with pytest.raises(RuntimeFailure) as info:
        verifier.verify(replace(REQUEST, timeout_seconds=0.3))
    assert info.value.details["reason"] == "timeout"


def test_cancellation_sends_nothing(chat: FakeChat) -> None:
    with pytest.raises(CancelledError):
        OpenAiChatVerifier(chat.url, "m").verify(replace(REQUEST, cancelled=lambda: True))
    assert chat.requests == []


def test_a_prompt_over_the_bound_is_refused_before_sending(chat: FakeChat) -> None:
    huge = EvidencePassage("c" * 64, "gno://n/c.md", 1, 1, "x" * (300 * 1024))
    request = VerificationRequest("q", (ClaimToVerify(1, "x", (huge,)),))
    with pytest.raises(GnoError) as info:
        OpenAiChatVerifier(chat.url, "m").verify(request)
    assert info.value.details["reason"] == "too_large" and chat.requests == []


def test_protocol_name_and_transport_bound() -> None:
    assert PROTOCOL == "gno-claim-verifier-v1"
    assert ChatEndpoint("http://127.0.0.1:1/v1", "m").url.endswith("/v1/chat/completions")
