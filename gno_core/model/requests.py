"""Request models: what a caller asks of the facade (shared by CLI, MCP, REST and Python)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel


class SearchRequest(BaseModel):
    """A retrieval request. ``since``/``until`` take ISO dates or relative tokens (``7d``,
    ``2w``, ``today``, ``yesterday``, ``last week``, ...)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    query: str
    collection: str | None = None
    limit: int = Field(default=5, ge=1, le=100)
    min_score: float | None = Field(default=None, ge=0, le=1)
    lang: str | None = None
    since: str | None = None
    until: str | None = None
    categories: list[str] = Field(default_factory=list)
    author: str | None = None
    tags_all: list[str] = Field(default_factory=list)
    tags_any: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    intent: str | None = None
    path_prefix: str | None = None

    @field_validator("query")
    @classmethod
    def _query(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("query must not be empty")
        return value
