"""``OverlapReranker``: a deterministic fake ``Reranker`` (share of query words in a passage)."""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class OverlapReranker:
    """Scores a passage by the share of the query's distinct words it contains (0 to 1)."""

    def __init__(self, model_id: str = "gno/overlap-reranker") -> None:
        self._model_id = model_id
        self.calls: list[tuple[str, list[str]]] = []  # (query, passages) per call, for tests

    @property
    def model_id(self) -> str:
        return self._model_id

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        self.calls.append((query, list(passages)))
        wanted = _words(query.rsplit("Query: ", 1)[-1])
        if not wanted:
            return [0.0 for _ in passages]
        return [len(wanted & _words(p)) / len(wanted) for p in passages]
