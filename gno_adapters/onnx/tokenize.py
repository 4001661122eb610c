"""The tokenizer of a model: gno's own WordPiece for a ``vocab.txt``, Hugging Face ``tokenizers``
for a ``tokenizer.json`` (an optional dependency: ``pip install "gno[tokenizers]"``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from gno_core.errors import ModelUnavailableError


class TextTokenizer(Protocol):
    """Token ids with the model's special tokens, truncated to its window, unpadded."""

    def encode(self, text: str) -> list[int]: ...

    def encode_batch(self, texts: Sequence[str]) -> list[list[int]]: ...


class _HfTokenizer:
    def __init__(self, tokenizer: Any) -> None:
        self._tokenizer = tokenizer

    def encode(self, text: str) -> list[int]:
        return list(self._tokenizer.encode(text).ids)

    def encode_batch(self, texts: Sequence[str]) -> list[list[int]]:
        return [list(e.ids) for e in self._tokenizer.encode_batch(list(texts))]


def missing_tokenizers(model_id: str, exc: ImportError) -> ModelUnavailableError:
    """The error for a ``tokenizer.json`` model when ``tokenizers`` is not installed."""
    return ModelUnavailableError(
        f"model {model_id!r} needs the Python package 'tokenizers' to read its tokenizer.json; "
        f'install it with `pip install "gno[tokenizers]"` ({exc})',
        details={"model": model_id, "reason": "missing_runtime", "package": "tokenizers"},
    )


def load_tokenizer(path: str, max_tokens: int, *, model_id: str) -> TextTokenizer:
    """The tokenizer in ``path`` truncating at ``max_tokens``.

    Raises ``MODEL_UNAVAILABLE`` (``bad_tokenizer``, ``missing_runtime``) when it cannot load.
    """
    try:
        if path.endswith(".txt"):
            from gno_adapters.onnx.wordpiece import WordPieceTokenizer

            return WordPieceTokenizer.from_file(Path(path), max_length=max_tokens)
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise missing_tokenizers(model_id, exc) from exc
        tokenizer = Tokenizer.from_file(path)
    except ModelUnavailableError:
        raise
    except Exception as exc:
        raise ModelUnavailableError(
            f"cannot read tokenizer {path}: {exc}",
            details={"model": model_id, "reason": "bad_tokenizer"},
        ) from exc
    # tokenizer.json files exported for sentence-transformers pin truncation (often at 128)
    # and padding; we truncate at the model's real window and pad ourselves.
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_tokens)
    return _HfTokenizer(tokenizer)
