"""The ``links.*`` rules: links whose local target does not exist (``local-targets``), links
that name several documents (``ambiguous-targets``), documents nothing links to or no entry
note reaches (``orphans``), and documents whose links the parser did not fully read
(``parser-boundary``)."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gno_core.errors import GnoError
from gno_core.integrity.audit.frame import Frame, Outcome, decide, finding

if TYPE_CHECKING:
    from gno_core.contracts.audit import AuditFinding
    from gno_core.domain import LinkRecord
    from gno_core.read_values import StoredDocument

__all__ = ["LinkEvidence", "ambiguous_targets", "local_targets", "orphans", "parser_boundary"]

#: Candidate documents an ambiguous-link finding names at most.
MAX_CANDIDATES = 6
#: Ingest failure codes of a file the parser never read (its links are unknown).
PARSER_CODES = frozenset({"BINARY", "ENCODING", "FRONTMATTER", "FILENAME_ENCODING"})


@dataclass(slots=True)
class LinkEvidence:
    """The stored links of every document in scope, read once for the link rules, and the
    files each collection's folder holds (what a path link to an attachment can name)."""

    #: the unresolved and ambiguous links of each document in scope (the others need nothing)
    links: dict[tuple[str, str], list[LinkRecord]] = field(default_factory=dict)
    #: the stored links that are not external, per document (or per collection, ``""``)
    local: dict[tuple[str, str], int] = field(default_factory=dict)
    pending: int = 0
    files: dict[str, set[str] | None] = field(default_factory=dict)
    names: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, frame: Frame) -> LinkEvidence:
        """Few reads, whatever the scope's size: each collection's link counts (or, for a part
        of one, its stored links in one batch), its unresolved links, and the links of the
        documents that have an ambiguous edge (read one by one: few)."""
        from gno_core.domain import AMBIGUOUS

        found = cls()
        store = frame.handle.index.links
        keys = [(d.collection, d.rel_path) for d in frame.documents]
        scope = set(keys)
        whole = frame.request.path is None and frame.request.tag is None
        if not whole:  # a part of a collection: its links counted from its stored links
            for key, stored in store.document_links(keys).items():
                found.local[key] = sum(1 for link in stored.links if not link.external)
        for coll in frame.collections:
            frame.check()
            for record in store.unresolved(coll.name, limit=1 << 62):
                key = (record.source.collection, record.source.rel_path)
                if key in scope:
                    found.links.setdefault(key, []).append(record)
            counts = store.counts(coll.name)
            found.pending += counts.pending
            if whole:
                found.local[(coll.name, "")] = counts.links - counts.external
            ambiguous = {
                (e.source.collection, e.source.rel_path)
                for e in store.edges(coll.name)
                if e.confidence == AMBIGUOUS
            }
            for key in sorted(ambiguous & scope):
                found.links.setdefault(key, []).extend(
                    r for r in store.outgoing(*key) if r.state == "ambiguous"
                )
        for coll in frame.collections:
            try:
                paths = {f.rel_path for f in frame.tree.walk(coll.path, "**/*", (), coll.exclude)}
            except GnoError:
                frame.unlisted.add(coll.name)
                found.files[coll.name] = None
                continue
            found.files[coll.name] = paths
            names: set[str] = set()
            for p in paths:
                base = posixpath.basename(p).casefold()
                names.add(base)
                names.add(posixpath.splitext(base)[0])
                names.add(p.casefold())
                names.add(posixpath.splitext(p)[0].casefold())
            found.names[coll.name] = names
        return found

    def exists(self, doc: StoredDocument, record: LinkRecord) -> bool | None:
        """Whether the file a link names is in its collection's folder though not indexed (an
        image, a PDF): None when the folder could not be listed."""
        link = record.link
        coll = link.target_collection or doc.collection
        files = self.files.get(coll)
        if files is None:
            return None
        ref = link.target_ref.strip()
        if not ref:
            return True  # a same-note anchor ([](#heading)) names this document
        if link.link_type == "markdown":
            base = "" if ref.startswith("/") else posixpath.dirname(doc.rel_path)
            path = posixpath.normpath(posixpath.join(base, ref.lstrip("/")))
            return path in files
        return ref.casefold() in self.names.get(coll, set())


def local_targets(frame: Frame, ev: LinkEvidence) -> Outcome:
    found: list[AuditFinding] = []
    unknown = 0
    checked = sum(ev.local.values())
    pending = ev.pending
    for doc in frame.documents:
        for record in ev.links.get((doc.collection, doc.rel_path), ()):
            if record.state != "unresolved":
                continue
            exists = ev.exists(doc, record)
            if exists:
                continue
            if exists is None:
                unknown += 1
            link = record.link
            found.append(
                finding(
                    "links.local-targets",
                    "error",
                    frame.key(doc),
                    f"Link to {link.target_ref!r} names no note or file of the collection",
                    [
                        ("targetRef", link.target_ref),
                        ("linkType", link.link_type),
                        ("anchor", link.target_anchor),
                        ("targetCollection", link.target_collection),
                        ("context", link.context),
                    ],
                    [
                        "Create the missing note, or change the link to an existing one",
                        f"gno links gno://{doc.collection}/{doc.rel_path} shows how each link resolved",
                    ],
                    index=frame.handle.name,
                    line=link.start_line,
                    column=link.start_col,
                )
            )
    if pending and not found:
        return Outcome(
            "inconclusive", checked, [], f"{pending} links await resolution: run gno update"
        )
    out = decide(found, checked, 0, "links")
    if unknown:
        out.reason = f"{unknown} collection folders could not be listed for attachments"
    return out


