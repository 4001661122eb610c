"""Evidence requests: Context Capsules, sections, query diagnose and Ask (``Gno.context``,
``Gno.section``, ``Gno.query_diagnose``, ``Gno.ask``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from gno_core.contracts.metadata import FILTER_DESCRIPTION
from gno_core.contracts.requests import (
    MAX_QUERY_MODES,
    Cli,
    QueryMode,
    QueryRequest,
    Request,
)
from gno_core.contracts.search_request import MetadataFilter
from gno_core.text.validity import has_lone_surrogate

#: Bounds of the evidence requests (Context Capsule, Ask): goal text, filter lists and budgets.
MAX_GOAL_CHARS = 16_384
MAX_EVIDENCE_FILTER_ITEMS = 128
MAX_BUDGET_TOKENS = 200_000
MAX_BUDGET_BYTES = 4 * MAX_BUDGET_TOKENS

#: Fields the Context Capsule and Ask requests take alike.
QueryModes = Annotated[
    list[QueryMode],
    Field(default_factory=list, max_length=MAX_QUERY_MODES, description="Typed retrieval entries"),
    Cli(flags=("--query-mode",), repeat=True, metavar="MODE:TEXT", help="term/intent/hyde"),
]
TagsAll = Annotated[
    list[str],
    Field(
        default_factory=list, max_length=MAX_EVIDENCE_FILTER_ITEMS, description="Require all tags"
    ),
    Cli(help="documents with all of these tags"),
]
TagsAny = Annotated[
    list[str],
    Field(
        default_factory=list, max_length=MAX_EVIDENCE_FILTER_ITEMS, description="Require any tag"
    ),
    Cli(help="documents with any of these tags"),
]


class ContextRequest(Request):
    """Compile a Context Capsule for one goal under a token (and byte) budget
    (``Gno.context``)."""

    goal: Annotated[str, Cli(help="what the evidence is for")] = Field(
        max_length=MAX_GOAL_CHARS, description="What the evidence is for (facets come from it)"
    )
    budget_tokens: Annotated[
        int, Cli(flags=("--budget",), help="token budget of the whole capsule (required)")
    ] = Field(
        ge=1,
        le=MAX_BUDGET_TOKENS,
        description="Token budget of the complete canonical capsule",
    )
    query: Annotated[str | None, Cli(help="retrieval text (default: the goal)")] = Field(
        default=None, max_length=MAX_GOAL_CHARS, description="Retrieval query (defaults to goal)"
    )
    collections: Annotated[
        list[str], Cli(flags=("-c", "--collection"), repeat=True, help="collection (repeatable)")
    ] = Field(
        default_factory=list,
        max_length=MAX_EVIDENCE_FILTER_ITEMS,
        description="Collections to draw evidence from (default: all)",
    )
    uri_prefix: Annotated[str | None, Cli(help="only evidence under this gno:// prefix")] = Field(
        default=None, max_length=2048, description="Only evidence whose URI starts with this"
    )
    query_modes: QueryModes
    tags_all: TagsAll
    tags_any: TagsAny
    categories: Annotated[list[str], Cli(flags=("--category",), metavar="CATEGORY")] = Field(
        default_factory=list,
        max_length=MAX_EVIDENCE_FILTER_ITEMS,
        description="Only docs matching any category/content type",
    )
    author: Annotated[str | None, Cli(help="author contains this text")] = Field(
        default=None, max_length=256, description="Only docs whose author contains this"
    )
    lang: Annotated[str | None, Cli(help="language code of the documents")] = Field(
        default=None, max_length=256, description="Language filter (BCP-47 code)"
    )
    intent: Annotated[str | None, Cli(help="disambiguating context (not searched)")] = Field(
        default=None, max_length=MAX_GOAL_CHARS, description="Disambiguating context"
    )
    exclude: Annotated[list[str], Cli(help="drop documents containing these terms")] = Field(
        default_factory=list,
        max_length=MAX_EVIDENCE_FILTER_ITEMS,
        description="Drop docs containing any excluded term",
    )
    min_score: Annotated[float | None, Cli(help="drop results scoring below this (0-1)")] = Field(
        default=None, ge=0, le=1, description="Minimum retrieval score (0-1)"
    )
    since: Annotated[str | None, Cli(help="modified at or after (ISO date or 7d ...)")] = Field(
        default=None, max_length=256, description="Modified-at lower bound"
    )
    until: Annotated[str | None, Cli(help="modified before (same forms as --since)")] = Field(
        default=None, max_length=256, description="Modified-at upper bound"
    )
    graph: Annotated[bool, Cli(help="no graph neighbour expansion")] = Field(
        default=True, description="Request bounded graph expansion"
    )
    no_rerank: Annotated[bool, Cli(help="skip the cross-encoder")] = Field(
        default=False, description="Skip reranking"
    )
    limit: Annotated[int, Cli(flags=("-n", "--limit"), help="documents retrieved (default 20)")] = (
        Field(default=20, ge=1, le=100, description="Documents admitted from retrieval (1-100)")
    )
    candidate_limit: Annotated[
        int, Cli(flags=("-C", "--candidate-limit"), help="rerank candidates (default 40)")
    ] = Field(default=40, ge=1, le=100, description="Candidates for reranking (1-100)")
    budget_bytes: Annotated[int | None, Cli(flags=("--bytes",), help="byte budget")] = Field(
        default=None,
        ge=1,
        le=MAX_BUDGET_BYTES,
        description="Byte budget of the complete capsule (default 4 x budgetTokens)",
    )
    safety_margin_tokens: Annotated[int, Cli(help="tokens kept free")] = Field(
        default=0, ge=0, description="Tokens kept free inside budgetTokens"
    )
    safety_margin_bytes: Annotated[int, Cli(help="bytes kept free")] = Field(
        default=0, ge=0, description="Bytes kept free inside the byte budget"
    )
    depth_policy: Annotated[
        Literal["fast", "balanced", "thorough"], Cli(help="fast, balanced or thorough")
    ] = Field(default="balanced", description="Retrieval depth")
    format: Annotated[Literal["json", "md"], Cli(help="json or md (the CLI's output)")] = Field(
        default="json", description="Compatibility output format (MCP text stays compact JSON)"
    )
    filter: MetadataFilter = Field(default=None, description=FILTER_DESCRIPTION)

    @field_validator("goal")
    @classmethod
    def _goal(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("goal must not be empty")
        return value

    @field_validator("*")
    @classmethod
    def _unicode(cls, value: object) -> object:
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(t, str) and has_lone_surrogate(t) for t in texts):
            raise ValueError("text must be valid Unicode (it holds a lone UTF-16 surrogate)")
        if any(isinstance(t, str) and len(t) > 256 for t in texts if isinstance(value, list)):
            raise ValueError("filter values hold at most 256 characters")
        return value


class _Closed(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", defer_build=True
    )

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


class TargetDocument(_Closed):
    uri: str = Field(min_length=1, max_length=2048)


class TargetQuote(_Closed):
    exact: str = Field(max_length=4096)
    prefix: str = Field(max_length=256)
    suffix: str = Field(max_length=256)


class TargetHints(_Closed):
    line: int = Field(ge=1)
    start_offset: int = Field(ge=0)
    end_offset: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> TargetHints:
        if self.end_offset < self.start_offset:
            raise ValueError("hints.endOffset must not be before hints.startOffset")
        return self


class SectionTarget(_Closed):
    """``SectionTargetV1``: a durable locator of one heading's span (``gno_section``)."""

    schema_version: Literal["1"]
    document: TargetDocument
    anchor: str = Field(min_length=1, max_length=512)
    heading_path: list[str] = Field(max_length=6)
    occurrence: int = Field(ge=1)
    quote: TargetQuote
    source_fingerprint: str = Field(pattern=r"^[0-9a-f]{64}$")
    hints: TargetHints


