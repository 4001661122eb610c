"""What the retrieval modes read from a request. ``SearchAsk``: the keyword and vector search;
``QueryAsk``: the hybrid query. ``SearchRequest`` and ``QueryRequest`` (pydantic) have these
fields, and so has the namespace ``gno search``/``vsearch``/``query`` build without pydantic
from the same field specs (``gno_core.contracts.fields.plain_values``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gno_core.contracts.metadata import MetadataPredicate

__all__ = ["QueryAsk", "QueryModeAsk", "SearchAsk"]


class SearchAsk(Protocol):
    @property
    def query(self) -> str: ...
    @property
    def collection(self) -> str | None: ...
    @property
    def limit(self) -> int: ...
    @property
    def min_score(self) -> float | None: ...
    @property
    def lang(self) -> str | None: ...
    @property
    def intent(self) -> str | None: ...
    @property
    def exclude(self) -> list[str]: ...
    @property
    def since(self) -> str | None: ...
    @property
    def until(self) -> str | None: ...
    @property
    def categories(self) -> list[str]: ...
    @property
    def author(self) -> str | None: ...
    @property
    def tags_all(self) -> list[str]: ...
    @property
    def tags_any(self) -> list[str]: ...
    @property
    def path_prefix(self) -> str | None: ...
    @property
    def filter(self) -> MetadataPredicate | None: ...


class QueryModeAsk(Protocol):
    """One typed retrieval entry: ``term``, ``intent`` or ``hyde`` with its text."""

    @property
    def mode(self) -> str: ...
    @property
    def text(self) -> str: ...


class QueryAsk(SearchAsk, Protocol):
    fast: bool
    thorough: bool
    expand: bool | None
    rerank: bool
    candidate_limit: int | None
    explain: bool
    graph: bool | None
    no_graph: bool

    @property
    def query_modes(self) -> Sequence[QueryModeAsk]: ...
