"""The user's configuration as validated values: collections, chunking, ingest limits and the
resident gateway."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from gno_core.defaults import DEFAULT_EXCLUDES, DEFAULT_PATTERN, PREVIOUS_DEFAULT_EXCLUDES
from gno_core.errors import ValidationError
from gno_core.identity import normalize_collection_name

#: Extensions indexed as plain text when named in ``include`` (Markdown is native).
TEXT_EXTENSIONS: frozenset[str] = frozenset(
    ".md .markdown .mdx .txt .text .rst .org .adoc .csv .tsv .log .json .yaml .yml .toml .ini "
    ".cfg .py .pyi .js .jsx .ts .tsx .mjs .cjs .go .rs .java .kt .kts .swift .c .h .cc .cpp .hpp "
    ".cs .rb .php .pl .lua .sh .bash .zsh .fish .sql .r .scala .clj .ex .exs .erl .hs .ml .dart "
    ".vue .svelte .html .htm .css .scss .xml .tex .bib".split()
)


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", defer_build=True
    )


class CollectionConfig(_Model):
    name: str
    path: str  # absolute, resolved when added
    pattern: str = DEFAULT_PATTERN
    include: tuple[str, ...] = ()  # extra extensions, e.g. (".txt", ".py")
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    #: Also a memory: accepts remember and recall; its ``facts/**/mem-*.md`` files are fact
    #: records (``gno_core.memory``). Otherwise an ordinary collection.
    memory_managed: bool = False
    #: ``egressPolicy``: where this collection's content may go by configuration. It can only
    #: narrow: the effective policy is the stricter of this and the explicit policy set by a
    #: confirmed change (``gno collection policy set``), and ``local_only`` while none is set
    #: (``docs/reference/egress.md``).
    egress_policy: Literal["local_only", "lan", "remote"] | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        try:
            return normalize_collection_name(value)
        except ValidationError as exc:
            raise ValueError(exc.message) from exc

    @field_validator("exclude")
    @classmethod
    def _exclude(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        # A list saved by an earlier release's default follows the default as it grows.
        return DEFAULT_EXCLUDES if tuple(value) in PREVIOUS_DEFAULT_EXCLUDES else tuple(value)

    @field_validator("include")
    @classmethod
    def _include(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        out = []
        for raw in value:
            ext = raw.strip().lower()
            if ext:
                out.append(ext if ext.startswith(".") else "." + ext)
        return tuple(dict.fromkeys(out))


class ChunkingConfig(_Model):
    max_tokens: int = Field(default=800, ge=10, le=100_000)
    overlap_percent: float = Field(default=15.0, ge=0, le=50)

    def policy_key(self) -> str:
        """The policy as the index records it on each document its chunks were made with."""
        return f"{self.max_tokens}:{float(self.overlap_percent)!r}"

    @classmethod
    def from_policy_key(cls, key: str) -> ChunkingConfig:
        tokens, overlap = key.split(":", 1)
        return cls(max_tokens=int(tokens), overlap_percent=float(overlap))


#: The policy of documents indexed before gno recorded one: the defaults, the only policy gno
#: chunked with until then (``legacy-default`` in ``gno status``).
LEGACY_CHUNKING_KEY = "800:15.0"


class IngestConfig(_Model):
    max_file_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    batch_size: int = Field(default=500, ge=1, le=100_000)
    #: Bounds of one conversion (PDF, DOCX, XLSX, PPTX, HTML, ODT), enforced in the converter
    #: process: wall-clock seconds, address space, pages or slides, workbook cells, and the
    #: bytes a zip-based document may inflate to.
    convert_seconds: float = Field(default=30.0, gt=0, le=3600)
    convert_memory_mb: int = Field(default=1024, ge=128, le=1024 * 1024)
    max_pages: int = Field(default=2000, ge=1)
    max_cells: int = Field(default=2_000_000, ge=1)
    max_unzipped_bytes: int = Field(default=256 * 1024 * 1024, ge=1024)


class GatewayConfig(_Model):
    """The resident HTTP gateway (``gno serve`` / ``gno daemon``); flags override each key.
    Read once when the listener starts."""

    host: str = "127.0.0.1"
    port: int = Field(default=3000, ge=0, le=65535)
    tool_profile: Literal["core", "full"] = "full"
    enable_write: bool = False
    #: Bearer token file (owner-only); a configured path that is missing is generated.
    token_file: str | None = None
    #: Exact ``Host`` values and HTTP(S) ``Origin`` values accepted besides the loopback defaults.
    allowed_hosts: list[str] = Field(default_factory=list)
    allowed_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    #: Requests per minute per socket peer; 0 turns the limit off.
    rate_limit_per_minute: int = Field(default=120, ge=0)
    max_active_requests: int = Field(default=64, ge=1)
    max_queued_requests: int = Field(default=16, ge=0)
    max_sessions: int = Field(default=32, ge=1)
    session_idle_seconds: float = Field(default=300.0, gt=0)
    #: Requests in flight at once per socket peer; 0 turns the cap off.
    max_connections_per_peer: int = Field(default=16, ge=0)
    #: Seconds for a request body to arrive whole (408 after), and for request headers to.
    body_timeout_seconds: float = Field(default=10.0, gt=0)
    header_timeout_seconds: float = Field(default=5.0, gt=0)
    #: Seconds between keep-alive comments on a 2025-era GET stream (each one also rechecks
    #: the egress epoch of a stream beyond loopback).
    keepalive_seconds: float = Field(default=15.0, gt=0)


class GenerationConfig(_Model):
    """The chat endpoint ``gno ask`` drafts answers with. Unset: the built-in extractive
    generator, which needs no model. ``endpoint`` is an OpenAI-compatible base URL such as
    ``http://127.0.0.1:8080/v1``; the API key, when one is needed, is read from the environment
    variable named by ``api_key_env``, never from this file.

    ``verifier`` chooses Ask's semantic claim verifier: ``auto`` (the endpoint when one is
    configured, else the local NLI model when it is pulled, else none), ``endpoint``, ``nli``
    or ``none``. Without one, Ask abstains."""

    endpoint: str | None = None
    model: str = "default"
    api_key_env: str | None = None
    timeout_seconds: float = Field(default=60.0, gt=0, le=600)
    verifier: Literal["auto", "endpoint", "nli", "none"] = "auto"


class TraceRetentionConfig(_Model):
    """Bounds of the retrieval-trace store (reference numbers: 30 days, 1,000 traces, 10,000
    records per trace, 16 MiB; never under 64 KiB)."""

    max_age_days: float = Field(default=30.0, gt=0, le=3650)
    max_traces: int = Field(default=1000, ge=1, le=1_000_000)
    max_records_per_trace: int = Field(default=10_000, ge=1, le=1_000_000)
    max_bytes: int = Field(default=16 * 1024 * 1024, ge=64 * 1024)


class RetrievalTracesConfig(_Model):
    """Private receipts of what was searched and opened (``gno_core.traces``); off by default.
    ``metadata`` keeps a digest and the shape of each query, never its text; ``replay`` keeps
    the text too, so ``gno trace replay`` can run the query again."""

    enabled: bool = False
    redaction_mode: Literal["metadata", "replay"] = "metadata"
    retention: TraceRetentionConfig = Field(default_factory=TraceRetentionConfig)


class GnoConfig(_Model):
    version: int = 1
    collections: list[CollectionConfig] = Field(default_factory=list)
    chunking: ChunkingConfig = Field(default_factory=ChunkingConfig)
    ingest: IngestConfig = Field(default_factory=IngestConfig)
    gateway: GatewayConfig = Field(default_factory=GatewayConfig)
    generation: GenerationConfig = Field(default_factory=GenerationConfig)
    retrieval_traces: RetrievalTracesConfig = Field(default_factory=RetrievalTracesConfig)

    def collection(self, name: str) -> CollectionConfig | None:
        key = name.strip().lower()
        return next((c for c in self.collections if c.name == key), None)

    def known_collections(self) -> str:
        """The tail of a "no such collection" message: the names there are, or how to add one."""
        if not self.collections:
            return "(no collections yet: gno collection add <folder>)"
        return f"(collections: {', '.join(c.name for c in self.collections)})"
