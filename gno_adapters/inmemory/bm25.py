"""Plain-Python keyword matching for the in-memory fake: tokens, phrases and FTS5-style BM25.

It mirrors what the SQLite adapter does with ``porter unicode61 remove_diacritics 2`` over
CJK-segmented text: the same field weights (path 1.5, title 4.0, body 1.0), the same BM25
formula as FTS5's ``bm25()``, the same phrase and prefix semantics. Stemming is Porter's step 1
only (plurals, ``-ed``, ``-ing``, ``-y``); the real adapter runs the full Porter stemmer, so
tests that must agree across adapters stay with those suffixes.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from gno_core.domain import Clause, Phrase
from gno_core.text.cjk import query_units, segment_for_index
from gno_core.text.words import words_of

WEIGHTS = (1.5, 4.0, 1.0)  # path, title, body
K1 = 1.2
B = 0.75
_VOWELS = frozenset("aeiou")


@dataclass(frozen=True, slots=True)
class Unit:
    """One phrase of the compiled query: tokens in order, the last one maybe a prefix."""

    tokens: tuple[str, ...]
    prefix: bool


def _fold(token: str) -> str:
    token = token.lower()
    if token.isascii():
        return token
    decomposed = unicodedata.normalize("NFD", token)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def _is_token_char(ch: str) -> bool:
    if ch.isascii():
        return ch.isalnum()
    cat = unicodedata.category(ch)
    return cat[0] in "LN" or cat == "Co"


def raw_tokens(text: str) -> list[str]:
    """Split like unicode61: letters, digits and private-use characters form tokens."""
    out: list[str] = []
    start = -1
    for i, ch in enumerate(text):
        if _is_token_char(ch):
            if start < 0:
                start = i
        elif start >= 0:
            out.append(_fold(text[start:i]))
            start = -1
    if start >= 0:
        out.append(_fold(text[start:]))
    return out


def _cons(word: str, i: int) -> bool:
    ch = word[i]
    if ch in _VOWELS:
        return False
    if ch == "y":
        return i == 0 or not _cons(word, i - 1)
    return True


def _measure(stem: str) -> int:
    forms = "".join("c" if _cons(stem, i) else "v" for i in range(len(stem)))
    return forms.replace("cc", "c").count("vc") if forms else 0


def _has_vowel(stem: str) -> bool:
    return any(not _cons(stem, i) for i in range(len(stem)))


def _cvc(word: str) -> bool:
    n = len(word)
    return (
        n >= 3
        and _cons(word, n - 3)
        and not _cons(word, n - 2)
        and _cons(word, n - 1)
        and word[-1] not in "wxy"
    )


def stem(token: str) -> str:
    """Porter step 1 (1a, 1b, 1c) on lowercase ASCII words of 3+ letters."""
    if len(token) < 3 or not token.isascii() or not token.isalpha():
        return token
    w = token
    if w.endswith("sses") or w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    else:
        for suffix in ("ed", "ing"):
            if w.endswith(suffix) and _has_vowel(w[: -len(suffix)]):
                w = w[: -len(suffix)]
                if w.endswith(("at", "bl", "iz")):
                    w += "e"
                elif len(w) >= 2 and w[-1] == w[-2] and _cons(w, len(w) - 1) and w[-1] not in "lsz":
                    w = w[:-1]
                elif _measure(w) == 1 and _cvc(w):
                    w += "e"
                break
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    return w


def index_tokens(text: str) -> tuple[str, ...]:
    """The tokens one field contributes to the index."""
    return tuple(stem(t) for t in raw_tokens(segment_for_index(text)))


def compile_clause(clause: Clause) -> Unit | None:
    """The phrase a clause stands for, or None when it has no searchable token."""
    words = clause.words if isinstance(clause, Phrase) else tuple(words_of(clause.text))
    if not words:
        return None
    tokens, cjk_prefix = query_units(" ".join(words))
    folded = tuple(stem(t) for t in raw_tokens(" ".join(tokens)))
    if not folded:
        return None
    # Like FTS5, prefix tokens go through the stemmer too: "runs"* searches "run"*.
    prefix = cjk_prefix or (not isinstance(clause, Phrase) and clause.prefix)
    return Unit(folded, prefix)


def _token_hits(tok: str, want: str, prefix: bool) -> bool:
    return tok.startswith(want) if prefix else tok == want


def phrase_count(field: Sequence[str], unit: Unit) -> int:
    """How many times ``unit`` occurs in the token list of one field."""
    n = len(unit.tokens)
    count = 0
    for i in range(len(field) - n + 1):
        if all(field[i + j] == unit.tokens[j] for j in range(n - 1)) and _token_hits(
            field[i + n - 1], unit.tokens[-1], unit.prefix
        ):
            count += 1
    return count


def bm25(
    freqs: Sequence[Sequence[int]],
    doc_len: int,
    avg_len: float,
    doc_freqs: Sequence[int],
    n_docs: int,
) -> float:
    """FTS5's ``bm25()`` (made positive): per phrase, IDF times a saturated, field-weighted
    frequency, normalised by the document's total length in tokens."""
    score = 0.0
    for per_field, n in zip(freqs, doc_freqs, strict=True):
        idf = math.log((n_docs - n + 0.5) / (n + 0.5))
        idf = max(idf, 1e-6)
        weighted = sum(w * f for w, f in zip(WEIGHTS, per_field, strict=True))
        norm = K1 * (1 - B + B * doc_len / avg_len) if avg_len > 0 else K1
        score += idf * (weighted * (K1 + 1.0)) / (weighted + norm)
    return score
