"""What the ONNX cross-encoders (the reranker and the NLI verifier) share: opening the
tokenizer and session of a pair model, encoding text pairs, and the logits of one batch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from gno_adapters.onnx.session import cpu_session, require_files
from gno_core.errors import ModelUnavailableError, RuntimeFailure
from gno_core.model_registry import ModelLocation

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Encoding, Tokenizer

#: Which side of a pair gives way when it overflows the model's window.
Truncation = Literal["only_first", "only_second"]


def open_pair_model(
    model: ModelLocation, threads: int, role: str, truncation: Truncation
) -> tuple[Tokenizer, onnxruntime.InferenceSession]:
    """The tokenizer (no padding, cut by ``truncation``) and CPU session of ``model``;
    ``MODEL_UNAVAILABLE`` when a file is missing or cannot be read."""
    require_files(model, role)
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        from gno_adapters.onnx.tokenize import missing_tokenizers

        raise missing_tokenizers(model.model_id, exc) from exc
    try:
        tokenizer = Tokenizer.from_file(model.tokenizer)
        tokenizer.no_padding()
        tokenizer.enable_truncation(model.max_tokens, strategy=truncation)
    except Exception as exc:
        raise ModelUnavailableError(
            f"cannot read tokenizer {model.tokenizer}: {exc}",
            details={"model": model.model_id, "reason": "bad_tokenizer"},
        ) from exc
    try:
        session = cpu_session(model.weights, threads)
    except Exception as exc:
        raise ModelUnavailableError(
            f"cannot load {role} model {model.name!r}: {exc}",
            details={"model": model.model_id, "reason": "load_failed"},
        ) from exc
    return tokenizer, session


def encode_pairs(
    tokenizer: Tokenizer, pairs: list[tuple[str, str]], max_tokens: int, truncation: Truncation
) -> list[Encoding]:
    """The encodings of ``pairs``; when the side that should not give way overflows the
    window alone, the batch is encoded again cutting whichever side is longer."""
    try:
        return tokenizer.encode_batch(pairs)
    except Exception:
        tokenizer.enable_truncation(max_tokens, strategy="longest_first")
        try:
            return tokenizer.encode_batch(pairs)
        finally:
            tokenizer.enable_truncation(max_tokens, strategy=truncation)


def pair_logits(
    session: onnxruntime.InferenceSession,
    inputs: tuple[str, ...],
    batch: list[Encoding],
    model_id: str,
    what: str,
) -> npt.NDArray[np.float64]:
    """The model's logits ``[len(batch), classes]`` for encoded text pairs, padded to the
    longest; only the inputs the graph declares are fed. ``RUNTIME`` when inference fails."""
    width = max(len(e.ids) for e in batch)
    ids = np.zeros((len(batch), width), dtype=np.int64)
    types = np.zeros_like(ids)
    mask = np.zeros_like(ids)
    for row, enc in enumerate(batch):
        n = len(enc.ids)
        ids[row, :n] = enc.ids
        types[row, :n] = enc.type_ids
        mask[row, :n] = 1
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
    feeds = {k: v for k, v in feeds.items() if k in inputs}
    try:
        out: npt.NDArray[Any] = session.run(None, feeds)[0]
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise RuntimeFailure(
            f"{what} inference failed: {exc}",
            details={"model": model_id, "reason": "inference"},
        ) from exc
    return np.asarray(out, dtype=np.float64).reshape(len(batch), -1)
