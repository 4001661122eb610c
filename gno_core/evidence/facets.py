"""Facets: the separate things a goal asks about, derived from its wording alone.

A capsule is complete when every facet is covered by some selected passage. Facets come from
the goal's structure: the sides of a comparison ("A vs B", "compare A and B"), quoted strings,
runs of capitalised words (names), and temporal signals (years, months, relative dates). A goal
contributes its other content words too, one facet each, so "dependency injection scopes" asks
for passages that mention all three between them.
"""

from __future__ import annotations

import re
import unicodedata

from gno_core.retrieval.query import STOPWORDS
from gno_core.text.words import words_of

MAX_FACETS = 16
MAX_FACET_CHARS = 200
#: A passage word covers a facet word when it starts with it and is at most this much longer
#: ("scope" covers "scopes", "scoped"): a stemmer-free plural and tense rule.
_SUFFIX_SLACK = 3
_MIN_STEM = 4
_MIN_PREFIX = 5

_COMPARISON = re.compile(r"\s+(?:vs\.?|versus|compared (?:to|with)|against)\s+", re.IGNORECASE)
_COMPARE = re.compile(r"^\s*compare\s+(.+?)\s+(?:and|with|to)\s+(.+?)\s*[?.!]*\s*$", re.IGNORECASE)
_QUOTED = re.compile(r"\"([^\"]{1,200})\"|“([^”]{1,200})”|'([^']{2,200})'")
_CAPITALISED = re.compile(
    r"\b(?:[A-Z][\w-]*[a-z0-9][\w-]*|[A-Z]{2,})(?:\s+(?:[A-Z][\w-]*|[A-Z]{2,}))*"
)
_TEMPORAL = re.compile(
    r"\b(?:(?:19|20)\d{2}(?:-\d{2}(?:-\d{2})?)?|"
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
    r"(?:\s+(?:19|20)\d{2})?|q[1-4](?:\s+(?:19|20)\d{2})?|today|yesterday|tomorrow|"
    r"(?:last|next|this)\s+(?:week|month|quarter|year))\b",
    re.IGNORECASE,
)


def derive_facets(goal: str) -> tuple[str, ...]:
    """The goal's facets, normalised (NFC, lowercase, single spaces), deduplicated, in the
    order they appear, at most ``MAX_FACETS``."""
    text = unicodedata.normalize("NFC", goal)
    found: list[str] = []
    compare = _COMPARE.match(text)
    if compare:
        found.extend([compare.group(1), compare.group(2)])
    else:
        sides = _COMPARISON.split(text)
        if len(sides) > 1:
            found.extend(sides)
    found.extend(next(g for g in m.groups() if g) for m in _QUOTED.finditer(text))
    for m in _CAPITALISED.finditer(text):
        run = m.group(0)
        # "Ask Alice Smith": the word that opens a sentence is no part of the name.
        found.append(run.partition(" ")[2] if _sentence_opening(text, m.start()) else run)
    found.extend(m.group(0) for m in _TEMPORAL.finditer(text))
    normalised = list(dict.fromkeys(f for f in (_normalise(x) for x in found) if f))
    # "march" adds nothing beside "march 2026": a facet inside a longer one is dropped.
    facets = [f for f in normalised if not any(f != g and f" {f} " in f" {g} " for g in normalised)]
    # The goal's other content words are facets of their own: "How do I set the HTTP status
    # code" asks about status and code, not only about HTTP.
    inside = {w for f in facets for w in f.split()}
    facets += [
        w
        for w in dict.fromkeys(words_of(text))
        if w not in STOPWORDS and w not in _QUESTION_OPENERS and w not in inside
    ]
    if not facets:
        facets = [w for w in dict.fromkeys(words_of(text)) if w not in STOPWORDS]
    return tuple(dict.fromkeys(facets))[:MAX_FACETS]


def facet_words(facet: str) -> tuple[str, ...]:
    words = [w for w in words_of(facet) if w not in STOPWORDS]
    return tuple(dict.fromkeys(words or words_of(facet)))


def word_forms(words: list[str], stems: frozenset[str] = frozenset()) -> frozenset[str]:
    """A passage's words, plus each word shortened by up to ``_SUFFIX_SLACK`` characters
    (never below ``_MIN_STEM``) when its first ``_MIN_STEM`` characters are in ``stems`` (those
    of the facet words, so only words that could matter are expanded): a facet word is covered
    when it is one of these forms."""
    forms = set(words)
    for w in [w for w in forms if len(w) > _MIN_STEM and w[:_MIN_STEM] in stems]:
        for cut in range(1, _SUFFIX_SLACK + 1):
            if len(w) - cut < _MIN_STEM:
                break
            forms.add(w[:-cut])
        # Every prefix of at least ``_MIN_PREFIX`` characters, for ``covers``'s shared-stem
        # rule ("hierarchical" covers "hierarchy", "renaming" covers "rename").
        forms.update(w[:n] for n in range(_MIN_PREFIX, len(w)))
    return frozenset(forms)


def stems_of(facets: list[tuple[str, ...]]) -> frozenset[str]:
    return frozenset(w[:_MIN_STEM] for f in facets for w in f if len(w) >= _MIN_STEM)


def covers(facet: tuple[str, ...], forms: frozenset[str]) -> bool:
    """True when every word of ``facet`` occurs in the passage (or a word that extends it by a
    short suffix, or one that shares all of it but its last ``_SUFFIX_SLACK`` characters,
    never fewer than ``_MIN_PREFIX``), given the passage's ``word_forms``."""
    return all(word in forms or _shared_stem(word) in forms for word in facet)


def _shared_stem(word: str) -> str:
    if len(word) <= _MIN_PREFIX:
        return "\0"  # in no passage: a short word needs the exact or suffix rule
    return word[: max(_MIN_PREFIX, len(word) - _SUFFIX_SLACK)]


def _normalise(raw: str) -> str:
    words = [w for w in words_of(raw) if w not in STOPWORDS and w not in _QUESTION_OPENERS]
    words = words or words_of(raw)
    joined = " ".join(words)
    # A side of "compare X and Y" keeps its words; a lone stopword is no facet.
    meaningful = any(w not in STOPWORDS and w not in _QUESTION_OPENERS for w in words)
    return joined[:MAX_FACET_CHARS] if meaningful else ""


def _sentence_opening(text: str, start: int) -> bool:
    """A capitalised word that only opens the sentence is no name (``How``, ``What``)."""
    before = text[:start].rstrip()
    if before and before[-1] not in ".!?":
        return False
    word = text[start:].split(maxsplit=1)[0]
    return word.lower() in STOPWORDS or word.lower() in _QUESTION_OPENERS


_QUESTION_OPENERS = frozenset(
    "compare explain describe list show tell find summarize summarise give use define ask vs "
    "versus".split()
)
