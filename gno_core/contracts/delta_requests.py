"""Requests of the Knowledge Delta reads: ``gno_changes`` (the change journal) and ``gno_diff``
(one document's structural diff for a change)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gno_core.contracts.fields import Cli
from gno_core.contracts.search_request import DocRef, Request

__all__ = ["ChangesRequest", "DiffRequest"]

#: A cursor or an ISO time is far shorter; longer input is refused before parsing.
MAX_SINCE_CHARS = 256


class ChangesRequest(Request):
    """The change journal, oldest first after ``since`` (``Gno.changes``)."""

    since: Annotated[
        str | None, Cli(help="ISO-8601 time or a gno-change-v1. cursor (default: the oldest kept)")
    ] = Field(
        default=None,
        max_length=MAX_SINCE_CHARS,
        description="ISO-8601 time or opaque gno-change-v1. cursor; entries after it",
    )
    collection: Annotated[
        str | None, Cli(flags=("-c", "--collection"), help="only this collection")
    ] = Field(default=None, description="Only changes of this collection")
    limit: int = Field(default=100, ge=1, le=1000, description="Maximum entries (1-1000)")


class DiffRequest(Request):
    """The structural diff of one document for one change (``Gno.diff``)."""

    ref: Annotated[DocRef, Cli(help="gno:// URI, collection/path or #docid")]
    change: Annotated[
        str | None, Cli(flags=("--change",), help="a change id from gno changes (default: latest)")
    ] = Field(
        default=None,
        max_length=MAX_SINCE_CHARS,
        description="Opaque change id from gno_changes (default: the document's latest change)",
    )
