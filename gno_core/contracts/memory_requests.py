"""Memory requests: ``RecallRequest`` and ``RememberRequest`` (``Gno.recall``, ``Gno.remember``).

Their fields are optional in the models so that every transport gets the same ``MEMORY_*``
codes from the core; the MCP ``inputSchema`` adds the spec's bounds and required fields.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from gno_core.contracts.requests import MAX_FILTER_ITEMS, MAX_REQUEST_TEXT_CHARS, Cli, Request

__all__ = ["RecallRequest", "ReceiptInput", "RememberRequest"]

#: The memory collection and the scopes, as both requests take them (each words its description).
MemoryCollection = Annotated[
    str | None, Cli(flags=("-c", "--collection"), help="the memory collection")
]
MemoryScopes = Annotated[
    list[str] | None,
    Field(max_length=MAX_FILTER_ITEMS, json_schema_extra={"minItems": 1, "maxItems": 8}),
    Cli(flags=("--scope",), metavar="SCOPE", repeat=True, help="a scope (repeat for more)"),
]


class RecallRequest(Request):
    """Current facts of a memory collection within a budget (``Gno.recall``).

    The fields are optional here so that every transport gets the same ``MEMORY_*`` codes from
    the core for a missing query, collection or scope; the MCP ``inputSchema`` states the
    spec's bounds and required fields (``json_schema_extra`` and the tool's ``required``)."""

    query: Annotated[str | None, Cli(skip=True)] = Field(
        default=None,
        max_length=MAX_REQUEST_TEXT_CHARS,
        description="What you need to know, phrased as the fact would be stated",
    )
    collection: MemoryCollection = Field(
        default=None, description="Memory-managed collection to recall from"
    )
    scopes: MemoryScopes = Field(
        default=None,
        description="Explicit scopes; visibility is any-intersection, no implicit global scope",
    )
    max_facts: Annotated[int | None, Cli(help="fact budget (1-64, default 8)")] = Field(
        default=None,
        description="Fact budget (default 8)",
        json_schema_extra={"minimum": 1, "maximum": 64},
    )
    max_tokens: Annotated[int | None, Cli(help="token budget (1-8192, default 512)")] = Field(
        default=None,
        description="Payload token budget (default 512)",
        json_schema_extra={"minimum": 1, "maximum": 8192},
    )


class ReceiptInput(BaseModel):
    """A recall receipt as an agent hands it back (all optional; unknown keys refused)."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", defer_build=True
    )

    caller: str | None = None
    session: str | None = None
    issued_at: str | None = None
    memory_ids: list[str] | None = Field(default=None, max_length=MAX_FILTER_ITEMS)
    span_hashes: list[str] | None = Field(default=None, max_length=MAX_FILTER_ITEMS)
    digest: str | None = None


class RememberRequest(Request):
    """Store one fact, or supersede one (``Gno.remember``). Optional here for the same reason
    as ``RecallRequest``: the core answers the ``MEMORY_*`` codes on every transport."""

    text: Annotated[str | None, Cli(skip=True)] = Field(
        default=None,
        max_length=MAX_REQUEST_TEXT_CHARS,
        description="One fact, stated in full (single statement, not a document)",
    )
    collection: MemoryCollection = Field(
        default=None, description="Memory-managed collection to write into"
    )
    scopes: MemoryScopes = Field(
        default=None,
        description="Explicit scopes; no implicit global scope",
    )
    decision: Annotated[str | None, Cli(skip=True)] = Field(
        default=None,
        description="Omit to receive candidates without writing",
        json_schema_extra={"enum": ["add", "supersede"]},
    )
    predecessor_uri: Annotated[str | None, Cli(skip=True)] = Field(
        default=None,
        max_length=4096,
        description="gno:// URI of the fact being superseded (supersede only)",
    )
    predecessor_hash: Annotated[str | None, Cli(help="contentHash of the fact superseded")] = Field(
        default=None,
        max_length=128,
        description="contentHash of the predecessor as returned by gno_recall (supersede only)",
    )
    receipt: Annotated[ReceiptInput | None, Cli(skip=True)] = Field(
        default=None, description="Receipt from the gno_recall response the fact derives from"
    )
    derived_from: Annotated[
        list[str] | None,
        Cli(flags=("--derived-from",), metavar="ORIGIN", repeat=True, help="a declared origin"),
    ] = Field(
        default=None,
        max_length=MAX_FILTER_ITEMS,
        description="Declared origins; any gno:// origin is rejected",
    )
    source: Annotated[str | None, Cli(help="free-text evidence for the fact")] = Field(
        default=None,
        max_length=MAX_REQUEST_TEXT_CHARS,
        description="Free-text evidence for the fact",
    )
