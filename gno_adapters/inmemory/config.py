"""In-memory ``ConfigRepository`` (a first-class fake for tests and embedding)."""

from __future__ import annotations

from gno_core.config import GnoConfig
from gno_core.errors import NotInitializedError


class InMemoryConfigRepository:
    def __init__(self, config: GnoConfig | None = None) -> None:
        self._stored = config.model_dump_json() if config is not None else None

    @property
    def location(self) -> str:
        return "memory://config"

    def exists(self) -> bool:
        return self._stored is not None

    def load(self) -> GnoConfig:
        if self._stored is None:
            raise NotInitializedError("No gno configuration in memory; save one first")
        return GnoConfig.model_validate_json(self._stored)

    def section(self, name: str) -> object:
        import json

        return None if self._stored is None else json.loads(self._stored).get(name)

    def save(self, config: GnoConfig) -> None:
        self._stored = config.model_dump_json()
