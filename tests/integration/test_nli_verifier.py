"""The local ONNX NLI claim verifier on a tiny random-weight NLI cross-encoder built on the fly
(three logits per pair): its verdicts follow the model's class probabilities and the threshold,
the class order comes from ``config.json``, a model that is not NLI is refused, cancellation is
typed; ``gno`` picks it up once it is on disk (status says Ask can answer, Ask uses it), and a
pull that cannot reach the network is a typed error."""

from __future__ import annotations

from pathlib import Path

import httpx
import numpy as np
import onnxruntime
import pytest
from tokenizers import Tokenizer

from gno_adapters.model_files import ModelStore
from gno_adapters.onnx.nli import OnnxNliVerifier, hypothesis, premise
from gno_core.errors import CancelledError, ModelUnavailableError
from gno_core.model_registry import DEFAULT_REGISTRY, ModelRole
from gno_core.ports import ClaimToVerify, EvidencePassage, VerificationRequest
from tests.integration.cli_helpers import Cli
from tests.rerank_support import write_cross_encoder, write_nli

QUESTION = "what does the study trial say about bone density"
A = EvidencePassage("a" * 64, "gno://n/a.md", 1, 1, "vitamin bone density calcium study")
B = EvidencePassage("b" * 64, "gno://n/b.md", 2, 2, "cats purr and hunt mice in the kitchen")
CLAIM = ClaimToVerify(1, "calcium study", (A, B))


def probabilities(model_dir: Path, premise_text: str, hyp: str) -> np.ndarray:
    """Softmax of the model's logits for one pair, computed here without gno's adapter."""
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    enc = tok.encode(premise_text, hyp)
    session = onnxruntime.InferenceSession(str(model_dir / "model.onnx"))
    feeds = {
        "input_ids": np.array([enc.ids], np.int64),
        "attention_mask": np.ones((1, len(enc.ids)), np.int64),
        "token_type_ids": np.array([enc.type_ids], np.int64),
    }
    logits = session.run(None, feeds)[0][0].astype(np.float64)
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


def verifier(model_dir: Path, tmp_path: Path, threshold: float, **kw: int) -> OnnxNliVerifier:
    location = ModelStore(tmp_path / "models").resolve(ModelRole.NLI, str(model_dir))
    return OnnxNliVerifier(location, threshold=threshold, **kw)


@pytest.mark.parametrize(
    "labels",
    [("contradiction", "entailment", "neutral"), ("entailment", "neutral", "contradiction")],
)
def test_verdicts_follow_the_class_probabilities_and_the_threshold(
    tmp_path: Path, labels: tuple[str, ...]
) -> None:
    model_dir = write_nli(tmp_path / "nli", labels)
    hyp = hypothesis(QUESTION, CLAIM.text)
    probs = [probabilities(model_dir, premise(p.text, CLAIM.text), hyp) for p in CLAIM.evidence]
    entail = [float(p[labels.index("entailment")]) for p in probs]
    contra = [float(p[labels.index("contradiction")]) for p in probs]
    request = VerificationRequest(QUESTION, (CLAIM,))

    just_below = min(1.0, max(entail) - 1e-6)
    (v,) = verifier(model_dir, tmp_path, just_below).verify(request)
    assert v.verdict == "supported" and v.confidence == pytest.approx(max(entail), abs=1e-5)
    best = CLAIM.evidence[int(np.argmax(entail))].evidence_id
    assert best in v.evidence_ids
    assert set(v.evidence_ids) == {
        p.evidence_id for p, e in zip(CLAIM.evidence, entail, strict=True) if e >= just_below
    }

    above_all = max(*entail, *contra) + 1e-6
    (none,) = verifier(model_dir, tmp_path, min(1.0, above_all)).verify(request)
    assert none.verdict == "not_supported" and none.evidence_ids == ()

    if max(contra) > max(entail):
        (c,) = verifier(model_dir, tmp_path, max(contra) - 1e-6).verify(request)
        assert c.verdict == "contradicted"


