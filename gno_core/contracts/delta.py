"""``changes@1.0`` (the change journal, metadata only), ``changes-follow-event@1.0`` (one line
of ``gno changes --follow --json``) and ``document-diff@1.0`` (one document's structural diff
for a change). None ever holds a document body."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

ChangeKind = Literal["create", "update", "rename", "inactivate", "reactivate"]
CURSOR_PATTERN = r"^gno-change-v1\.[A-Za-z0-9_-]+$"


class ChangeSnapshot(WireModel):
    """A document as the index held it at one side of a change."""

    docid: str = Field(pattern=r"^#[0-9a-f]{6,8}$")
    uri: str
    collection: str
    rel_path: str
    source_hash: str
    mirror_hash: str
    title: str | None = None
    active: bool


class SetDelta(WireModel):
    added: list[str] = Field(max_length=16)
    removed: list[str] = Field(max_length=16)


class StructureDelta(WireModel):
    """What came and went; ``truncated`` when a side passed the cap of 16 values or the prior
    structure was not known (``previousKnown`` false: indexed before the journal)."""

    headings: SetDelta
    links: SetDelta
    edges: SetDelta
    dates: SetDelta
    truncated: bool
    previous_known: bool


class ChangeEntry(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"previous", "current"})

    id: str = Field(pattern=CURSOR_PATTERN)
    kind: ChangeKind
    collection: str
    observed_at: str
    previous: ChangeSnapshot | None
    current: ChangeSnapshot | None
    structure_delta: StructureDelta


class ChangesPage(WireModel):
    """``nextCursor``: pass as ``since`` for the entries after this page (the same cursor when
    there are none yet); ``earliestCursor``: before the oldest kept entry; ``latestCursor``:
    after the newest. ``cursorExpired``: retention dropped entries after the given cursor (the
    page starts at the oldest kept). ``truncated``: more entries follow. ``retentionTruncated``:
    the requested time is older than the history kept."""

    next_cursor: str = Field(pattern=CURSOR_PATTERN)
    earliest_cursor: str = Field(pattern=CURSOR_PATTERN)
    latest_cursor: str = Field(pattern=CURSOR_PATTERN)
    cursor_expired: bool
    truncated: bool
    retention_truncated: bool


class ChangesResult(WireModel):
    changes: list[ChangeEntry]
    page: ChangesPage
    warnings: list[str] = Field(default_factory=list)


class ChangesFollowEvent(WireModel):
    """One line of ``gno changes --follow --json``. ``change``: one journal entry, newest last,
    each exactly once; ``cursor`` is its id, the ``--since`` that resumes right after it.
    ``cursorExpired``: retention (or a rebuilt index) dropped entries the follower had not read
    yet, so the stream cannot go on without a gap; it is the last line (exit 2). ``cursor`` is
    the position the follower had reached, ``earliestCursor`` where the kept history starts
    now, and ``warnings`` say what happened."""

    event: Literal["change", "cursorExpired"]
    cursor: str = Field(pattern=CURSOR_PATTERN)
    change: ChangeEntry | None = None
    earliest_cursor: str | None = Field(default=None, pattern=CURSOR_PATTERN)
    warnings: list[str] = Field(default_factory=list)


class DiffDocument(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"title"})

    id: str
    uri: str
    title: str | None
    collection: str
    rel_path: str
    active: bool


class DiffContent(WireModel):
    """Bodies are never kept: the diff is structural."""

    status: Literal["not_retained"] = "not_retained"
    reason: Literal["journal_metadata_only"] = "journal_metadata_only"


class DiffHistory(WireModel):
    status: Literal["available", "partial", "unavailable"]
    reason: str | None = None


class DocumentDiff(WireModel):
    """``status``: ``available`` (the change is kept), ``expired`` (retention dropped it) or
    ``unavailable`` (the journal has no change of this document)."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"change"})

    status: Literal["available", "expired", "unavailable"]
    document: DiffDocument
    change: ChangeEntry | None
    content: DiffContent = Field(default_factory=DiffContent)
    history: DiffHistory
    warnings: list[str] = Field(default_factory=list)
