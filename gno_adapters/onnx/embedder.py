"""``OnnxEmbedder``: the ``Embedder`` port over onnxruntime and a WordPiece tokenizer.

Construction is free: the tokenizer and the session load on the first ``embed_batch`` (or an
explicit ``load()``). Texts are sorted by token count and run in small batches padded to the
longest member (fp32) or one at a time (int8, whose activation scales span the whole input);
token vectors are mean-pooled over the real tokens of each text alone, in float64, then
L2-normalised, so a text's vector does not depend on what else was in its batch (the masked
fused attention leaves padded rows out of every sum; ``tests/contract`` checks the bytes).
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gno_adapters.onnx.session import OnnxModel, cpu_session, require_files
from gno_core.errors import ModelUnavailableError, RuntimeFailure
from gno_core.model_registry import ModelFormat, ModelLocation
from gno_core.ports.embedder import TextProfile, Vector, embedding_fingerprint

if TYPE_CHECKING:  # numpy and onnxruntime load with the model, not with gno
    import numpy.typing as npt
    import onnxruntime

    from gno_adapters.onnx.graph_cache import Precision
    from gno_adapters.onnx.tokenize import TextTokenizer as Tokenizer


#: The session, and the word-embedding table whose rows it takes (gno's built graph only).
_Session = tuple["onnxruntime.InferenceSession", "npt.NDArray[Any] | None"]


class OnnxEmbedder(OnnxModel):
    """Sentence embeddings from a BERT-style encoder: masked mean pooling, L2 normalisation.

    ``precision="int8"`` (the default) runs the graph gno builds from the weights with int8
    weights and per-run activation scales, one text per run: about twice as fast as ``"fp32"``
    at the same retrieval quality (see ``docs/explanation/embedding-model.md``). ``"fp32"`` gives
    the exact reference vectors. The two are different vector spaces (``model_id`` differs).
    Ready-made ONNX files ignore ``precision`` and run one text at a time.
    """

    def __init__(
        self,
        model: ModelLocation,
        *,
        precision: Precision = "int8",
        batch_size: int = 8,
        threads: int = 2,
    ) -> None:
        if model.format is ModelFormat.ONNX_CROSS_ENCODER:
            raise ValueError("a cross-encoder cannot embed; use it as a reranker")
        built = model.format.builds_graph
        self._model = model
        # Precision applies to the graph gno builds; a ready-made ONNX file runs as it is.
        self._precision: Precision = precision if built else "fp32"
        # Only gno's own fp32 graph is known to leave padding out of every sum. Dynamic int8
        # scales activations over the whole input, and a foreign graph may do anything: one
        # text per run keeps each vector independent of its neighbours.
        exact = built and self._precision == "fp32"
        self._batch_size = max(1, batch_size) if exact else 1
        self._threads = max(1, threads)
        self._lock = threading.Lock()
        self._tokenizer: Tokenizer | None = None
        self._session: onnxruntime.InferenceSession | None = None
        self._input_names: tuple[str, ...] = ()
        self._words: npt.NDArray[Any] | None = None  # the built graph's word-embedding table
        self._dimensions = model.dimensions

    @property
    def model_id(self) -> str:
        """The model's id; ``#int8`` marks the quantized variant (another vector space)."""
        base = self._model.model_id
        return base if self._precision == "fp32" else f"{base}#{self._precision}"

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:  # a local model without config.json: ask the model
            self._dimensions = len(self.embed_batch([""])[0])
        return self._dimensions

    @property
    def max_tokens(self) -> int:
        return self._model.max_tokens

    @property
    def profile(self) -> TextProfile:
        return self._model.profile

    @property
    def fingerprint(self) -> str:
        return embedding_fingerprint(
            self.model_id, self.dimensions, self.max_tokens, self.profile.id
        )

    def load(self) -> None:
        """Load the tokenizer and the session now (building the graph on first use).

        Raises ``MODEL_UNAVAILABLE`` when the files are missing or unreadable.
        """
        self._loaded()

    def _loaded(self) -> tuple[Tokenizer, _Session]:
        with self._lock:
            if self._tokenizer is None or self._session is None:
                tokenizer, session, words = self._open()
                self._input_names = tuple(i.name for i in session.get_inputs())
                # onnxruntime allocates its buffers on the first run: pay that here, not in
                # the first query.
                self._run((session, words), [tokenizer.encode("warm up")])
                self._tokenizer, self._session, self._words = tokenizer, session, words
            return self._tokenizer, (self._session, self._words)

    def unload(self) -> None:
        """Drop the session and tokenizer; the next ``embed_batch`` loads them again."""
        with self._lock:
            self._session = None
            self._tokenizer = None
            self._words = None

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        tokenizer, session = self._loaded()
        encodings = tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: (len(encodings[i]), i))
        out: list[Vector | None] = [None] * len(texts)
        for start in range(0, len(order), self._batch_size):
            members = order[start : start + self._batch_size]
            token_ids = [encodings[i] for i in members]
            for i, vector in zip(members, self._run(session, token_ids), strict=True):
                out[i] = vector
        return [v for v in out if v is not None]

    def _run(self, loaded: _Session, token_ids: list[list[int]]) -> list[Vector]:
        import numpy as np

        session, words = loaded
        lengths = [len(ids) for ids in token_ids]
        width = max(lengths)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)
        mask = np.zeros((len(token_ids), width), dtype=np.int64)
        for row, seq in enumerate(token_ids):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            if words is not None:  # the built graph takes its word embeddings gathered
                from gno_adapters.onnx.graph_names import WORDS_INPUT

                feeds[WORDS_INPUT] = np.ascontiguousarray(words[ids])
            hidden: npt.NDArray[Any] = session.run(None, feeds)[0]
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise RuntimeFailure(
                f"embedding inference failed: {exc}", details={"model": self.model_id}
            ) from exc
        vectors = []
        for row, length in enumerate(lengths):
            pooled = (
                hidden[row].astype(np.float64)
                if hidden.ndim == 2
                else hidden[row, :length].astype(np.float64).mean(axis=0)
            )
            norm = float(np.linalg.norm(pooled))
            unit = (pooled / norm if norm > 0 else pooled).astype(np.float32)
            vector = array("f")
            vector.frombytes(unit.tobytes())
            vectors.append(vector)
        return vectors

    def _open(self) -> tuple[Tokenizer, onnxruntime.InferenceSession, npt.NDArray[Any] | None]:
        model = self._model
        require_files(model, "embedding")
        from gno_adapters.onnx.tokenize import load_tokenizer

        tokenizer = load_tokenizer(model.tokenizer, model.max_tokens, model_id=model.model_id)
        words = None
        try:
            source: str | bytes = model.weights
            if model.format.builds_graph:
                if model.config is None:
                    raise ModelUnavailableError(
                        f"embedding model {model.name!r} has no config.json",
                        details={"model": model.model_id, "reason": "missing_file"},
                    )
                from gno_adapters.onnx.graph_cache import bert_graph

                built = bert_graph(
                    Path(model.weights),
                    Path(model.config),
                    Path(model.cache_dir),
                    precision=self._precision,
                )
                source = str(built.model) if isinstance(built.model, Path) else built.model
                words = built.words
            session = cpu_session(source, self._threads)
        except ModelUnavailableError:
            raise
        except Exception as exc:  # ValueError from the builder, onnxruntime's own errors
            raise ModelUnavailableError(
                f"cannot load embedding model {model.name!r}: {exc}",
                details={"model": model.model_id, "reason": "load_failed"},
            ) from exc
        return tokenizer, session, words
