"""The request base of every transport (``Request``, the bounds; the ``Cli`` field metadata is
in ``gno_core.contracts.fields``) and ``SearchRequest``: what a retrieval asks. Kept apart from
the other requests so that a ``gno search`` process builds only the models it uses
(``gno_core.contracts.requests`` names all of them).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from gno_core.contracts.fields import Cli, blank_text_error, lone_surrogate_error
from gno_core.contracts.metadata import FILTER_DESCRIPTION, MetadataPredicate

#: Bounds on what one request may ask for, so that no caller can make a search do unbounded work.
MAX_REQUEST_TEXT_CHARS = 10_000
MAX_FILTER_ITEMS = 100
MAX_QUERY_MODES = 16


class Request(BaseModel):
    """The base of every request: camelCase on the wire, unknown fields refused, and the
    pydantic build deferred to first use (the CLI reads ``model_fields`` at start-up)."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", defer_build=True
    )


#: The ``filter`` field of every retrieval request (search, vsearch, query, diagnose, ask, context).
MetadataFilter = Annotated[
    MetadataPredicate | None,
    Cli(
        metavar="JSON",
        help='typed metadata predicate, e.g. \'{"op":"eq","key":"status","value":"done"}\'',
    ),
]


#: A document reference, as every read request takes it.
DocRef = Annotated[
    str, Field(description="Document reference: gno:// URI, collection/path, or #docid")
]


class SearchRequest(Request):
    """A retrieval request. ``since``/``until`` take ISO dates or relative tokens (``7d``,
    ``2w``, ``today``, ``yesterday``, ``last week``, ...).

    Field order is the order transports list the parameters in (MCP ``inputSchema``, ``--help``).
    """

    query: str = Field(max_length=MAX_REQUEST_TEXT_CHARS, description="Search query text")
    collection: Annotated[
        str | None, Cli(flags=("-c", "--collection"), help="only this collection")
    ] = Field(default=None, description="Optional collection name to filter results")
    limit: Annotated[
        int,
        Cli(flags=("-n", "--limit"), help="number of results (default 5; 20 with --json/--files)"),
    ] = Field(default=5, ge=1, le=100, description="Maximum number of results (1-100)")
    min_score: Annotated[float | None, Cli(help="drop results scoring below this (0-1)")] = Field(
        default=None, ge=0, le=1, description="Minimum score threshold (0-1)"
    )
    lang: Annotated[str | None, Cli(help="language code of the documents")] = Field(
        default=None, description="Language hint for query (BCP-47 code)"
    )
    intent: Annotated[
        str | None, Cli(help="what you mean, to pick the best passage (not searched)")
    ] = Field(default=None, description="Optional disambiguating context for ambiguous queries")
    exclude: Annotated[list[str], Cli(help="drop documents containing these terms")] = Field(
        default_factory=list,
        max_length=MAX_FILTER_ITEMS,
        description="Hard-prune docs containing any excluded term in title/path/body",
    )
    since: Annotated[
        str | None, Cli(help="modified at or after (ISO date or 7d, 2w, today, last month ...)")
    ] = Field(default=None, description="Modified-at lower bound (ISO date/time or relative token)")
    until: Annotated[str | None, Cli(help="modified before (same forms as --since)")] = Field(
        default=None, description="Modified-at upper bound (ISO date/time or relative token)"
    )
    categories: Annotated[
        list[str],
        Cli(
            flags=("--category",),
            metavar="CATEGORY",
            help="content types/categories, comma separated",
        ),
    ] = Field(
        default_factory=list,
        max_length=MAX_FILTER_ITEMS,
        description="Only include docs matching any category/content type",
    )
    author: Annotated[str | None, Cli(help="author contains this text")] = Field(
        default=None, description="Only include docs where author contains this value"
    )
    tags_all: Annotated[list[str], Cli(help="documents with all of these tags")] = Field(
        default_factory=list,
        max_length=MAX_FILTER_ITEMS,
        description="Only include docs with ALL specified tags",
    )
    tags_any: Annotated[list[str], Cli(help="documents with any of these tags")] = Field(
        default_factory=list,
        max_length=MAX_FILTER_ITEMS,
        description="Only include docs with ANY specified tag",
    )
    path_prefix: Annotated[
        str | None, Cli(help="only paths starting with this (relative to the collection)")
    ] = Field(default=None, description="Only include docs whose path starts with this prefix")
    filter: MetadataFilter = Field(default=None, description=FILTER_DESCRIPTION)

    # The rules below are also checked without this class by ``contracts.fields.plain_values``
    # (``gno search``'s path without pydantic); a test pins this list of validators.
    @field_validator("query")
    @classmethod
    def _query(cls, value: str) -> str:
        problem = blank_text_error(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("*")
    @classmethod
    def _unicode(cls, value: object) -> object:
        problem = lone_surrogate_error(value)
        if problem:
            raise ValueError(problem)
        return value
