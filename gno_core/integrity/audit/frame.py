"""What every audit rule shares: the documents in scope, their source bytes and frontmatter
(each read at most once, never written), the findings with their stable ids, and the rule's
outcome."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gno_core.errors import GnoError
from gno_core.identity import make_docid

if TYPE_CHECKING:
    from gno_core.config import CollectionConfig, GnoConfig
    from gno_core.contracts.audit import AuditFinding, RuleStatus, Severity
    from gno_core.contracts.integrity_requests import AuditRequest
    from gno_core.index_handle import IndexHandle
    from gno_core.ports import FrontmatterParser, SourceTree
    from gno_core.read_values import StoredDocument

__all__ = ["MAX_DOCUMENTS", "Cancelled", "Frame", "Outcome", "Source", "finding"]

#: Documents one audit reads at most (reference facts, section 8); beyond, the report is partial.
MAX_DOCUMENTS = 10_000
#: Bytes of a source file read for its frontmatter.
FRONTMATTER_BYTES = 64 * 1024
VALUE_CHARS = 512
#: Sources read at once (reference facts, section 8).
SOURCE_READERS = 16


class Cancelled(Exception):
    """The caller cancelled the audit: the rules not finished are inconclusive."""


@dataclass(frozen=True, slots=True)
class Source:
    """What the rules read of a source file: its SHA-256 and its first 64 KiB."""

    sha256: str
    head: bytes


@dataclass(slots=True)
class Outcome:
    """One rule's result: its status, what it looked at, its findings, and why it could not
    decide (``reason``)."""

    status: RuleStatus
    checked: int = 0
    findings: list[AuditFinding] = field(default_factory=list)
    reason: str | None = None


def decide(findings: list[AuditFinding], checked: int, unknown: int, what: str) -> Outcome:
    """fail with findings; else inconclusive when ``unknown`` subjects could not be read (a
    rule never passes on evidence it lacks); else skip when nothing was in scope; else pass."""
    if findings:
        reason = f"{unknown} {what} could not be read" if unknown else None
        return Outcome("fail", checked, findings, reason)
    if unknown:
        return Outcome("inconclusive", checked, [], f"{unknown} {what} could not be read")
    if not checked:
        return Outcome("skip", 0, [], f"no {what} in scope")
    return Outcome("pass", checked)


def finding(
    rule: str,
    severity: Severity,
    doc: tuple[str, str, str | None],
    message: str,
    evidence: Iterable[tuple[str, Any]],
    guidance: Iterable[str],
    *,
    index: str,
    line: int | None = None,
    column: int | None = None,
) -> AuditFinding:
    """A finding whose id is the SHA-256 of the rule, the normalized subject and location and
    the evidence's fingerprint: the same problem has the same id in every run."""
    from gno_core.contracts.audit import (
        MAX_EVIDENCE,
        MAX_GUIDANCE,
        AuditEvidence,
        AuditFinding,
        AuditLocation,
        AuditSubject,
    )

    collection, rel_path, source_hash = doc
    items = [(k, str(v)[:VALUE_CHARS]) for k, v in evidence if v is not None][:MAX_EVIDENCE]
    print_ = hashlib.sha256(json.dumps(sorted(items)).encode()).hexdigest()
    ident = json.dumps([rule, collection, rel_path, line, column, print_])
    return AuditFinding(
        id=hashlib.sha256(ident.encode()).hexdigest(),
        rule=rule,
        severity=severity,
        subject=AuditSubject(
            uri=f"gno://{collection}/{rel_path}",
            collection=collection,
            rel_path=rel_path,
            docid=make_docid(source_hash) if source_hash else None,
        ),
        location=AuditLocation(line=line, column=column) if line is not None else None,
        message=message,
        evidence=[AuditEvidence(kind=k, value=v) for k, v in items],
        guidance=list(guidance)[:MAX_GUIDANCE],
    )


@dataclass(slots=True)
class Frame:
    """The scope of one audit and the evidence its rules read."""

    handle: IndexHandle
    tree: SourceTree
    frontmatter: FrontmatterParser
    request: AuditRequest
    cancelled: Callable[[], bool]
    config: GnoConfig
    collections: list[CollectionConfig]
    documents: list[StoredDocument]
    capped: bool = False
    #: collections whose folder could not be listed
    unlisted: set[str] = field(default_factory=set)
    _sources: dict[str, Source | GnoError] = field(default_factory=dict)
    _fronts: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    def check(self) -> None:
        if self.cancelled():
            raise Cancelled

    def in_scope(self, rel_path: str) -> bool:
        return self.request.path is None or rel_path.startswith(self.request.path)

    def source(self, doc: StoredDocument) -> Source | GnoError:
        """The document's source as the rules use it (its SHA-256 and its first 64 KiB), or
        the error reading it gave: read once, and never kept whole (10,000 sources of up to
        the ingest limit each would not fit in memory)."""
        got = self._sources.get(doc.abs_path)
        if got is None:
            try:
                data = self.tree.read(doc.abs_path, self.config.ingest.max_file_bytes)
                got = Source(hashlib.sha256(data).hexdigest(), data[:FRONTMATTER_BYTES])
            except GnoError as exc:
                got = exc
            self._sources[doc.abs_path] = got
        return got

    def prefetch(self) -> None:
        """Read every document's source, ``SOURCE_READERS`` at a time (reference facts: 16-way
        source concurrency); a cancelled audit stops reading at the next file."""
        from concurrent.futures import ThreadPoolExecutor

        def read(doc: StoredDocument) -> tuple[str, Source | GnoError] | None:
            if self.cancelled():
                return None
            try:
                data = self.tree.read(doc.abs_path, self.config.ingest.max_file_bytes)
            except GnoError as exc:
                return doc.abs_path, exc
            return doc.abs_path, Source(hashlib.sha256(data).hexdigest(), data[:FRONTMATTER_BYTES])

        todo = [d for d in self.documents if d.abs_path not in self._sources]
        with ThreadPoolExecutor(max_workers=SOURCE_READERS) as pool:
            for got in pool.map(read, todo):
                if got is not None:
                    self._sources[got[0]] = got[1]
        self.check()

    def front(self, doc: StoredDocument) -> dict[str, Any] | None:
        """The source's frontmatter (from its first 64 KiB), None without one or unreadable."""
        if doc.abs_path in self._fronts:
            return self._fronts[doc.abs_path]
        from gno_core.text.frontmatter import split_frontmatter

        got = self.source(doc)
        parsed: dict[str, Any] | None = None
        if isinstance(got, Source):
            text = got.head.decode("utf-8", "replace").replace("\r\n", "\n")
            block, _ = split_frontmatter(text)
            if block is not None:
                try:
                    parsed = dict(self.frontmatter.parse(block))
                except GnoError:
                    parsed = None
        self._fronts[doc.abs_path] = parsed
        return parsed

    def key(self, doc: StoredDocument) -> tuple[str, str, str | None]:
        return (doc.collection, doc.rel_path, doc.source_hash)