class SectionRequest(Request):
    """Create or resolve a section target in one document (``Gno.section``)."""

    action: Annotated[Literal["create", "resolve"], Cli(help="create or resolve")]
    ref: Annotated[str, Cli(help="gno:// URI, collection/path or #docid")] = Field(
        min_length=1, max_length=2048, description="Document reference"
    )
    anchor: Annotated[str | None, Cli(help="heading text or slug (create)")] = Field(
        default=None, min_length=1, max_length=512, description="Heading text or slug (create)"
    )
    line: Annotated[int | None, Cli(help="1-based heading line (create)")] = Field(
        default=None, ge=1, description="1-based heading line (create)"
    )
    target: Annotated[SectionTarget | None, Cli(skip=True)] = Field(
        default=None, description="A SectionTargetV1 to resolve"
    )

    @model_validator(mode="after")
    def _branch(self) -> SectionRequest:
        if self.action == "create":
            if (self.anchor is None) == (self.line is None):
                raise ValueError("create takes exactly one of anchor or line")
            if self.target is not None:
                raise ValueError("create takes no target")
        else:
            if self.target is None:
                raise ValueError("resolve needs a target")
            if self.anchor is not None or self.line is not None:
                raise ValueError("resolve takes no anchor or line")
        return self


class DiagnoseRequest(QueryRequest):
    """``query`` controls plus the document to diagnose (``Gno.query_diagnose``)."""

    target: Annotated[str, Cli(skip=True)] = Field(
        min_length=1,
        max_length=2048,
        description="URI, #docid, or collection/path of the document to diagnose",
    )


