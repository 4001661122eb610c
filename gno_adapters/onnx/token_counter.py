"""``TokenCounter`` over the bundled WordPiece vocabulary (all-MiniLM-L6-v2's ``vocab.txt``):
the token counts a capsule budget is checked with, without any model runtime."""

from __future__ import annotations

import hashlib
from pathlib import Path

from gno_adapters.onnx.wordpiece import WordPieceTokenizer

VOCAB = Path(__file__).resolve().parent / "minilm_l6" / "vocab.txt"
#: The tokenizer's rules (BERT uncased WordPiece as ``wordpiece.py`` implements it); bumped when
#: they change, so a capsule budgeted with the old count shows fingerprint drift.
RULES_VERSION = "bert-uncased-wordpiece-1"


class WordPieceTokenCounter:
    """Counts WordPiece tokens of any length of text (no truncation, no [CLS]/[SEP])."""

    def __init__(self, vocab: Path = VOCAB) -> None:
        raw = vocab.read_bytes()
        self._tokenizer = WordPieceTokenizer(raw.decode("utf-8").splitlines())
        digest = hashlib.sha256(raw).hexdigest()[:16]
        self._fingerprint = f"{RULES_VERSION}:{digest}"

    @property
    def fingerprint(self) -> str:
        return self._fingerprint

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text)) - 2
