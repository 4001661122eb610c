"""The user's configuration as validated values: collections, chunking and ingest limits."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from gno_core.defaults import DEFAULT_EXCLUDES, DEFAULT_PATTERN
from gno_core.errors import ValidationError
from gno_core.identity import normalize_collection_name

#: Extensions indexed as plain text when named in ``include`` (Markdown is native).
TEXT_EXTENSIONS: frozenset[str] = frozenset(
    [
        ".md",
        ".markdown",
        ".mdx",
        ".txt",
        ".text",
        ".rst",
        ".org",
        ".adoc",
        ".csv",
        ".tsv",
        ".log",
        ".json",
        ".yaml",
        ".yml",
        ".toml",
        ".ini",
        ".cfg",
        ".py",
        ".pyi",
        ".js",
        ".jsx",
        ".ts",
        ".tsx",
        ".mjs",
        ".cjs",
        ".go",
        ".rs",
        ".java",
        ".kt",
        ".kts",
        ".swift",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".rb",
        ".php",
        ".pl",
        ".lua",
        ".sh",
        ".bash",
        ".zsh",
        ".fish",
        ".sql",
        ".r",
        ".scala",
        ".clj",
        ".ex",
        ".exs",
        ".erl",
        ".hs",
        ".ml",
        ".dart",
        ".vue",
        ".svelte",
        ".html",
        ".htm",
        ".css",
        ".scss",
        ".xml",
        ".tex",
        ".bib",
    ]
)


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class CollectionConfig(_Model):
    name: str
    path: str  # absolute, resolved when added
    pattern: str = DEFAULT_PATTERN
    include: tuple[str, ...] = ()  # extra extensions, e.g. (".txt", ".py")
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        try:
            return normalize_collection_name(value)
        except ValidationError as exc:
            raise ValueError(exc.message) from exc

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


class IngestConfig(_Model):
    max_file_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    batch_size: int = Field(default=500, ge=1, le=100_000)


class GnoConfig(_Model):
    version: int = 1
    collections: list[CollectionConfig] = Field(default_factory=list)
    chunking: ChunkingConfig = Field(default_factory=ChunkingConfig)
    ingest: IngestConfig = Field(default_factory=IngestConfig)

    def collection(self, name: str) -> CollectionConfig | None:
        key = name.strip().lower()
        return next((c for c in self.collections if c.name == key), None)
