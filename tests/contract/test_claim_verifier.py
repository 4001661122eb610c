"""ClaimVerifier contract, run against every adapter: the scripted in-memory fake, the
OpenAI-compatible chat verifier (over a loopback fake endpoint) and the ONNX NLI cross-encoder
(a tiny random-weight model built on the fly)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from gno_adapters.generation.openai_verifier import OpenAiChatVerifier
from gno_adapters.inmemory.verifier import ScriptedVerifier
from gno_adapters.model_files import ModelStore
from gno_adapters.onnx.nli import OnnxNliVerifier
from gno_core.errors import CancelledError
from gno_core.model_registry import ModelRole
from gno_core.ports import ClaimToVerify, ClaimVerifier, EvidencePassage, VerificationRequest
from gno_core.ports.verifier import VERDICTS
from tests.chat_support import FakeChat
from tests.rerank_support import write_nli

A = EvidencePassage("a" * 64, "gno://n/a.md", 1, 3, "# A\n\nAlice owns the launch decision.\n")
B = EvidencePassage("b" * 64, "gno://n/b.md", 4, 4, "Bob reviews the launch plan in March.")
CLAIMS = (
    ClaimToVerify(1, "Alice owns the launch decision", (A,)),
    ClaimToVerify(2, "Bob reviews the launch plan in March", (A, B)),
    ClaimToVerify(5, "cats purr " * 300, (B,)),
)


@pytest.fixture(scope="module")
def chat() -> Iterator[FakeChat]:
    fake = FakeChat()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def onnx_nli(tmp_path_factory: pytest.TempPathFactory) -> OnnxNliVerifier:
    model_dir = write_nli(tmp_path_factory.mktemp("nli"))
    store = ModelStore(tmp_path_factory.mktemp("models"))
    return OnnxNliVerifier(store.resolve(ModelRole.NLI, str(model_dir)), threshold=0.34)


FACTORIES: dict[str, Callable[[pytest.FixtureRequest], ClaimVerifier]] = {
    "memory": lambda _request: ScriptedVerifier({"Alice owns the launch decision": "supported"}),
    "openai-chat": lambda request: OpenAiChatVerifier(request.getfixturevalue("chat").url, "m"),
    "onnx-nli": lambda request: request.getfixturevalue("onnx_nli"),
}


@pytest.fixture(params=sorted(FACTORIES), ids=sorted(FACTORIES))
def verifier(request: pytest.FixtureRequest) -> ClaimVerifier:
    return FACTORIES[request.param](request)


def test_identity_without_verifying(verifier: ClaimVerifier) -> None:
    assert verifier.verifier_id


def test_empty_input_empty_output(verifier: ClaimVerifier) -> None:
    assert verifier.verify(VerificationRequest("q", ())) == []


def test_one_verdict_per_claim_in_order_from_its_own_passages(verifier: ClaimVerifier) -> None:
    verdicts = verifier.verify(VerificationRequest("Who owns the launch decision?", CLAIMS))
    assert [v.index for v in verdicts] == [c.index for c in CLAIMS]
    for claim, v in zip(CLAIMS, verdicts, strict=True):
        assert v.verdict in VERDICTS
        assert set(v.evidence_ids) <= {p.evidence_id for p in claim.evidence}
        if v.verdict in ("supported", "contradicted"):
            assert v.evidence_ids
        assert v.confidence is None or 0.0 <= v.confidence <= 1.0
        assert isinstance(v.reason, str)


def test_deterministic(verifier: ClaimVerifier) -> None:
    request = VerificationRequest("Who owns the launch decision?", CLAIMS)
    assert verifier.verify(request) == verifier.verify(request)


def test_cancelled_before_start_is_typed(verifier: ClaimVerifier) -> None:
    with pytest.raises(CancelledError):
        verifier.verify(VerificationRequest("q", CLAIMS, cancelled=lambda: True))
