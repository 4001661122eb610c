"""``OnnxReranker``: the ``Reranker`` port over an ONNX BERT cross-encoder (onnxruntime).

Each (query, passage) pair is encoded as one BERT pair (``[CLS] query [SEP] passage [SEP]``,
token types 0 then 1), truncated from the passage to the model's window, run in small batches
padded to their longest member, and the model's logit becomes a score through the sigmoid (a
two-logit head gives the softmax probability of its second class). Nothing loads before the
first ``score``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from gno_adapters.onnx.pairs import encode_pairs, open_pair_model, pair_logits
from gno_adapters.onnx.session import OnnxModel
from gno_core.model_registry import ModelFormat, ModelLocation

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Encoding, Tokenizer

#: Queries longer than this are cut before encoding so the passage always keeps room.
MAX_QUERY_CHARS = 1000


class OnnxReranker(OnnxModel):
    """Cross-encoder relevance scores in [0, 1]."""

    def __init__(self, model: ModelLocation, *, batch_size: int = 16, threads: int = 2) -> None:
        if model.format is not ModelFormat.ONNX_CROSS_ENCODER:
            raise ValueError(f"{model.name} is not an ONNX cross-encoder ({model.format.value})")
        self._model = model
        self._batch_size = max(1, batch_size)
        self._threads = max(1, threads)
        self._lock = threading.Lock()
        self._tokenizer: Tokenizer | None = None
        self._session: onnxruntime.InferenceSession | None = None
        self._inputs: tuple[str, ...] = ()

    @property
    def model_id(self) -> str:
        return self._model.model_id

    def load(self) -> None:
        """Load the tokenizer and the session now; raises ``MODEL_UNAVAILABLE`` on failure."""
        with self._lock:
            if self._session is None:
                self._tokenizer, self._session = open_pair_model(
                    self._model, self._threads, "rerank", "only_second"
                )
                self._inputs = tuple(i.name for i in self._session.get_inputs())

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        self.load()
        tokenizer, session = self._tokenizer, self._session
        assert tokenizer is not None and session is not None
        pairs = [(query[:MAX_QUERY_CHARS], p) for p in passages]
        encodings = encode_pairs(tokenizer, pairs, self._model.max_tokens, "only_second")
        order = sorted(range(len(pairs)), key=lambda i: (len(encodings[i].ids), i))
        scores = [0.0] * len(pairs)
        for start in range(0, len(order), self._batch_size):
            members = order[start : start + self._batch_size]
            logits = self._run(session, [encodings[i] for i in members])
            for i, value in zip(members, logits, strict=True):
                scores[i] = value
        return scores

    def _run(self, session: onnxruntime.InferenceSession, batch: list[Encoding]) -> list[float]:
        logits = pair_logits(session, self._inputs, batch, self.model_id, "rerank")
        if logits.shape[1] == 1:
            return [_sigmoid(float(x)) for x in logits[:, 0]]
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        return [float(x) for x in shifted[:, -1] / shifted.sum(axis=1)]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)
