"""Verified Ask: the extractive generator answers with quoted, cited claims; a configured
OpenAI-compatible endpoint (a fake bound to 127.0.0.1 here) drafts answers whose uncited,
unquoted, malformed or stale claims make the answer abstain with the draft withheld."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import build
from gno_adapters.generation.extractive import ExtractiveGenerator
from gno_adapters.generation.openai_chat import OpenAiChatGenerator
from gno_core.contracts.evidence_requests import AskRequest
from gno_core.errors import ModelUnavailableError, RuntimeFailure
from gno_core.evidence.ask import split_claims
from gno_core.ports import GenerationRequest
from tests.evidence.support import evidence_adapters
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

QUESTION = "Who owns the launch decision?"


class FakeChat:
    """An OpenAI-compatible chat endpoint on a free loopback port; ``reply`` builds the
    answer from the user prompt (which lists the evidence ids)."""

    def __init__(self) -> None:
        self.reply: Any = lambda prompt: "nothing"
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, "body": body})
                text = fake.reply(body["messages"][1]["content"])
                if text is None:
                    self.send_response(500)
                    self.end_headers()
                    return
                payload = json.dumps({"choices": [{"message": {"content": text}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


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


def ask_with(generator: Any, question: str = QUESTION) -> dict[str, Any]:
    made = replace(evidence_adapters(), generator=generator)
    with build(made) as gno:
        result: dict[str, Any] = gno.ask(AskRequest(query=question, verify=True)).wire()
    assert_valid("ask", result)
    return result


def test_extractive_answer_is_quoted_and_cited() -> None:
    result = ask_with(ExtractiveGenerator())
    assert result["answerStatus"] == "answered"
    assert "Alice owns the launch decision for 2026" in result["answer"]
    claims = result["verification"]["claims"]["claims"]
    assert claims and all(c["status"] == "supported" for c in claims)
    assert result["citations"][0]["uri"] == "gno://notes/launch.md"
    assert result["verification"]["freshness"]["status"] == "fresh"


def test_extractive_abstains_without_evidence() -> None:
    result = ask_with(ExtractiveGenerator(), "zebra quantum chromodynamics")
    assert result["answerStatus"] == "abstained"
    assert result["abstention"]["reason"] in ("no_evidence", "no_claims")
    assert "answer" not in result


def test_one_uncited_claim_withholds_the_generated_draft(chat: FakeChat) -> None:
    def reply(prompt: str) -> str:
        eid = ids_in(prompt)[0]
        return f"Alice owns the launch decision for 2026 [evidence:{eid}]. Bob is the real owner."

    chat.reply = reply
    result = ask_with(OpenAiChatGenerator(chat.url, "fake-model"))
    assert result["answerStatus"] == "abstained"
    assert result["abstention"]["reason"] == "unsupported_claims"
    assert "answer" not in result and "Bob is the real owner" not in json.dumps(result["citations"])
    statuses = [c["status"] for c in result["verification"]["claims"]["claims"]]
    assert statuses == ["supported", "insufficient"]
    sent = chat.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["body"]["model"] == "fake-model" and sent["body"]["temperature"] == 0
    assert "untrusted data" in sent["body"]["messages"][0]["content"]


def test_a_fully_quoted_generated_answer_is_answered_and_numeric_citations_map(
    chat: FakeChat,
) -> None:
    chat.reply = lambda prompt: "Alice owns the launch decision for 2026 [1]."
    result = ask_with(OpenAiChatGenerator(chat.url, "m"))
    assert result["answerStatus"] == "answered"
    assert result["meta"]["generator"] == "openai-compatible:m"


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


def test_a_paraphrase_stays_uncertain_and_abstains(chat: FakeChat) -> None:
    chat.reply = lambda prompt: f"Alice decides about the launch [evidence:{ids_in(prompt)[0]}]."
    result = ask_with(OpenAiChatGenerator(chat.url, "m"))
    assert result["verification"]["claims"]["claims"][0]["status"] == "uncertain"
    assert result["answerStatus"] == "abstained"


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

    with build(replace(made, generator=EditingGenerator())) as gno:
        result = gno.ask(AskRequest(query=QUESTION, verify=True)).wire()
    claim = result["verification"]["claims"]["claims"][0]
    assert claim["citations"][0]["reason"] == "evidence_stale"
    assert result["answerStatus"] == "abstained"


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
    made = evidence_adapters()
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
    assert_valid("ask", result["structuredContent"])
    assert result["content"][0]["text"].startswith("Answer status: answered")


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_cli_ask_offline_and_with_a_configured_endpoint(
    cli: Cli, tmp_path: Path, chat: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "launch.md").write_text(
        "# Launch\n\nAlice owns the launch decision for 2026.\n", encoding="utf-8"
    )
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    offline = cli.ok("ask", QUESTION)
    assert offline.out.startswith("Answer status: answered")
    assert "Alice owns the launch decision for 2026 [evidence:" in offline.out
    chat.reply = lambda prompt: f"Alice owns it [evidence:{ids_in(prompt)[0]}]. Nobody else does."
    monkeypatch.setenv("GNO_ASK_ENDPOINT", chat.url)
    generated = cli.ok("ask", QUESTION, "--json").json()
    assert generated["answerStatus"] == "abstained" and "answer" not in generated
    assert generated["meta"]["generator"] == "openai-compatible:default"
