"""Query expansion without a language model: pseudo-relevance feedback from the keyword hits.

The top keyword hits are assumed relevant; the words they share most (weighted by rank, common
words and the query's own words left out) are added to the query as an extra BM25 leg, in the
manner of RM3. It only runs when expansion is asked for (``thorough`` or ``expand``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from gno_core.retrieval.query import MAX_CLAUSES, MAX_QUERY_CHARS, STOPWORDS
from gno_core.text.words import words_of

FEEDBACK_DOCS = 5
FEEDBACK_TERMS = 10
MIN_DOC_SHARE = 2  # a feedback word must occur in at least this many of the feedback documents


def feedback_query(query: str, texts: Sequence[str]) -> str | None:
    """The query with the strongest feedback words appended, or None when the feedback
    documents share no useful word."""
    own = set(words_of(query))
    weights: dict[str, float] = {}
    presence: Counter[str] = Counter()
    for rank, text in enumerate(texts[:FEEDBACK_DOCS]):
        counts = Counter(
            w for w in words_of(text) if len(w) > 2 and not w.isdigit() and w not in STOPWORDS
        )
        total = sum(counts.values())
        if not total:
            continue
        prior = 1.0 / math.log2(rank + 2)
        for word, n in counts.items():
            weights[word] = weights.get(word, 0.0) + prior * n / total
            presence[word] += 1
    chosen = [
        w
        for w, _ in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))
        if w not in own and presence[w] >= MIN_DOC_SHARE
    ][:FEEDBACK_TERMS]
    if not chosen:
        return None
    # The question's words first, cut so that the whole stays within the grammar's bounds
    # (MAX_CLAUSES words, MAX_QUERY_CHARS characters) with every feedback word kept.
    added = " ".join(chosen)
    base = [w for w in dict.fromkeys(words_of(query)) if w not in STOPWORDS]
    base = base[: MAX_CLAUSES - len(chosen)]
    while base and len(base) + sum(map(len, base)) + len(added) > MAX_QUERY_CHARS:
        base.pop()
    return " ".join([*base, added])
