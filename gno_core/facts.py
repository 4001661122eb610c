"""Fact records as a fact file states them (``gno_core.fact_files`` writes and reads the
files): domain values, so sync can carry them to the index beside the document."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TITLE_CHARS", "FactRecord", "InvalidFact", "MemoryIdentity"]

TITLE_CHARS = 80


@dataclass(frozen=True, slots=True)
class FactRecord:
    """One fact as its file states it."""

    record_id: str
    text: str
    scopes: tuple[str, ...]
    caller: str
    session: str
    created_at: str
    content_hash: str
    source: str | None = None
    #: ``gno://`` URIs of the facts this one replaces.
    supersedes: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return self.text[:TITLE_CHARS]


@dataclass(frozen=True, slots=True)
class InvalidFact:
    """A file under a memory collection that is not a valid fact, and why (a stable code)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class MemoryIdentity:
    """Who remembers or recalls: always set by the transport (CLI flags or environment, the MCP
    client and its session), never taken from tool arguments."""

    caller: str
    session: str
