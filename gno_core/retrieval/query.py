"""The keyword query grammar: bare terms rank, quoted phrases are required, ``-x`` excludes.

People and agents type sentences, so bare terms are optional: a document matching more of them
ranks higher, none of them is required. ``"quoted phrases"`` must match as written. A token with
inner punctuation (``gpt-4``, ``DEC-0054``, ``real-time``) is matched as the phrase of its parts.
``term*`` is a prefix term. ``-term`` / ``-"phrase"`` excludes documents containing it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from gno_core.errors import ValidationError
from gno_core.read_values import Clause, LexicalQuery, Phrase, Term

MAX_QUERY_CHARS = 2000
MAX_CLAUSES = 64

#: Common English function words: dropped from the optional terms of a sentence-like query,
#: because they match nearly every document and add cost without ranking signal.
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves""".split()
)

_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


def words_of(text: str) -> list[str]:
    """Split text into lowercase NFKC words (letters and digits; everything else separates)."""
    return _WORD_RE.findall(unicodedata.normalize("NFKC", text).lower())


def parse_query(raw: str) -> LexicalQuery:
    """Parse user input into a ``LexicalQuery``. Malformed input raises ``VALIDATION``."""
    text = raw.strip()
    if not text:
        raise ValidationError("Query must not be empty")
    if len(text) > MAX_QUERY_CHARS:
        raise ValidationError(f"Query is longer than {MAX_QUERY_CHARS} characters")
    if text.count('"') % 2:
        raise ValidationError("Unmatched double quote in query", details={"query": raw})

    optional: list[Clause] = []
    required: list[Clause] = []
    excluded: list[Clause] = []
    for negated, quoted, token in _tokens(text):
        parts = words_of(token)
        if not parts:
            if token.strip("*-") == "" and "*" in token:
                raise ValidationError("A prefix term needs at least one character before '*'")
            continue
        prefix = not quoted and token.endswith("*") and len(parts) == 1
        clause: Clause = Term(parts[0], prefix) if len(parts) == 1 else Phrase(tuple(parts))
        if negated:
            excluded.append(clause)
        elif quoted:
            required.append(clause)
        else:
            optional.append(clause)

    if not optional and not required:
        if excluded:
            raise ValidationError("A query with exclusions needs at least one positive term")
        raise ValidationError("Query has no searchable words", details={"query": raw})
    content = [c for c in optional if not (isinstance(c, Term) and c.text in STOPWORDS)]
    if content or required:
        optional = content
    if len(optional) + len(required) + len(excluded) > MAX_CLAUSES:
        raise ValidationError(f"Query has more than {MAX_CLAUSES} terms")
    return LexicalQuery(
        raw=raw,
        optional=tuple(dict.fromkeys(optional)),
        required=tuple(dict.fromkeys(required)),
        excluded=tuple(dict.fromkeys(excluded)),
    )


def _tokens(text: str) -> list[tuple[bool, bool, str]]:
    """(negated, quoted, token) triples; whitespace (newlines included) separates tokens."""
    out: list[tuple[bool, bool, str]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        negated = text[i] == "-" and i + 1 < n and not text[i + 1].isspace()
        if negated:
            i += 1
        if text[i] == '"':
            end = text.index('"', i + 1)
            out.append((negated, True, text[i + 1 : end]))
            i = end + 1
            continue
        start = i
        while i < n and not text[i].isspace() and text[i] != '"':
            i += 1
        out.append((negated, False, text[start:i]))
    return out


def exclusion_clauses(terms: Sequence[str]) -> list[Clause]:
    """``SearchFilters.exclude_terms`` as clauses: one word is a term, several a phrase."""
    out: list[Clause] = []
    for term in terms:
        words = words_of(term)
        if words:
            out.append(Term(words[0]) if len(words) == 1 else Phrase(tuple(words)))
    return out
