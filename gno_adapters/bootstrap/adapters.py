"""``Adapters``: one set of concrete adapters for every port ``Gno`` needs, and ``build``, the
one function that turns a set into a facade. Every adapter set (local files + SQLite + ONNX,
in memory, a future PostgreSQL one) goes through here, so tests run the real facade."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from gno_core.facade import Gno

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core import ports
    from gno_core.index_handle import IndexOpener
    from gno_core.ports.changes import ChangeFeed
    from gno_core.ports.converters import DocumentConverter
    from gno_core.ports.refactors import RefactorCommit

__all__ = ["Adapters", "ChosenModels", "build"]


class ChosenModels(NamedTuple):
    """``SemanticModels`` known up front (the in-memory set, tests)."""

    embedder: ports.Embedder | None = None
    reranker: ports.Reranker | None = None


@dataclass(frozen=True, slots=True)
class Adapters:
    """What one ``Gno`` is made of. ``open_index`` opens another index by name for
    cross-index references (None: only this index exists). ``models``, when given, chooses the
    embedder and reranker (lazily) instead of ``embedder`` and ``reranker``."""

    index_name: str
    config: ports.ConfigRepository
    provider: ports.IndexProvider
    tree: ports.SourceTree
    frontmatter: ports.FrontmatterParser
    clock: ports.Clock
    resident: ports.ResidentProbe
    lease: ports.WriteLease
    notes: ports.NoteFiles
    embedder: ports.Embedder | None = None
    reranker: ports.Reranker | None = None
    open_index: IndexOpener | None = None
    models: ports.SemanticModels | None = None
    token_counter: ports.TokenCounter | None = None
    generator: ports.Generator | None = None
    verifier: ports.ClaimVerifier | None = None
    #: Chooses the verifier on first use instead of ``verifier`` (the local set: from the
    #: config and the pulled models); None from it means no verifier.
    choose_verifier: Callable[[], ports.ClaimVerifier | None] | None = None
    converter: DocumentConverter | None = None
    changes: ChangeFeed | None = None
    refactor_commit: RefactorCommit | None = None


def build(adapters: Adapters) -> Gno:
    """The facade over ``adapters``. Cheap: nothing is opened until an operation needs it."""
    return Gno(
        index_name=adapters.index_name,
        config=adapters.config,
        provider=adapters.provider,
        tree=adapters.tree,
        frontmatter=adapters.frontmatter,
        clock=adapters.clock,
        resident=adapters.resident,
        lease=adapters.lease,
        notes=adapters.notes,
        open_index=adapters.open_index,
        models=adapters.models or ChosenModels(adapters.embedder, adapters.reranker),
        token_counter=adapters.token_counter,
        generator=adapters.generator,
        verifier=adapters.choose_verifier or (lambda: adapters.verifier),
        converter=adapters.converter,
        changes=adapters.changes,
        refactor_commit=adapters.refactor_commit,
    )
