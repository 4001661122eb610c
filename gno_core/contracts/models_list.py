"""The ``models-list@1.0`` contract: which models gno knows, and which are on this machine."""

from __future__ import annotations

from typing import Literal

from gno_core.contracts.base import WireModel


class ModelEntry(WireModel):
    role: Literal["embed", "rerank", "generate", "nli"]
    name: str
    model_id: str
    ref: str
    installed: bool
    bundled: bool
    default: bool
    path: str | None = None
    size_bytes: int | None = None
    license: str
    source: str
    missing: list[str] | None = None


class ModelsList(WireModel):
    models: list[ModelEntry]
