"""Verified Ask: claims are supported only by a semantic verifier's verdicts. Without one,
Ask abstains (the quote check is a precondition, never support); a configured
OpenAI-compatible endpoint (a fake bound to 127.0.0.1 here) drafts and verifies, and uncited,
unquoted, malformed or stale claims make the answer abstain with the draft withheld."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import build
from gno_adapters.generation.extractive import ExtractiveGenerator
from gno_adapters.generation.openai_chat import OpenAiChatGenerator
from gno_adapters.generation.openai_verifier import OpenAiChatVerifier
from gno_adapters.inmemory.verifier import ScriptedVerifier
from gno_core.contracts.evidence_requests import AskRequest
from gno_core.errors import CancelledError, ModelUnavailableError, RuntimeFailure
from gno_core.evidence.ask import split_claims
from gno_core.ports import GenerationRequest
from tests.chat_support import FakeChat
from tests.evidence.support import evidence_adapters
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

QUESTION = "Who owns the launch decision?"
ALICE = "Alice owns the launch decision for 2026"
MARCH = "The launch happens in March after the review by Bob"
HEX64 = re.compile(r"[0-9a-f]{64}")

__all__ = ["FakeChat"]


@pytest.fixture
def chat() -> Iterator[FakeChat]:
    fake = FakeChat()
    yield fake
    fake.stop()


def ids_in(prompt: str) -> list[str]:
    return [
        line.split("]")[0].removeprefix("[evidence:")
        for line in prompt.splitlines()
        if line.startswith("[evidence:")
    ]


def ask_with(generator: Any, question: str = QUESTION, verifier: Any = None) -> dict[str, Any]:
    made = replace(evidence_adapters(), generator=generator, verifier=verifier)
    with build(made) as gno:
        result: dict[str, Any] = gno.ask(AskRequest(query=question, verify=True)).wire()
    assert_valid("ask", result)
    return result


def test_without_a_verifier_a_quoted_answer_is_not_supported_and_abstains() -> None:
    """The old Ask answered here: a verbatim quote counted as support."""
    result = ask_with(ExtractiveGenerator())
    assert result["answerStatus"] == "abstained" and "answer" not in result
    assert result["abstention"]["reason"] == "semantic_verifier_unavailable"
    claims = result["verification"]["claims"]
    assert claims["coverage"]["supported"] == 0 and claims["coverage"]["substantive"] >= 1
    assert all(c["status"] == "uncertain" and c["quoted"] for c in claims["claims"])
    assert all(c["supportEvidenceIds"] == [] for c in claims["claims"])
    assert result["verification"]["semantic"]["state"] == "unavailable"
    assert result["citations"] == []
    best = result["abstention"]["evidence"]
    assert best and best[0]["uri"] == "gno://notes/launch.md"


def test_extractive_answer_is_supported_only_by_the_verifier_verdict() -> None:
    verifier = ScriptedVerifier({ALICE: "supported", MARCH: "supported"})
    result = ask_with(ExtractiveGenerator(), verifier=verifier)
    assert result["answerStatus"] == "answered"
    assert ALICE in result["answer"]
    claims = result["verification"]["claims"]["claims"]
    assert claims and all(c["status"] == "supported" for c in claims)
    assert claims[0]["verdict"]["verdict"] == "supported"
    assert result["citations"][0]["uri"] == "gno://notes/launch.md"
    assert result["verification"]["freshness"]["status"] == "fresh"
    assert result["verification"]["semantic"]["state"] == "used"
    (asked,) = verifier.calls
    assert asked.question == QUESTION and [c.text for c in asked.claims] == [ALICE, MARCH]


@pytest.mark.parametrize("verdict", ["not_supported", "unknown"])
def test_an_unresolved_verdict_forces_abstention(verdict: str) -> None:
    verifier = ScriptedVerifier({ALICE: "supported", MARCH: verdict})  # type: ignore[dict-item]
    result = ask_with(ExtractiveGenerator(), verifier=verifier)
    assert result["answerStatus"] == "abstained"
    assert result["abstention"]["reason"] == "unsupported_claims"
    first, second = result["verification"]["claims"]["claims"]
    assert first["status"] == "supported"
    assert second["status"] == "uncertain" and second["verdict"]["verdict"] == verdict
    assert result["verification"]["claims"]["coverage"] == {
        "supported": 1,
        "substantive": 2,
        "complete": False,
    }


def test_a_contradicted_verdict_names_the_conflicting_evidence() -> None:
    result = ask_with(ExtractiveGenerator(), verifier=ScriptedVerifier({ALICE: "contradicted"}))
    claim = result["verification"]["claims"]["claims"][0]
    assert claim["status"] == "contradicted" and claim["conflictEvidenceIds"]
    assert claim["supportEvidenceIds"] == [] and result["answerStatus"] == "abstained"


def test_a_failing_verifier_produces_no_support() -> None:
    verifier = ScriptedVerifier(default="supported")
    verifier.fail = RuntimeFailure("boom", details={"reason": "timeout"})
    result = ask_with(ExtractiveGenerator(), verifier=verifier)
    assert result["verification"]["semantic"]["state"] == "failed"
    assert result["abstention"]["reason"] == "semantic_verification_failed"
    assert result["verification"]["claims"]["coverage"]["supported"] == 0


def test_extractive_abstains_without_evidence() -> None:
    result = ask_with(ExtractiveGenerator(), "zebra quantum chromodynamics")
    assert result["answerStatus"] == "abstained"
    assert result["abstention"]["reason"] in ("no_evidence", "no_claims")
    assert "answer" not in result


def test_one_uncited_claim_withholds_the_generated_draft(chat: FakeChat) -> None:
    def reply(prompt: str) -> str:
        eid = ids_in(prompt)[0]
        return f"{ALICE} [evidence:{eid}]. Bob is the real owner."

    chat.reply = reply
    endpoint = OpenAiChatVerifier(chat.url, "fake-model")
    result = ask_with(OpenAiChatGenerator(chat.url, "fake-model"), verifier=endpoint)
    assert result["answerStatus"] == "abstained"
    assert result["abstention"]["reason"] == "unsupported_claims"
    assert "answer" not in result and "Bob is the real owner" not in json.dumps(result["citations"])
    statuses = [c["status"] for c in result["verification"]["claims"]["claims"]]
    assert statuses == ["supported", "insufficient"]
    sent = chat.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["body"]["model"] == "fake-model" and sent["body"]["temperature"] == 0
    assert "untrusted data" in sent["body"]["messages"][0]["content"]
    (verified,) = chat.verification_requests
    assert (
        "1. Alice owns the launch decision for 2026 (cites E1)"
        in (verified["body"]["messages"][1]["content"])
    )


def test_generation_and_verification_both_go_through_the_endpoint(chat: FakeChat) -> None:
    chat.reply = lambda prompt: f"{ALICE} [1]."
    result = ask_with(
        OpenAiChatGenerator(chat.url, "m"), verifier=OpenAiChatVerifier(chat.url, "m")
    )
    assert result["answerStatus"] == "answered"
    assert result["meta"]["generator"] == "openai-compatible:m"
    assert result["verification"]["semantic"]["verifier"].startswith("openai-compatible:m")
    assert [("response_format" in r["body"]) for r in chat.requests] == [False, True]


@pytest.mark.parametrize(
    ("draft", "reason", "status"),
    [
        ("Alice owns the launch decision [evidence:xyz].", "malformed_citation", "insufficient"),
        (
            "Alice owns the launch decision [evidence:" + "a" * 64 + "].",
            "out_of_capsule",
            "insufficient",
        ),
    ],
)
def test_rejected_citations(chat: FakeChat, draft: str, reason: str, status: str) -> None:
    chat.reply = lambda prompt: draft
    result = ask_with(OpenAiChatGenerator(chat.url, "m"))
    claim = result["verification"]["claims"]["claims"][0]
    assert claim["status"] == status and claim["citations"][0]["reason"] == reason
    assert result["answerStatus"] == "abstained"


def test_a_paraphrase_fails_the_quote_precondition_and_is_not_verified(chat: FakeChat) -> None:
    chat.reply = lambda prompt: f"Alice decides about the launch [evidence:{ids_in(prompt)[0]}]."
    verifier = ScriptedVerifier(default="supported")
    result = ask_with(OpenAiChatGenerator(chat.url, "m"), verifier=verifier)
    claim = result["verification"]["claims"]["claims"][0]
    assert claim["status"] == "uncertain" and claim["quoted"] is False
    assert claim["verdict"]["verdict"] == "not_checked"
    assert result["answerStatus"] == "abstained" and verifier.calls == []
    assert result["verification"]["semantic"]["state"] == "not_attempted"


def test_evidence_edited_during_generation_is_stale() -> None:
    made = evidence_adapters()

    class EditingGenerator:
        model_id = "editing"

        def generate(self, request: GenerationRequest) -> str:
            made.tree.write("/notes/launch.md", "# Launch decision\n\nBob owns it now.\n")
            with build(made) as other:
                other.sync()
            eid = request.evidence[0].evidence_id
            return f"Alice owns the launch decision for 2026 [evidence:{eid}]."

    verifier = ScriptedVerifier(default="supported")
    with build(replace(made, generator=EditingGenerator(), verifier=verifier)) as gno:
        result = gno.ask(AskRequest(query=QUESTION, verify=True)).wire()
    claim = result["verification"]["claims"]["claims"][0]
    assert claim["citations"][0]["reason"] == "evidence_stale"
    assert result["answerStatus"] == "abstained" and verifier.calls == []


def test_endpoint_failures_are_typed(chat: FakeChat) -> None:
    chat.reply = lambda prompt: None
    request = GenerationRequest("q", (), "s", "u", 16)
    with pytest.raises(RuntimeFailure):
        OpenAiChatGenerator(chat.url, "m").generate(request)
    closed = FakeChat()
    url = closed.url
    closed.stop()
    with pytest.raises(ModelUnavailableError):
        OpenAiChatGenerator(url, "m", timeout_seconds=2).generate(request)


def test_claim_splitting() -> None:
    assert split_claims("One. Two! Three? Four; five\nsix") == [
        "One.",
        "Two!",
        "Three?",
        "Four;",
        "five",
        "six",
    ]


def test_mcp_requires_literal_verify_true() -> None:
    made = replace(evidence_adapters(), verifier=ScriptedVerifier(default="supported"))
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    for arguments in ({"query": QUESTION}, {"query": QUESTION, "verify": False}):
        result = peer.request("tools/call", {"name": "gno_ask", "arguments": arguments})["result"]
        assert result["isError"] is True
    modern = Peer(facade=lambda: build(made))
    ok = modern.modern(
        "tools/call", {"name": "gno_ask", "arguments": {"query": QUESTION, "verify": True}}
    )
    result = ok["result"]
    structured = result["structuredContent"]
    assert_valid("ask", structured)
    text = result["content"][0]["text"]
    assert text.startswith("Answer status: answered")
    # Short labels in the text, full ids in structuredContent.
    assert f"{ALICE} [E1]." in text and "[E1] gno://notes/launch.md" in text
    assert not HEX64.search(text)
    assert HEX64.fullmatch(structured["results"][0]["evidenceId"])
    assert HEX64.search(structured["answer"])


def test_mcp_without_a_verifier_abstains_and_says_why() -> None:
    made = evidence_adapters()
    peer = Peer(facade=lambda: build(made))
    ok = peer.modern(
        "tools/call", {"name": "gno_ask", "arguments": {"query": QUESTION, "verify": True}}
    )
    text = ok["result"]["content"][0]["text"]
    assert text.startswith("Answer status: abstained (0/")
    assert "semantic verifier unavailable" in text and "Best evidence:" in text
    assert "[E1] gno://notes/launch.md" in text and not HEX64.search(text)


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_cli_ask_offline_and_with_a_configured_endpoint(
    cli: Cli, tmp_path: Path, chat: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "launch.md").write_text(f"# Launch\n\n{ALICE}.\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    monkeypatch.delenv("GNO_ASK_ENDPOINT", raising=False)
    assert cli.ok("status", "--json").json()["capabilities"]["answer"] is False
    assert "answer no (Ask abstains" in cli.ok("status").out
    offline = cli.ok("ask", QUESTION)
    assert offline.out.startswith("Answer status: abstained (0/1 claims supported")
    assert "semantic_verifier_unavailable" in offline.out and "[E1]" in offline.out
    chat.reply = lambda prompt: f"Alice owns it [evidence:{ids_in(prompt)[0]}]. Nobody else does."
    monkeypatch.setenv("GNO_ASK_ENDPOINT", chat.url)
    assert cli.ok("status", "--json").json()["capabilities"]["answer"] is True
    generated = cli.ok("ask", QUESTION, "--json").json()
    assert generated["answerStatus"] == "abstained" and "answer" not in generated
    assert generated["meta"]["generator"] == "openai-compatible:default"
    chat.reply = lambda prompt: f"{ALICE} [evidence:{ids_in(prompt)[0]}]."
    answered = cli.ok("ask", QUESTION, "--json").json()
    assert answered["answerStatus"] == "answered"
    assert answered["verification"]["semantic"]["state"] == "used"
    monkeypatch.setenv("GNO_ASK_VERIFIER", "none")
    assert cli.ok("status", "--json").json()["capabilities"]["answer"] is False
    assert cli.ok("ask", QUESTION, "--json").json()["answerStatus"] == "abstained"


@pytest.mark.parametrize("with_verifier", [False, True])
def test_mcp_status_says_whether_ask_can_answer(with_verifier: bool) -> None:
    """The old status said ``answer: false`` while Ask answered; now it is true exactly when a
    semantic verifier is there, and Ask agrees."""
    made = evidence_adapters()
    if with_verifier:
        made = replace(made, verifier=ScriptedVerifier(default="supported"))
    peer = Peer(facade=lambda: build(made))
    status = peer.modern("tools/call", {"name": "gno_status", "arguments": {}})["result"]
    assert status["structuredContent"]["capabilities"]["answer"] is with_verifier
    said = "answer yes" if with_verifier else "answer no (Ask abstains: no semantic verifier"
    assert said in status["content"][0]["text"]
    asked = peer.modern(
        "tools/call", {"name": "gno_ask", "arguments": {"query": QUESTION, "verify": True}}
    )["result"]["structuredContent"]
    assert (asked["answerStatus"] == "answered") is with_verifier


def test_a_cancelled_ask_stops_before_claim_verification() -> None:
    verifier = ScriptedVerifier(default="supported")
    made = replace(evidence_adapters(), verifier=verifier)
    with build(made) as gno, pytest.raises(CancelledError):
        gno.ask(AskRequest(query=QUESTION, verify=True), cancelled=lambda: True)
    assert verifier.calls == []
