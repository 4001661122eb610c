"""``SemanticModels``: which embedder and reranker one facade uses.

Either may be ``None`` (retrieval degrades as the spec says). An adapter may resolve them on
first access, so the commands that use neither (``gno search``, ``gno get``) never look for a
model at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from gno_core.ports.embedder import Embedder
from gno_core.ports.reranker import Reranker

if TYPE_CHECKING:
    from gno_core.errors import GnoError


class SemanticModels(Protocol):
    @property
    def embedder(self) -> Embedder | None: ...

    @property
    def reranker(self) -> Reranker | None: ...


def unavailable_reason(models: object, role: str) -> GnoError | None:
    """Why ``models`` has no model for ``role`` (``embed``, ``rerank``) when its adapter keeps
    the reason (an optional ``errors`` mapping of role to the error that resolving it raised):
    the error a caller that needs the model passes on, rather than a guess at the cause."""
    errors = getattr(models, "errors", None)
    if not isinstance(errors, Mapping):
        return None
    found = errors.get(role)
    from gno_core.errors import GnoError

    return found if isinstance(found, GnoError) else None
