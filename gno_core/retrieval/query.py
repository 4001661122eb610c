"""The keyword query grammar: bare terms rank, quoted phrases are required, ``-x`` excludes.

People and agents type sentences, so bare terms are optional: a document matching more of them
ranks higher, none of them is required. ``"quoted phrases"`` must match as written. A token with
inner punctuation (``gpt-4``, ``DEC-0054``, ``real-time``) is matched as the phrase of its parts.
``term*`` is a prefix term. ``-term`` / ``-"phrase"`` excludes documents containing it.

Natural language never fails for syntax: the syntax is honoured where it is well formed and
anything else is read as text (``QueryReading.notes`` says what was):

- ``"`` opens a phrase at the start of a word (or after punctuation) only when another ``"`` on
  the same line closes it and that closing quote does not start a word itself; any other double
  quote is punctuation, so ``watch "Eternal Sunshine?`` searches its words.
- ``-`` excludes only at the start of a word followed by a letter or a well-formed phrase:
  ``--force``, ``-5`` and a lone ``-`` are text. A query that would only exclude searches its
  ``-`` words instead.
- ``*`` after a word makes a prefix; a ``*`` with no word before it is text.
- ``AND``, ``OR``, ``NOT``, ``NEAR``, parentheses, ``:``, ``^``, ``+`` and typographic quotes
  are no operators: punctuation separates words and these words are words.
- Bare words beyond ``MAX_CLAUSES`` clauses are dropped (they only rank); more than that many
  phrases and exclusions, an empty query, one with no word, or one longer than
  ``MAX_QUERY_CHARS`` are ``VALIDATION`` errors.

``plain_text`` turns prose (``recall``, ``ask`` and ``context`` goals) into a query string from
which no syntax at all can be read.
"""

from __future__ import annotations

from typing import NamedTuple

from gno_core.errors import ValidationError
from gno_core.read_values import Clause, LexicalQuery, Phrase, Term
from gno_core.text.words import words_of

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

STRAY_QUOTE = "a double quote that closes no phrase on its line was read as text"
STRAY_DASH = "a '-' not followed by a letter or a quoted phrase was read as text"
STRAY_STAR = "a '*' with no word before it was read as text"
ONLY_EXCLUDED = "nothing was left to search beside the '-' words, so they were searched"
OPERATOR_WORDS = "AND, OR, NOT and NEAR are words here, not operators"
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})


class QueryReading(NamedTuple):
    """A parsed query and how its stray syntax was read (empty when everything was syntax)."""

    query: LexicalQuery
    notes: tuple[str, ...]


class _Token(NamedTuple):
    text: str
    negated: bool
    quoted: bool


def parse_query(raw: str) -> LexicalQuery:
    """Parse user input into a ``LexicalQuery`` (see the module docstring)."""
    return read_query(raw).query


def read_query(raw: str) -> QueryReading:
    """``parse_query`` with the notes on what was read as text, for explain lines."""
    text = raw.strip()
    if not text:
        raise ValidationError("Query must not be empty")
    if len(text) > MAX_QUERY_CHARS:
        raise ValidationError(f"Query is longer than {MAX_QUERY_CHARS} characters")

    notes: dict[str, None] = {}
    optional: list[Clause] = []
    required: list[Clause] = []
    excluded: list[Clause] = []
    for token in _tokens(text, notes):
        parts = words_of(token.text)
        if not parts:
            if "*" in token.text and not token.quoted:
                notes[STRAY_STAR] = None
            continue
        if not token.quoted and token.text in _OPERATORS:
            notes[OPERATOR_WORDS] = None
        prefix = not token.quoted and token.text.endswith("*") and len(parts) == 1
        clause: Clause = Term(parts[0], prefix) if len(parts) == 1 else Phrase(tuple(parts))
        (excluded if token.negated else required if token.quoted else optional).append(clause)

    if not optional and not required:
        if not excluded:
            raise ValidationError("Query has no searchable words", details={"query": raw})
        optional, excluded = excluded, []
        notes[ONLY_EXCLUDED] = None
    content = [c for c in optional if not (isinstance(c, Term) and c.text in STOPWORDS)]
    if content or required:
        optional = content
    optional, required, excluded = _unique(optional), _unique(required), _unique(excluded)
    room = MAX_CLAUSES - len(required) - len(excluded)
    if room < (0 if required else 1):
        raise ValidationError(f"Query has more than {MAX_CLAUSES} phrases and exclusions")
    if len(optional) > room:
        optional = optional[:room]
        notes[f"only the first {room} distinct words were searched"] = None
    query = LexicalQuery(raw, tuple(optional), tuple(required), tuple(excluded))
    return QueryReading(query, tuple(notes))


def _unique(clauses: list[Clause]) -> list[Clause]:
    return list(dict.fromkeys(clauses))


def _tokens(text: str, notes: dict[str, None]) -> list[_Token]:
    """Whitespace (newlines included) separates tokens; a well-formed phrase is one token."""
    out: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        negated = (
            text[i] == "-"
            and i + 1 < n
            and (text[i + 1].isalpha() or _phrase_end(text, i + 1) is not None)
        )
        if negated:
            i += 1
        end = _phrase_end(text, i)
        if end is not None:
            out.append(_Token(text[i + 1 : end], negated, True))
            i = end + 1
            continue
        start = i
        i += 1
        while i < n and not text[i].isspace():
            if text[i] == '"' and not text[i - 1].isalnum() and _phrase_end(text, i) is not None:
                break
            i += 1
        token = text[start:i]
        if '"' in token:
            notes[STRAY_QUOTE] = None
        if token.startswith("-") and not negated and words_of(token):
            notes[STRAY_DASH] = None
        out.append(_Token(token, negated, False))
    return out


def _phrase_end(text: str, start: int) -> int | None:
    """The index of the quote closing a phrase opened at ``start``, or None when the character
    there is no opening quote: no closing quote on the same line, or one that starts a word."""
    if text[start] != '"':
        return None
    end = text.find('"', start + 1)
    if end < 0 or "\n" in text[start + 1 : end]:
        return None
    if end + 1 < len(text) and text[end + 1].isalnum():
        return None
    return end


def plain_text(text: str) -> str:
    """Prose as a query string the grammar reads without syntax: double quotes separate words,
    leading ``-`` and trailing ``*`` are dropped, and the words stop at ``MAX_QUERY_CHARS``
    characters or ``MAX_CLAUSES`` distinct content words. Text with no word comes back as is
    (the grammar then says it has none)."""
    kept: list[str] = []
    size = -1  # the first piece has no separating space
    content: set[tuple[str, ...]] = set()
    for raw in text.replace('"', " ").split():
        room = MAX_QUERY_CHARS - size - 1
        piece = raw.lstrip("-").rstrip("*")[:room].rstrip("*")
        words = tuple(words_of(piece))
        if not words:
            continue
        kept.append(piece)
        size += len(piece) + 1
        if len(words) > 1 or words[0] not in STOPWORDS:
            content.add(words)
        if len(content) >= MAX_CLAUSES or size >= MAX_QUERY_CHARS - 1:
            break
    return " ".join(kept) or text
