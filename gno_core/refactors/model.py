"""What a refactor plan is made of: the notes it read, the references it examined, the edits
and file changes it would make, and what blocks it."""

from __future__ import annotations

from dataclasses import dataclass, field

from gno_core.config import CollectionConfig
from gno_core.domain import ExtractedLink, NameKey
from gno_core.ports.refactors import FileChange
from gno_core.refactors.text import Edit, RawText

__all__ = ["Note", "Plan", "Reference"]


@dataclass(slots=True)
class Reference:
    """One examined link: where it is (``source_path`` before the operation, 1-based position
    of the link there), where its edit lands, and its classification and reason code."""

    collection: str
    source_path: str
    destination_path: str
    line: int
    column: int
    end_column: int
    link_type: str
    form: str
    classification: str
    reason_code: str | None = None
    edit: Edit | None = None
    seq: int = -1


@dataclass(slots=True)
class Note:
    """A note the plan reads: its bytes, their hash, its lines and links."""

    collection: CollectionConfig
    rel_path: str
    data: bytes
    sha256: str
    raw: RawText | None
    links: tuple[ExtractedLink, ...] = ()
    names: tuple[NameKey, ...] = ()
    stale: bool = False
    #: The code of its ingest failure: a note sync could not index, read as text.
    failed: str | None = None
    #: Its links reached ``reading.SCAN_MAX_LINKS``: the ones past it are not examined.
    truncated: bool = False


@dataclass(slots=True)
class Plan:
    operation: str
    collection: CollectionConfig
    source: str
    target: str
    references: list[Reference] = field(default_factory=list)
    notes: dict[tuple[str, str], Note] = field(default_factory=dict)
    blockers: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    changes: list[FileChange] = field(default_factory=list)
    after: dict[tuple[str, str], bytes] = field(default_factory=dict)

    def block(self, code: str) -> None:
        if code not in self.blockers:
            self.blockers.append(code)
