"""Port: where the user's configuration lives (collections, chunking, tokenizer)."""

from __future__ import annotations

from typing import Protocol

from gno_core.config import GnoConfig


class ConfigRepository(Protocol):
    @property
    def location(self) -> str:
        """Human-readable location of the configuration (a file path), for status and errors."""
        ...

    def exists(self) -> bool:
        """True once the configuration has been written (``gno init``)."""
        ...

    def load(self) -> GnoConfig:
        """The current configuration. Raises ``NOT_INITIALIZED`` when none exists and
        ``VALIDATION`` when the stored configuration is malformed (message names the problem)."""
        ...

    def section(self, name: str) -> object:
        """One top-level section of the configuration (by its Python field name, e.g.
        ``retrieval_traces``) as plain JSON values, None when there is no configuration; read
        without building the whole validated configuration when the adapter can (a hot path
        asks whether an opt-in feature is on). Same errors as ``load`` otherwise."""
        ...

    def save(self, config: GnoConfig) -> None:
        """Persist ``config`` atomically (write then rename); comments the user wrote are kept
        where the format allows. Raises ``RUNTIME`` on I/O failure."""
        ...