def test_threshold_zero_supports_every_cited_claim_and_one_supports_none(tmp_path: Path) -> None:
    model_dir = write_nli(tmp_path / "nli")
    claims = (CLAIM, ClaimToVerify(2, "cats purr", (B,)), ClaimToVerify(3, "nothing cited", ()))
    request = VerificationRequest(QUESTION, claims)
    assert [v.verdict for v in verifier(model_dir, tmp_path, 0.0).verify(request)] == [
        "supported",
        "supported",
        "not_supported",
    ]
    assert {v.verdict for v in verifier(model_dir, tmp_path, 1.0).verify(request)} == {
        "not_supported"
    }


def test_a_model_that_is_not_nli_is_refused(tmp_path: Path) -> None:
    rerank_dir = write_cross_encoder(tmp_path / "rerank")  # one logit, no config
    with pytest.raises(ModelUnavailableError) as info:
        verifier(rerank_dir, tmp_path, 0.5).verify(VerificationRequest(QUESTION, (CLAIM,)))
    assert info.value.details["reason"] == "not_nli"
    odd = write_nli(tmp_path / "odd", ("yes", "no", "maybe"))
    with pytest.raises(ModelUnavailableError) as info:
        verifier(odd, tmp_path, 0.5).verify(VerificationRequest(QUESTION, (CLAIM,)))
    assert info.value.details["reason"] == "not_nli"


def test_cancellation_between_batches_is_typed(tmp_path: Path) -> None:
    model_dir = write_nli(tmp_path / "nli")
    calls = iter([False, False, True, True, True])
    request = VerificationRequest(QUESTION, (CLAIM,), cancelled=lambda: next(calls))
    with pytest.raises(CancelledError):
        verifier(model_dir, tmp_path, 0.5, batch_size=1).verify(request)


def test_a_long_passage_is_read_around_the_quoted_claim() -> None:
    text = "filler words here. " * 400 + "Alice owns the launch decision. " + "tail. " * 50
    window = premise(text, "Alice owns the launch decision")
    assert "Alice owns the launch decision" in window and len(window) <= 1500


def test_the_registry_names_a_real_nli_model_and_a_pull_without_network_is_typed(
    tmp_path: Path,
) -> None:
    spec = DEFAULT_REGISTRY.default(ModelRole.NLI)
    assert spec is not None and spec.model_id == "cross-encoder/nli-deberta-v3-xsmall"
    assert all(f.url and f.url.startswith("https://huggingface.co/") for f in spec.files)

    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("no route to host", request=request)

    store = ModelStore(
        tmp_path / "models",
        client_factory=lambda: httpx.Client(transport=httpx.MockTransport(unreachable)),
    )
    with pytest.raises(ModelUnavailableError):
        store.pull(ModelRole.NLI)
    with pytest.raises(ModelUnavailableError):
        ModelStore(tmp_path / "models", offline=True).pull(ModelRole.NLI)


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    for name in ("GNO_ASK_ENDPOINT", "GNO_ASK_VERIFIER", "GNO_NLI_MODEL", "GNO_NLI_THRESHOLD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")
    monkeypatch.setenv("GNO_OFFLINE", "1")
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_gno_uses_the_nli_model_once_it_is_there(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "study.md").write_text(
        "# Study\n\nThe trial study found calcium raises bone density in patients.\n",
        encoding="utf-8",
    )
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    assert cli.ok("status", "--json").json()["capabilities"]["answer"] is False
    listing = cli.ok("models", "list", "--role", "nli", "--json").json()
    assert [m["role"] for m in listing["models"]] == ["nli"]
    model_dir = write_nli(tmp_path / "nli")
    monkeypatch.setenv("GNO_NLI_MODEL", str(model_dir))
    monkeypatch.setenv("GNO_NLI_THRESHOLD", "0")
    assert cli.ok("status", "--json").json()["capabilities"]["answer"] is True
    answered = cli.ok("ask", "what did the trial study find about calcium", "--json").json()
    assert answered["verification"]["semantic"]["state"] == "used"
    assert answered["verification"]["semantic"]["verifier"].startswith("nli:file:")
    assert answered["answerStatus"] == "answered"
    monkeypatch.setenv("GNO_NLI_THRESHOLD", "1")
    refused = cli.ok("ask", "what did the trial study find about calcium", "--json").json()
    assert refused["answerStatus"] == "abstained"
    assert refused["verification"]["claims"]["coverage"]["supported"] == 0
