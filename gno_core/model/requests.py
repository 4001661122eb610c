"""Request models: what a caller asks of the facade (shared by CLI, MCP, REST and Python)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from gno_core.text.validity import has_lone_surrogate

#: Bounds on what one request may ask for, so that no caller can make a search do unbounded work.
MAX_REQUEST_TEXT_CHARS = 10_000
MAX_FILTER_ITEMS = 100
MAX_QUERY_MODES = 16


class SearchRequest(BaseModel):
    """A retrieval request. ``since``/``until`` take ISO dates or relative tokens (``7d``,
    ``2w``, ``today``, ``yesterday``, ``last week``, ...)."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", defer_build=True
    )

    query: str = Field(max_length=MAX_REQUEST_TEXT_CHARS)
    collection: str | None = None
    limit: int = Field(default=5, ge=1, le=100)
    min_score: float | None = Field(default=None, ge=0, le=1)
    lang: str | None = None
    since: str | None = None
    until: str | None = None
    categories: list[str] = Field(default_factory=list, max_length=MAX_FILTER_ITEMS)
    author: str | None = None
    tags_all: list[str] = Field(default_factory=list, max_length=MAX_FILTER_ITEMS)
    tags_any: list[str] = Field(default_factory=list, max_length=MAX_FILTER_ITEMS)
    exclude: list[str] = Field(default_factory=list, max_length=MAX_FILTER_ITEMS)
    intent: str | None = None
    path_prefix: str | None = None

    @field_validator("query")
    @classmethod
    def _query(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("query must not be empty")
        return value

    @field_validator("*")
    @classmethod
    def _unicode(cls, value: object) -> object:
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(t, str) and has_lone_surrogate(t) for t in texts):
            raise ValueError("text must be valid Unicode (it holds a lone UTF-16 surrogate)")
        return value


class QueryMode(BaseModel):
    """A caller-supplied retrieval entry: ``term`` (an extra keyword query), ``intent`` (extra
    disambiguating context) or ``hyde`` (a hypothetical answer passage, searched by meaning)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["term", "intent", "hyde"]
    text: str = Field(max_length=MAX_REQUEST_TEXT_CHARS)

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("queryModes text must not be empty")
        if has_lone_surrogate(value):
            raise ValueError("queryModes text must be valid Unicode")
        return value


class QueryRequest(SearchRequest):
    """A hybrid query: a ``SearchRequest`` plus the depth, rerank and explain controls."""

    candidate_limit: int | None = Field(default=None, ge=1, le=100)
    query_modes: list[QueryMode] = Field(default_factory=list, max_length=MAX_QUERY_MODES)
    expand: bool | None = None  # None: the depth decides (on only with ``thorough``)
    rerank: bool = True
    explain: bool = False
    fast: bool = False
    thorough: bool = False
    graph: bool = True
    no_graph: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> QueryRequest:
        if sum(1 for m in self.query_modes if m.mode == "hyde") > 1:
            raise ValueError("queryModes allows at most one hyde entry")
        if self.fast and self.thorough:
            raise ValueError("fast and thorough cannot both be set")
        return self
