"""Port: a cross-encoder that scores (query, passage) pairs for the rerank stage."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Reranker(Protocol):
    """Reads a query and a passage together and says how well the passage answers it.

    Identity is known without loading the model; the model loads on the first ``score``.
    """

    @property
    def model_id(self) -> str:
        """The model's stable identifier (e.g. ``cross-encoder/ms-marco-MiniLM-L-6-v2``)."""
        ...

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """One relevance score in [0, 1] per passage, in input order (empty input, empty
        output); higher is more relevant. Deterministic for the same inputs. Text past the
        model's window is truncated from the passage, never from the query. Raises
        ``MODEL_UNAVAILABLE`` when the model cannot be loaded and ``RUNTIME`` when inference
        fails."""
        ...
