"""The ``provenance.*`` rules: captured notes carry a complete ``source:`` record
(``capture-source``), logical records of containers (``logical-record``: gno has no record
adapters, so there are none to check) and memory fact files (``memory-record``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from gno_core.integrity.audit.frame import Frame, Outcome, decide, finding

if TYPE_CHECKING:
    from gno_core.contracts.audit import AuditFinding

__all__ = ["capture_source", "logical_record", "memory_record"]

#: The name ``gno capture`` gives a note without a title, in its default folder.
CAPTURE_NAME = re.compile(r"(?:^|/)inbox/\d{4}-\d{2}-\d{2}/capture-[0-9a-f]{12}\.md$")
KINDS = frozenset({"direct", "web", "email", "meeting", "chat", "file", "api", "unknown"})
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")


def _problems(source: Any) -> list[str]:
    if not isinstance(source, dict):
        return ["source is not a mapping"] if source is not None else ["no source record"]
    problems = []
    kind = source.get("kind")
    if kind not in KINDS:
        problems.append(f"kind {kind!r} is not one of {', '.join(sorted(KINDS))}")
    captured = source.get("capturedAt")
    if not isinstance(captured, str) or not ISO.match(captured.strip()):
        problems.append("capturedAt is missing or not an ISO 8601 time")
    if kind == "web" and not (source.get("url") or source.get("uri")):
        problems.append("a web capture names no url")
    return problems


def capture_source(frame: Frame) -> Outcome:
    """A note whose ``source:`` mapping has gno's capture keys (``kind``, ``capturedAt``), or
    that is named as ``gno capture`` names notes, is a capture; its source record must have a known kind, a capturedAt time and, for the
    web, a url."""
    found: list[AuditFinding] = []
    checked = unknown = 0
    for doc in frame.documents:
        frame.check()
        if doc.source_ext.lower() not in (".md", ".markdown", ".mdx"):
            continue
        named = CAPTURE_NAME.search(doc.rel_path) is not None
        got = frame.source(doc)
        if isinstance(got, Exception):
            unknown += named
            continue
        if not named and b"source:" not in got.head:
            continue  # no frontmatter key to parse for: YAML is the rule's whole cost
        front = frame.front(doc) or {}
        record = front.get("source")
        # Another tool's ``source:`` (a string, a mapping without kind or capturedAt) is not
        # a gno capture record: only the capture shape and the capture name are checked.
        shaped = isinstance(record, dict) and bool({"kind", "capturedAt"} & set(record))
        if not shaped and not named:
            continue
        checked += 1
        problems = _problems(front.get("source"))
        if problems:
            evidence: list[tuple[str, Any]] = [("problem", p) for p in problems]
            if isinstance(record, dict):
                evidence.append(("sourceKeys", ", ".join(sorted(map(str, record)))))
            found.append(
                finding(
                    "provenance.capture-source",
                    "warning",
                    frame.key(doc),
                    "Captured note without a complete source record: " + "; ".join(problems),
                    evidence,
                    [
                        "Add source: {kind, capturedAt, url} to the note's frontmatter",
                        "gno capture --source-kind/--source-url writes it for new captures",
                    ],
                    index=frame.handle.name,
                )
            )
    return decide(found, checked, unknown, "captured notes")


def logical_record(frame: Frame) -> Outcome:
    return Outcome(
        "skip",
        0,
        [],
        "gno has no record adapters: no document is a logical record of a mail, chat or "
        "calendar export",
    )


def memory_record(frame: Frame) -> Outcome:
    names = [c.name for c in frame.collections if c.memory_managed]
    if not names:
        return Outcome("skip", 0, [], "no memory collection in scope")
    store = frame.handle.index.memory
    in_scope = {(d.collection, d.rel_path): d for d in frame.documents}
    found: list[AuditFinding] = []
    for diag in store.diagnostics(names, 1_000_000):
        doc = in_scope.get((diag.collection, diag.rel_path))
        if doc is None:
            continue
        found.append(
            finding(
                "provenance.memory-record",
                "error",
                frame.key(doc),
                f"Memory fact record is not valid: {diag.problem.message}",
                [("code", diag.problem.code), ("message", diag.problem.message)],
                [
                    "Fix the fact file's frontmatter, or supersede it with gno remember",
                    "gno status lists every fact diagnostic",
                ],
                index=frame.handle.name,
            )
        )
    current, superseded, invalid = store.count_facts(names)
    return decide(found, current + superseded + invalid, 0, "memory facts")
