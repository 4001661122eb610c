"""``OnnxNliVerifier``: the ``ClaimVerifier`` port over a local ONNX NLI cross-encoder (three
logits per pair: entailment, neutral, contradiction), pulled with ``gno models pull nli``.

Each claim is read against each passage it cites as one pair: the premise is the passage (for
a long passage, the window of ``WINDOW_CHARS`` around the quoted claim, whitespace folded),
the hypothesis is the claim stated as the answer to the question
(``The answer to "<question>" is: <claim>``), so a true sentence that does not answer the
question is not entailed. The softmax of the logits gives the class probabilities; a claim is
``supported`` when some passage entails it with probability >= ``threshold`` (those passages are
its evidence), else ``contradicted`` when some passage contradicts it at that level, else
``not_supported``. Which logit is which class comes from ``config.json``'s ``id2label`` when
present, else the cross-encoder NLI order (contradiction, entailment, neutral).

Cancellation and the caller's time limit are checked between batches (``CANCELLED``;
``RUNTIME`` with ``details.reason: timeout``). Nothing loads before the first ``verify``.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from gno_adapters.onnx.pairs import encode_pairs, open_pair_model, pair_logits
from gno_adapters.onnx.session import OnnxModel
from gno_core.errors import CancelledError, ModelUnavailableError, RuntimeFailure
from gno_core.model_registry import ModelFormat, ModelLocation
from gno_core.ports.verifier import ClaimVerdict, VerificationRequest

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Encoding, Tokenizer

DEFAULT_THRESHOLD = 0.6
WINDOW_CHARS = 1500
MAX_QUESTION_CHARS = 500
#: The class order of the cross-encoder NLI models when ``config.json`` does not say.
DEFAULT_LABELS = ("contradiction", "entailment", "neutral")


def hypothesis(question: str, claim: str) -> str:
    return f'The answer to "{question[:MAX_QUESTION_CHARS]}" is: {claim}'


def premise(passage: str, claim: str) -> str:
    """The passage, or for a long one the window around the claim's quote in it."""
    text = " ".join(passage.split())
    if len(text) <= WINDOW_CHARS:
        return text
    at = text.casefold().find(" ".join(claim.split()).casefold())
    centre = len(text) // 2 if at < 0 else at + len(claim) // 2
    start = max(0, min(centre - WINDOW_CHARS // 2, len(text) - WINDOW_CHARS))
    return text[start : start + WINDOW_CHARS]


class OnnxNliVerifier(OnnxModel):
    def __init__(
        self,
        model: ModelLocation,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        batch_size: int = 8,
        threads: int = 2,
    ) -> None:
        if model.format is not ModelFormat.ONNX_CROSS_ENCODER:
            raise ValueError(f"{model.name} is not an ONNX cross-encoder ({model.format.value})")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold must be in [0, 1]")
        self._model = model
        self._threshold = threshold
        self._batch_size = max(1, batch_size)
        self._threads = max(1, threads)
        self._lock = threading.Lock()
        self._tokenizer: Tokenizer | None = None
        self._session: onnxruntime.InferenceSession | None = None
        self._inputs: tuple[str, ...] = ()
        self._classes: dict[str, int] = {}

    @property
    def verifier_id(self) -> str:
        return f"nli:{self._model.model_id}@{self._threshold:g}"

    def load(self) -> None:
        """Load the tokenizer, the session and the class order now (``MODEL_UNAVAILABLE``)."""
        with self._lock:
            if self._session is None:
                self._classes = _classes(self._model)
                self._tokenizer, self._session = open_pair_model(
                    self._model, self._threads, "nli", "only_first"
                )
                self._inputs = tuple(i.name for i in self._session.get_inputs())

    def verify(self, request: VerificationRequest) -> list[ClaimVerdict]:
        if not request.claims:
            return []
        deadline = time.monotonic() + request.timeout_seconds
        self._check(request, deadline)
        self.load()
        pairs: list[tuple[int, str, str, str]] = []  # (claim index, evidence id, premise, hyp)
        for claim in request.claims:
            hyp = hypothesis(request.question, claim.text)
            pairs += [
                (claim.index, p.evidence_id, premise(p.text, claim.text), hyp)
                for p in claim.evidence
            ]
        probs = self._probabilities([(p[2], p[3]) for p in pairs], request, deadline)
        by_claim: dict[int, list[tuple[str, float, float]]] = {}
        entail, contra = self._classes["entailment"], self._classes["contradiction"]
        for (index, eid, _, _), row in zip(pairs, probs, strict=True):
            by_claim.setdefault(index, []).append((eid, float(row[entail]), float(row[contra])))
        return [self._verdict(c.index, by_claim.get(c.index, [])) for c in request.claims]

    def _verdict(self, index: int, scored: list[tuple[str, float, float]]) -> ClaimVerdict:
        if not scored:
            return ClaimVerdict(index, "not_supported", "the claim cites no passage")
        t = self._threshold
        best_e = max(s[1] for s in scored)
        best_c = max(s[2] for s in scored)
        if best_e >= t:
            ids = tuple(eid for eid, e, _ in scored if e >= t)
            why = f"entailed with probability {best_e:.2f} (threshold {t:g})"
            return ClaimVerdict(index, "supported", why, ids, best_e)
        if best_c >= t:
            ids = tuple(eid for eid, _, c in scored if c >= t)
            why = f"contradicted with probability {best_c:.2f} (threshold {t:g})"
            return ClaimVerdict(index, "contradicted", why, ids, best_c)
        why = f"not entailed (best entailment {best_e:.2f}, contradiction {best_c:.2f}; threshold {t:g})"
        return ClaimVerdict(index, "not_supported", why, (), 1.0 - best_e)

    def _probabilities(
        self, pairs: list[tuple[str, str]], request: VerificationRequest, deadline: float
    ) -> np.ndarray:
        tokenizer, session = self._tokenizer, self._session
        assert tokenizer is not None and session is not None
        encodings = encode_pairs(tokenizer, pairs, self._model.max_tokens, "only_first")
        out = np.zeros((len(pairs), len(self._classes)), dtype=np.float64)
        order = sorted(range(len(pairs)), key=lambda i: (len(encodings[i].ids), i))
        for start in range(0, len(order), self._batch_size):
            self._check(request, deadline)
            members = order[start : start + self._batch_size]
            batch: list[Encoding] = [encodings[i] for i in members]
            logits = pair_logits(session, self._inputs, batch, self._model.model_id, "nli")
            if logits.shape[1] != len(self._classes):
                raise ModelUnavailableError(
                    f"{self._model.name} gives {logits.shape[1]} logits per pair, not the "
                    f"{len(self._classes)} NLI classes",
                    details={"model": self._model.model_id, "reason": "not_nli"},
                )
            shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
            out[members] = shifted / shifted.sum(axis=1, keepdims=True)
        return out

    def _check(self, request: VerificationRequest, deadline: float) -> None:
        if request.cancelled is not None and request.cancelled():
            raise CancelledError("claim verification was cancelled")
        if time.monotonic() > deadline:
            raise RuntimeFailure(
                f"NLI verification took longer than {request.timeout_seconds:g} s",
                details={"reason": "timeout", "timeoutSeconds": request.timeout_seconds},
            )


def _classes(model: ModelLocation) -> dict[str, int]:
    """Class name -> logit position, from ``config.json``'s ``id2label`` when it names the
    three NLI classes."""
    labels = list(DEFAULT_LABELS)
    if model.config is not None and Path(model.config).is_file():
        try:
            raw = json.loads(Path(model.config).read_text(encoding="utf-8")).get("id2label")
        except (OSError, ValueError, AttributeError) as exc:
            raise ModelUnavailableError(
                f"cannot read {model.config}: {exc}",
                details={"model": model.model_id, "reason": "bad_config"},
            ) from exc
        if isinstance(raw, dict) and raw:
            try:
                named = {int(k): str(v).strip().lower() for k, v in raw.items()}
            except ValueError:
                named = {}
            if sorted(named) == list(range(len(named))):
                labels = [named[i] for i in range(len(named))]
    classes = {name: i for i, name in enumerate(labels)}
    if not {"entailment", "contradiction"} <= classes.keys():
        raise ModelUnavailableError(
            f"{model.name} does not name entailment and contradiction classes ({labels})",
            details={"model": model.model_id, "reason": "not_nli"},
        )
    return classes
