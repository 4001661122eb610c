"""The ranked values the retrieval modes hand to result assembly (``results``): a document
ranked by a leg with its best passage, and why the graph stage proposed a document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from gno_core.domain import StoredDocument
    from gno_core.retrieval.snippets import Passage

__all__ = ["GraphVia", "RankedHit"]


class RankedHit(NamedTuple):
    """One ranked document: its score relative to the best hit (0-1], URI and best passage."""

    document: StoredDocument
    score: float
    uri: str
    passage: Passage | None


@dataclass(frozen=True, slots=True)
class GraphVia:
    """Why a document is a graph candidate: its strongest link to its best seed."""

    seed: str  # the seed's key
    seed_rank: int  # 1-based rank of that seed among the fused results
    confidence: str
    direction: str  # "out": the seed links to it; "in": it links to the seed
    score: float  # the candidate's graph score in (0, 1]
