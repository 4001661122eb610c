"""BERT's uncased WordPiece tokenizer over a ``vocab.txt``, in plain Python.

It gives the same ids as the Hugging Face ``tokenizers`` BERT pipeline (BertNormalizer with
clean_text, Chinese-character spacing, accent stripping and lowercasing; BertPreTokenizer;
WordPiece with ``##`` continuations; ``[CLS] ... [SEP]``; truncation counting the two special
tokens), which ``tests/unit/test_wordpiece.py`` checks on real corpora. Owning these ~150 lines
keeps ``tokenizers`` and the nine packages it pulls in (about 40 MB) out of a default install.
The steps follow that pipeline's order: accents are stripped before lowercasing, lowercasing
maps one character at a time (no final-sigma rule), whitespace is Unicode ``White_Space``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

_SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
_SPECIAL_RE = re.compile("(" + "|".join(re.escape(s) for s in _SPECIAL) + ")")
#: Unicode White_Space (what the reference pipeline splits on), as a set of code points.
_WHITE_SPACE = frozenset(
    (*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029)
) | {0x202F, 0x205F, 0x3000}
_CJK = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
_MAX_WORD_CHARS = 100
#: What each character normalizes to, filled as characters are met: punctuation and CJK come
#: back with spaces around them and White_Space as one space, so the pipeline becomes one
#: ``str.translate`` and one ``str.split`` (str.split's whitespace covers everything left).
_CHAR_MAP: dict[int, str] = {}
#: Characters whose decomposition keeps a non-spacing-stripped mark with a combining class:
#: NFD may reorder those across characters, so texts holding them take the exact slow path.
_REORDERED: set[int] = set()


def _is_cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _CJK)


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True  # ASCII symbols such as $ + < = > ^ ` | ~ count as punctuation too
    return unicodedata.category(ch).startswith("P")


class WordPieceTokenizer:
    """Token ids for texts, ``[CLS] ... [SEP]``, at most ``max_length`` ids (0: no limit)."""

    def __init__(self, vocab: Sequence[str], *, max_length: int = 0) -> None:
        self._ids = {token: i for i, token in enumerate(vocab)}
        for token in ("[UNK]", "[CLS]", "[SEP]"):
            if token not in self._ids:
                raise ValueError(f"vocabulary has no {token}")
        self._unk = self._ids["[UNK]"]
        self._cls = self._ids["[CLS]"]
        self._sep = self._ids["[SEP]"]
        self._max_length = max_length
        self._words: dict[str, tuple[int, ...]] = {}

    @classmethod
    def from_file(cls, path: Path, *, max_length: int = 0) -> WordPieceTokenizer:
        """A tokenizer over a ``vocab.txt`` (one token per line, the line number is its id)."""
        text = path.read_text(encoding="utf-8")
        return cls(
            text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"),
            max_length=max_length,
        )

    def encode(self, text: str) -> list[int]:
        ids: list[int] = []
        if "[" in text:
            for i, part in enumerate(_SPECIAL_RE.split(text)):
                if i % 2:
                    ids.append(self._ids.get(part, self._unk))
                elif part:
                    self._encode_plain(part, ids)
        else:
            self._encode_plain(text, ids)
        if self._max_length and len(ids) > self._max_length - 2:
            del ids[max(0, self._max_length - 2) :]
        return [self._cls, *ids, self._sep]

    def encode_batch(self, texts: Sequence[str]) -> list[list[int]]:
        return [self.encode(t) for t in texts]

    def _encode_plain(self, text: str, out: list[int]) -> None:
        words = self._pre_tokenize(text)
        cache = self._words
        for word in words:
            pieces = cache.get(word)
            if pieces is None:
                pieces = self._word_pieces(word)
                if len(cache) < 200_000:  # bounded: a long-running server sees endless words
                    cache[word] = pieces
            out.extend(pieces)

    @staticmethod
    def _pre_tokenize(text: str) -> list[str]:
        table = _CHAR_MAP
        for ch in set(text):
            if ord(ch) not in table:
                table[ord(ch)] = _normalize_char(ch)
        if _REORDERED and not _REORDERED.isdisjoint(map(ord, text)):
            return _pre_tokenize_exact(text)
        return text.translate(table).split()

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > _MAX_WORD_CHARS:
            return (self._unk,)
        ids = self._ids
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = ids.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self._unk,)
            pieces.append(found)
            start = end
        return tuple(pieces)


def _clean(ch: str) -> str:
    """BertNormalizer's clean_text and Chinese-character steps for one character."""
    cp = ord(ch)
    if ch in "\t\n\r" or (cp in _WHITE_SPACE and unicodedata.category(ch) != "Cc"):
        return " "
    if cp in (0, 0xFFFD) or unicodedata.category(ch).startswith("C"):
        return ""
    return f" {ch} " if _is_cjk(cp) else ch


def _strip_and_lower(text: str) -> str:
    # Lowercasing one character at a time: str.lower() on a whole word would apply the
    # final-sigma rule, which the reference pipeline does not.
    return "".join(c.lower() for c in text if unicodedata.category(c) != "Mn")


def _normalize_char(ch: str) -> str:
    cleaned = _clean(ch)
    if len(cleaned) != 1:
        return cleaned
    decomposed = unicodedata.normalize("NFD", cleaned)
    if any(unicodedata.combining(c) and unicodedata.category(c) != "Mn" for c in decomposed):
        _REORDERED.add(ord(ch))
    out = _strip_and_lower(decomposed)
    return "".join(f" {c} " if _is_punctuation(c) else c for c in out)


def _pre_tokenize_exact(text: str) -> list[str]:
    """The pipeline on the whole text at once (canonical reordering included)."""
    normal = _strip_and_lower(unicodedata.normalize("NFD", "".join(map(_clean, text))))
    words: list[str] = []
    current: list[str] = []
    for ch in normal:
        if ord(ch) in _WHITE_SPACE:
            if current:
                words.append("".join(current))
                current = []
        elif _is_punctuation(ch):
            if current:
                words.append("".join(current))
                current = []
            words.append(ch)
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return words
