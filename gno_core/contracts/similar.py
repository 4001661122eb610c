"""``similar@1.0``: documents near one document by meaning."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from gno_core.contracts.base import WireModel


class SimilarDocument(WireModel):
    docid: str = Field(pattern=r"^#[0-9a-f]{6,8}$")
    uri: str
    title: str | None = None
    score: float = Field(ge=0, le=1)
    abs_path: str | None = None


class SimilarMeta(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"threshold", "title"})

    docid: str
    uri: str
    title: str | None
    total_similar: int = Field(ge=0)
    threshold: float | None
    cross_collection: bool


class SimilarResults(WireModel):
    similar: list[SimilarDocument]
    meta: SimilarMeta