class AskRequest(Request):
    """A verified answer from a closed Context Capsule (``Gno.ask``); ``verify`` must be the
    literal ``true``: an unverified answer is never produced."""

    query: Annotated[str, Cli(help="the question")] = Field(
        max_length=MAX_GOAL_CHARS, description="The question to answer from the notes"
    )
    verify: Annotated[Literal[True], Cli(skip=True)] = Field(
        description="Must be true: every claim is checked against the capsule"
    )
    collection: Annotated[str | None, Cli(flags=("-c", "--collection"))] = Field(
        default=None, description="Only this collection"
    )
    limit: Annotated[int, Cli(flags=("-n", "--limit"), help="documents (default 5)")] = Field(
        default=5, ge=1, le=100, description="Documents admitted into the capsule (1-100)"
    )
    min_score: Annotated[float | None, Cli(help="minimum retrieval score")] = Field(
        default=None, ge=0, le=1, description="Minimum retrieval score (0-1)"
    )
    lang: Annotated[str | None, Cli(help="language code")] = Field(
        default=None, max_length=256, description="Language filter (BCP-47 code)"
    )
    intent: Annotated[str | None, Cli(help="disambiguating context")] = Field(
        default=None, max_length=MAX_GOAL_CHARS, description="Disambiguating context"
    )
    candidate_limit: Annotated[int | None, Cli(flags=("-C", "--candidate-limit"))] = Field(
        default=None, ge=1, le=100, description="Candidates for reranking (1-100)"
    )
    exclude: Annotated[list[str], Cli(help="drop documents containing these terms")] = Field(
        default_factory=list, max_length=MAX_EVIDENCE_FILTER_ITEMS, description="Excluded terms"
    )
    query_modes: QueryModes
    tags_all: TagsAll
    tags_any: TagsAny
    since: Annotated[str | None, Cli(help="modified at or after")] = Field(
        default=None, max_length=256, description="Modified-at lower bound"
    )
    until: Annotated[str | None, Cli(help="modified before")] = Field(
        default=None, max_length=256, description="Modified-at upper bound"
    )
    categories: Annotated[list[str], Cli(flags=("--category",), metavar="CATEGORY")] = Field(
        default_factory=list, max_length=MAX_EVIDENCE_FILTER_ITEMS, description="Categories"
    )
    author: Annotated[str | None, Cli(help="author contains this text")] = Field(
        default=None, max_length=256, description="Author contains this value"
    )
    graph: Annotated[bool, Cli(help="no graph neighbour expansion")] = Field(
        default=True, description="Request bounded graph expansion"
    )
    no_graph: Annotated[bool, Cli(skip=True)] = Field(
        default=False, description="Disable graph expansion"
    )
    no_rerank: Annotated[bool, Cli(help="skip the cross-encoder")] = Field(
        default=False, description="Skip reranking"
    )
    explain: Annotated[
        bool, Cli(help="(accepted; the verification receipt is the explanation)")
    ] = Field(default=False, description="Accepted for gno_query parity")
    max_answer_tokens: Annotated[int, Cli(help="answer length ceiling (default 512)")] = Field(
        default=512, ge=16, le=8192, description="Answer token ceiling"
    )
    context_budget_tokens: Annotated[int, Cli(help="capsule budget (default 12000)")] = Field(
        default=12_000, ge=1, le=MAX_BUDGET_TOKENS, description="Capsule token budget"
    )
    context_budget_bytes: Annotated[int | None, Cli(help="capsule byte budget")] = Field(
        default=None, ge=1, le=MAX_BUDGET_BYTES, description="Capsule byte budget"
    )
    filter: MetadataFilter = Field(default=None, description=FILTER_DESCRIPTION)

    @field_validator("query")
    @classmethod
    def _question(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("query must not be empty")
        return value
