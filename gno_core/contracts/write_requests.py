"""Request models of the write surface: capture, collections and folders, sync/embed/index
jobs and job polling (shared by MCP, the CLI, REST and Python). Field order is the order the
MCP ``inputSchema`` lists them in (the spec's)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import Field, field_validator

from gno_core.contracts.requests import Request

#: At most this many tags per capture, and this long each (before normalization).
MAX_TAGS = 64
MAX_TAG_CHARS = 200
MAX_PATH_CHARS = 1024
MAX_TITLE_CHARS = 500
MAX_META_CHARS = 2048

CollisionPolicy = Literal["error", "open_existing", "create_with_suffix"]
PresetId = Literal[
    "blank",
    "project-note",
    "research-note",
    "decision-note",
    "prompt-pattern",
    "source-summary",
    "idea-original",
    "person",
    "company-project",
    "meeting",
]
SourceKind = Literal["direct", "web", "email", "meeting", "chat", "file", "api", "unknown"]
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")


def _date_time(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(f"not an ISO 8601 date-time: {value[:80]!r}") from exc
    return parsed.isoformat()


class CaptureSourceInput(Request):
    """Provenance of a capture, written under ``source:`` in the note's frontmatter."""

    kind: SourceKind | None = None
    title: str | None = Field(default=None, max_length=MAX_META_CHARS)
    url: str | None = Field(
        default=None, max_length=MAX_META_CHARS, json_schema_extra={"format": "uri"}
    )
    uri: str | None = Field(default=None, max_length=MAX_META_CHARS)
    docid: str | None = Field(default=None, max_length=MAX_META_CHARS)
    mime: str | None = Field(default=None, max_length=MAX_META_CHARS)
    ext: str | None = Field(default=None, max_length=MAX_META_CHARS)
    author: str | None = Field(default=None, max_length=MAX_META_CHARS)
    observed_at: str | None = Field(default=None, json_schema_extra={"format": "date-time"})
    captured_at: str | None = Field(default=None, json_schema_extra={"format": "date-time"})
    external_id: str | None = Field(default=None, max_length=MAX_META_CHARS)

    @field_validator("url")
    @classmethod
    def _uri(cls, value: str | None) -> str | None:
        if value is not None and not _URI.match(value):
            raise ValueError("url must be an absolute URI (scheme:...)")
        return value

    @field_validator("observed_at", "captured_at")
    @classmethod
    def _dates(cls, value: str | None) -> str | None:
        return _date_time(value)


class CaptureRequest(Request):
    """A new note in a collection (``Gno.capture``)."""

    collection: str = Field(description="Target collection name")
    content: str | None = Field(
        default=None,
        description="Document content (markdown). Optional when presetId provides the scaffold.",
    )
    title: str | None = Field(
        default=None,
        max_length=MAX_TITLE_CHARS,
        description="Optional title used for filename generation",
    )
    path: str | None = Field(
        default=None,
        max_length=MAX_PATH_CHARS,
        description="Optional relative path within the collection",
    )
    folder_path: str | None = Field(
        default=None,
        max_length=MAX_PATH_CHARS,
        description="Optional folder path within the collection",
    )
    collision_policy: CollisionPolicy | None = Field(
        default=None, description="How to handle name collisions"
    )
    preset_id: PresetId | None = Field(default=None, description="Optional note preset scaffold")
    overwrite: bool = Field(default=False, description="Overwrite existing file if true")
    tags: list[str] = Field(
        default_factory=list, max_length=MAX_TAGS, description="Tags to apply to the document"
    )
    source: CaptureSourceInput | None = Field(
        default=None,
        description="Optional provenance metadata; written under structured source frontmatter",
    )

    @field_validator("tags")
    @classmethod
    def _tag_length(cls, value: list[str]) -> list[str]:
        for tag in value:
            if len(tag) > MAX_TAG_CHARS:
                raise ValueError(f"a tag is at most {MAX_TAG_CHARS} characters")
        return value


class AddCollectionRequest(Request):
    """A folder to register as a collection and index (``gno_add_collection``)."""

    path: str = Field(max_length=MAX_PATH_CHARS, description="Absolute or ~-expanded folder path")
    name: str | None = Field(
        default=None, description="Optional collection name (defaults to folder name)"
    )
    pattern: str | None = Field(default=None, description="Glob pattern (default: **/*.md)")
    include: list[str] = Field(
        default_factory=list, max_length=100, description="Additional include patterns"
    )
    exclude: list[str] = Field(default_factory=list, max_length=100, description="Exclude patterns")
    git_pull: bool = Field(default=False, description="Run git pull before indexing")


class CreateFolderRequest(Request):
    collection: str
    name: str = Field(max_length=255)
    parent_path: str | None = Field(default=None, max_length=MAX_PATH_CHARS)


class RemoveCollectionRequest(Request):
    collection: str = Field(description="Collection name to remove")


class SyncRequest(Request):
    collection: str | None = Field(default=None, description="Collection to sync (all if omitted)")
    git_pull: bool = Field(default=False, description="Run git pull before indexing")
    run_update_cmd: bool = Field(
        default=False, description="Run updateCmd before indexing (default: false for MCP)"
    )


class EmbedRequest(Request):
    collection: str | None = Field(default=None, description="Optional collection name to embed")


class ClearEmbeddingsRequest(Request):
    collection: str = Field(description="Collection name")
    mode: Literal["stale", "all"] = "stale"


class IndexRequest(Request):
    collection: str | None = Field(default=None, description="Collection to index (all if omitted)")
    git_pull: bool = Field(default=False, description="Run git pull before sync")


class JobStatusRequest(Request):
    job_id: str = Field(max_length=128, description="Job identifier")


class ListJobsRequest(Request):
    limit: int = Field(default=10, ge=1, le=100, description="Max recent jobs to return")
