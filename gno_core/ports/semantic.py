"""``SemanticModels``: which embedder and reranker one facade uses.

Either may be ``None`` (retrieval degrades as the spec says). An adapter may resolve them on
first access, so the commands that use neither (``gno search``, ``gno get``) never look for a
model at all.
"""

from __future__ import annotations

from typing import Protocol

from gno_core.ports.embedder import Embedder
from gno_core.ports.reranker import Reranker


class SemanticModels(Protocol):
    @property
    def embedder(self) -> Embedder | None: ...

    @property
    def reranker(self) -> Reranker | None: ...