def ambiguous_targets(frame: Frame, ev: LinkEvidence) -> Outcome:
    found: list[AuditFinding] = []
    checked = max(sum(ev.local.values()) - ev.pending, 0)
    for doc in frame.documents:
        for record in ev.links.get((doc.collection, doc.rel_path), ()):
            if record.state != "ambiguous":
                continue
            link = record.link
            names = [f"gno://{t.document.collection}/{t.document.rel_path}" for t in record.targets]
            found.append(
                finding(
                    "links.ambiguous-targets",
                    "warning",
                    frame.key(doc),
                    f"Link to {link.target_ref!r} names {len(names)} notes",
                    [("targetRef", link.target_ref), ("linkType", link.link_type)]
                    + [("candidate", n) for n in names[:MAX_CANDIDATES]],
                    ["Qualify the link with the note's folder ([[folder/name]]) so it names one"],
                    index=frame.handle.name,
                    line=link.start_line,
                    column=link.start_col,
                )
            )
    return decide(found, checked, 0, "links")


def orphans(frame: Frame) -> Outcome:
    """With ``orphanRoots``: a document none of the roots reaches by following links out;
    without: a document no other document links to. ``orphanIgnorePrefixes`` and memory fact
    files are never orphans."""
    request = frame.request
    ignore = tuple(request.orphan_ignore_prefixes or ())
    memory = {c.name for c in frame.collections if c.memory_managed}
    out_edges: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    linked: set[tuple[str, str]] = set()
    # every collection's links, not only the audited ones': a note another collection links
    # to is reached
    for edge in frame.handle.index.links.edges():
        ka = (edge.source.collection, edge.source.rel_path)
        kb = (edge.target.collection, edge.target.rel_path)
        if ka != kb:
            out_edges[ka].add(kb)
            linked.add(kb)
    roots, missing = _roots(frame, request.orphan_roots or [])
    if request.orphan_roots and not roots:
        return Outcome("inconclusive", 0, [], "no orphanRoots entry names a document")
    reached = _reach(roots, out_edges) if roots else linked
    found: list[AuditFinding] = []
    checked = 0
    for doc in frame.documents:
        key = (doc.collection, doc.rel_path)
        if doc.rel_path.startswith(ignore) or (
            doc.collection in memory and doc.rel_path.startswith("facts/")
        ):
            continue
        checked += 1
        if key in reached or key in roots:
            continue
        why = "no entry note reaches it" if roots else "no other note links to it"
        found.append(
            finding(
                "links.orphans",
                "warning",
                frame.key(doc),
                f"Orphan: {why}",
                [("inboundLinks", sum(key in v for v in out_edges.values()))]
                + (
                    [("roots", ", ".join(sorted(f"{c}/{p}" for c, p in roots))[:500])]
                    if roots
                    else []
                ),
                [
                    "Link to it from a note that belongs with it, or an index note",
                    "Or list its folder in orphanIgnorePrefixes if it needs no links",
                ],
                index=frame.handle.name,
            )
        )
    result = decide(found, checked, 0, "documents")
    if missing:
        result.reason = f"orphanRoots naming no document: {', '.join(missing[:8])}"
    return result


def _roots(frame: Frame, given: list[str]) -> tuple[set[tuple[str, str]], list[str]]:
    by_path: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for doc in frame.handle.index.documents.list_documents():
        key = (doc.collection, doc.rel_path)
        for name in (
            doc.rel_path,
            f"{doc.collection}/{doc.rel_path}",
            f"gno://{doc.collection}/{doc.rel_path}",
        ):
            by_path[name].append(key)
    roots: set[tuple[str, str]] = set()
    missing: list[str] = []
    for ref in given:
        hits = by_path.get(ref.strip())
        if hits:
            roots.update(hits)
        else:
            missing.append(ref)
    return roots, missing


def _reach(
    roots: set[tuple[str, str]], out_edges: dict[tuple[str, str], set[tuple[str, str]]]
) -> set[tuple[str, str]]:
    seen = set(roots)
    todo = list(roots)
    while todo:
        for nxt in out_edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def parser_boundary(frame: Frame) -> Outcome:
    from gno_core.links.extract import MAX_LINKS

    found: list[AuditFinding] = []
    in_scope = {(d.collection, d.rel_path): d for d in frame.documents}
    for key in frame.handle.index.links.crowded(MAX_LINKS):
        doc = in_scope.get(key)
        if doc is not None:
            found.append(
                finding(
                    "links.parser-boundary",
                    "warning",
                    frame.key(doc),
                    f"More than {MAX_LINKS} links: the ones past the limit are not indexed",
                    [("limit", MAX_LINKS)],
                    ["Split the note: links past the limit are invisible to backlinks and graph"],
                    index=frame.handle.name,
                )
            )
    checked = len(frame.documents)
    for coll in frame.collections:
        for failure in frame.handle.index.ledger.failures(coll.name):
            if failure.code not in PARSER_CODES or not frame.in_scope(failure.rel_path):
                continue
            checked += 1
            found.append(
                finding(
                    "links.parser-boundary",
                    "warning",
                    (failure.collection, failure.rel_path, failure.source_hash),
                    "The parser could not read this file: its links are unknown",
                    [("code", failure.code), ("message", failure.message)],
                    ["Fix the file (encoding, frontmatter) and run gno update"],
                    index=frame.handle.name,
                )
            )
    return decide(found, checked, 0, "documents")
