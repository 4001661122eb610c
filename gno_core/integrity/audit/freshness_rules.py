"""The ``freshness.*`` rules: every indexed source can still be read (``source-readable``),
its bytes are the ones indexed and every matching file is indexed (``source-index-drift``),
the index was built by this gno and finished resolving (``index-revision``), and, with a
``maxAgeDays`` policy, documents older than it (``configured-age-signal``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from gno_core.errors import GnoError
from gno_core.integrity.audit.frame import Frame, Outcome, decide, finding

if TYPE_CHECKING:
    from gno_core.contracts.audit import AuditFinding

__all__ = ["configured_age_signal", "index_revision", "source_index_drift", "source_readable"]

READ_CODES = frozenset({"UNREADABLE", "TOO_LARGE"})


def source_readable(frame: Frame) -> Outcome:
    found: list[AuditFinding] = []
    checked = 0
    for doc in frame.documents:
        frame.check()
        checked += 1
        got = frame.source(doc)
        if isinstance(got, GnoError):
            code = str(got.details.get("code") or got.code)
            found.append(
                finding(
                    "freshness.source-readable",
                    "error",
                    frame.key(doc),
                    f"The indexed source cannot be read ({code}): search answers from a file "
                    "that is gone or unreadable",
                    [("code", code), ("path", doc.abs_path), ("error", got.message)],
                    [
                        "Restore the file, or run gno update to drop it from the index",
                        "Check the file's permissions",
                    ],
                    index=frame.handle.name,
                )
            )
    for coll in frame.collections:
        for failure in frame.handle.index.ledger.failures(coll.name):
            if failure.code not in READ_CODES or not frame.in_scope(failure.rel_path):
                continue
            checked += 1
            found.append(
                finding(
                    "freshness.source-readable",
                    "error",
                    (failure.collection, failure.rel_path, failure.source_hash),
                    f"The last sync could not read this file ({failure.code})",
                    [("code", failure.code), ("message", failure.message)],
                    ["Fix the file's permissions or size, then run gno update"],
                    index=frame.handle.name,
                )
            )
    return decide(found, checked, 0, "sources")


def source_index_drift(frame: Frame) -> Outcome:
    found: list[AuditFinding] = []
    checked = unknown = 0
    for doc in frame.documents:
        frame.check()
        got = frame.source(doc)
        if isinstance(got, GnoError):
            unknown += 1
            continue
        checked += 1
        now = got.sha256
        if now != doc.source_hash:
            found.append(
                finding(
                    "freshness.source-index-drift",
                    "warning",
                    frame.key(doc),
                    "The file changed since it was indexed: answers quote the old text",
                    [
                        ("indexedHash", doc.source_hash),
                        ("sourceHash", now),
                        ("indexedAt", doc.indexed_at),
                    ],
                    ["Run gno update (or keep gno watch running)"],
                    index=frame.handle.name,
                )
            )
    if frame.request.tag is None:
        for coll in frame.collections:
            frame.check()
            known = frame.handle.index.ledger.source_states(coll.name)
            try:
                files = list(frame.tree.walk(coll.path, coll.pattern, coll.include, coll.exclude))
            except GnoError:
                frame.unlisted.add(coll.name)
                unknown += 1
                continue
            for f in files:
                if not frame.in_scope(f.rel_path) or f.rel_path in known:
                    continue
                checked += 1
                found.append(
                    finding(
                        "freshness.source-index-drift",
                        "warning",
                        (coll.name, f.rel_path, None),
                        "A file of the collection is not indexed yet",
                        [("path", f.abs_path), ("size", f.size)],
                        ["Run gno update"],
                        index=frame.handle.name,
                    )
                )
    # A deleted source is a source-readable finding; here it is unknown, never "in sync".
    return decide(found, checked, unknown, "sources")


def index_revision(frame: Frame) -> Outcome:
    from gno_core.domain import INGEST_VERSION

    found: list[AuditFinding] = []
    in_scope = {(d.collection, d.rel_path): d for d in frame.documents}
    checked = 0
    for coll in frame.collections:
        for state in frame.handle.index.ledger.source_states(coll.name).values():
            doc = in_scope.get((coll.name, state.rel_path))
            if doc is None or not state.active:
                continue
            checked += 1
            if state.ingest_version < INGEST_VERSION:
                found.append(
                    finding(
                        "freshness.index-revision",
                        "warning",
                        frame.key(doc),
                        f"Indexed by an older gno (ingest version {state.ingest_version}, "
                        f"now {INGEST_VERSION}): links, chunks or metadata may differ",
                        [("ingestVersion", state.ingest_version), ("current", INGEST_VERSION)],
                        ["Run gno update: it extracts the document again"],
                        index=frame.handle.name,
                    )
                )
    pending = frame.handle.index.links.counts(None).pending
    if pending and frame.documents:
        doc = frame.documents[0]
        found.append(
            finding(
                "freshness.index-revision",
                "warning",
                (doc.collection, "", None),
                f"{pending} links await resolution: a sync stopped before its last step",
                [("pendingLinks", pending)],
                ["Run gno update to finish resolution"],
                index=frame.handle.name,
            )
        )
    return decide(found, checked, 0, "documents")


def configured_age_signal(frame: Frame) -> Outcome:
    days = frame.request.max_age_days
    if days is None:
        return Outcome("skip", 0, [], "no maxAgeDays policy given")
    now = frame.handle.clock.now_ns() / 1e9
    found: list[AuditFinding] = []
    checked = 0
    for doc in frame.documents:
        checked += 1
        when, source = _date(doc.meta.date), "frontmatter date"
        if when is None:
            when, source = doc.source_mtime_ns / 1e9, "file modification time"
        age = (now - when) / 86400
        if age > days:
            stamp = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d")
            found.append(
                finding(
                    "freshness.configured-age-signal",
                    "info",
                    frame.key(doc),
                    f"Older than {days} days ({int(age)} days, by its {source})",
                    [("date", stamp), ("dateSource", source), ("maxAgeDays", days)],
                    ["Review the note and update it, or its date, if it still holds"],
                    index=frame.handle.name,
                )
            )
    return decide(found, checked, 0, "documents")


def _date(value: str | None) -> float | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()
