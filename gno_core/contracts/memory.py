"""``memory-recall@1.0`` (current facts of a memory collection within a budget, with the
receipt that fences replays) and ``memory-remember@1.0`` (what storing one fact did): one
contract each for CLI, MCP, REST and Python."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.egress import EgressLineageView

_HASH = r"^[0-9a-f]{64}$"


class FactView(WireModel):
    """A stored fact as every memory answer shows it."""

    uri: str
    docid: str = Field(pattern=r"^#[0-9a-f]{6,8}$")
    record_id: str = Field(pattern=r"^mem-[0-9a-f]{16}$")
    text: str
    scopes: list[str] = Field(min_length=1, max_length=8)
    caller: str
    session: str
    created_at: str
    content_hash: str = Field(pattern=_HASH)
    #: ``gno://`` URIs of the facts this one replaced.
    supersedes: list[str]
    source: str | None = None


class RecalledFact(FactView):
    score: float = Field(ge=0, le=1)
    #: The hash the receipt lists for this fact's text (its content hash).
    span_hash: str = Field(pattern=_HASH)
    #: The egress lineage of the fact: its memory collection's policy.
    egress_lineage: EgressLineageView | None = None


class RecallReceipt(WireModel):
    """Content-free: who recalled what and when; hand it to remember to fence replays."""

    caller: str
    session: str
    issued_at: str
    memory_ids: list[str]
    span_hashes: list[str]
    digest: str = Field(pattern=_HASH)


class RecallBudget(WireModel):
    max_facts: int = Field(ge=1, le=64)
    max_tokens: int = Field(ge=1, le=8192)
    used_tokens: int = Field(ge=0)
    omitted: int = Field(ge=0)


class RecallRetrieval(WireModel):
    mode: Literal["lexical", "hybrid"]
    semantic_unavailable: str | None = None


class RecallResult(WireModel):
    facts: list[RecalledFact]
    receipt: RecallReceipt
    budget: RecallBudget
    retrieval: RecallRetrieval
    #: The strictest source policy across the returned facts; absent when none came back.
    egress_lineage: EgressLineageView | None = None
    #: Present only when no fact came back: how to store one.
    hint: str | None = None


class MemoryCandidate(FactView):
    """A stored fact close to the one offered: ``exact`` (same text), ``likely`` (at or over
    the threshold of the matching mode) or ``weak``."""

    similarity: float = Field(ge=0, le=1)
    match: Literal["exact", "likely", "weak"]


class MemoryMatching(WireModel):
    mode: Literal["semantic", "lexical"]
    threshold: float
    semantic_unavailable: str | None = None


class MemorySync(WireModel):
    status: Literal["completed"]


class RememberResult(WireModel):
    outcome: Literal["existing", "candidates", "added", "superseded"]
    #: The stored fact (``existing``, ``added``, ``superseded``).
    record: FactView | None = None
    #: Stored facts near the offered one, closest first (``candidates``).
    candidates: list[MemoryCandidate] | None = None
    #: The fact file written (``added``, ``superseded``).
    abs_path: str | None = None
    sync: MemorySync | None = None
    matching: MemoryMatching
