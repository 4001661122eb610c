"""How close a new fact is to the facts already stored: cosine of their vectors when the embedder
is there, token Jaccard when it is not, labelled ``exact`` (same content hash), ``likely``
(at or over the threshold of the mode) or ``weak``. The caller decides what to do with them;
no model writes anything."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "LEXICAL_LIKELY",
    "SEMANTIC_LIKELY",
    "Match",
    "MatchMode",
    "jaccard",
    "label",
    "threshold",
]

Match = Literal["exact", "likely", "weak"]
MatchMode = Literal["semantic", "lexical"]

#: Cosine at or over which two facts likely state the same thing (normalised MiniLM vectors).
SEMANTIC_LIKELY = 0.83
#: Token Jaccard at or over which two facts likely state the same thing.
LEXICAL_LIKELY = 0.5
#: How many stored facts (BM25, any term, in scope) a new fact is compared with.
CANDIDATE_POOL = 16

_TOKEN = re.compile(r"\w+")


def tokens(text: str) -> frozenset[str]:
    """The distinct case-folded words of ``text``."""
    return frozenset(t.casefold() for t in _TOKEN.findall(text))


def jaccard(a: str, b: str) -> float:
    """|A ∩ B| / |A ∪ B| over the word sets of ``a`` and ``b`` (0 when both are empty)."""
    left, right = tokens(a), tokens(b)
    union = left | right
    return len(left & right) / len(union) if union else 0.0


def threshold(mode: MatchMode) -> float:
    return SEMANTIC_LIKELY if mode == "semantic" else LEXICAL_LIKELY


def label(similarity: float, mode: MatchMode, *, same_hash: bool) -> Match:
    if same_hash:
        return "exact"
    return "likely" if similarity >= threshold(mode) else "weak"


@dataclass(frozen=True, slots=True)
class Matching:
    """How candidates were compared (``remember``'s ``matching`` block)."""

    mode: MatchMode
    threshold: float
    #: Why the semantic mode did not run (no embedder, no vectors), when it did not.
    semantic_unavailable: str | None = None
