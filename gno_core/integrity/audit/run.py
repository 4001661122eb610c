"""The audit run: the scope, the rules of the requested category in rule-set order, the
index fingerprint before and after (one more run when it changed, then
``changed_during_audit``), and the report: canonical order, ``maxFindings`` with exact totals,
and a status that is never ``complete`` when a rule could not finish."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from gno_core.errors import GnoError
from gno_core.integrity.audit import freshness_rules as fresh
from gno_core.integrity.audit import link_rules as links
from gno_core.integrity.audit import provenance_rules as prov
from gno_core.integrity.audit.frame import MAX_DOCUMENTS, Cancelled, Frame, Outcome

if TYPE_CHECKING:
    from gno_core.contracts.audit import AuditReport, AuditRule
    from gno_core.contracts.integrity_requests import AuditRequest
    from gno_core.index_handle import IndexHandle
    from gno_core.ports import FrontmatterParser, SourceTree

__all__ = ["RULES", "Audit"]

#: Rule set 1.0 in its canonical order: (id, category).
RULES: tuple[tuple[str, str], ...] = (
    ("links.local-targets", "links"),
    ("links.ambiguous-targets", "links"),
    ("links.orphans", "links"),
    ("links.parser-boundary", "links"),
    ("provenance.capture-source", "provenance"),
    ("provenance.logical-record", "provenance"),
    ("provenance.memory-record", "provenance"),
    ("freshness.source-readable", "freshness"),
    ("freshness.source-index-drift", "freshness"),
    ("freshness.index-revision", "freshness"),
    ("freshness.configured-age-signal", "freshness"),
)
ORDER = {rule: i for i, (rule, _) in enumerate(RULES)}
#: The rules that read source files (read once, concurrently, before them).
SOURCE_RULES = frozenset(
    {"provenance.capture-source", "freshness.source-readable", "freshness.source-index-drift"}
)


class Audit:
    def __init__(self, handle: IndexHandle, tree: SourceTree, frontmatter: FrontmatterParser):
        self.handle = handle
        self.tree = tree
        self.frontmatter = frontmatter

    def run(
        self, request: AuditRequest, cancelled: Callable[[], bool] | None = None
    ) -> AuditReport:
        stop = cancelled or (lambda: False)
        started, t0 = self._now(), time.perf_counter()
        frame = self._frame(request, stop)
        before = self._fingerprint(frame)
        attempts = 1
        outcomes, timing = self._rules(frame, request)
        after = self._fingerprint(self._frame(request, stop))
        if after != before and not any(o.reason == "cancelled" for o in outcomes.values()):
            attempts = 2
            frame = self._frame(request, stop)
            before = self._fingerprint(frame)
            outcomes, timing = self._rules(frame, request)
            after = self._fingerprint(self._frame(request, stop))
        return self._report(
            request, frame, outcomes, timing, (before, after, attempts), started, t0
        )

    # -- the scope ------------------------------------------------------------------------

    def _frame(self, request: AuditRequest, stop: Callable[[], bool]) -> Frame:
        from gno_core.index_handle import require_collection

        config = self.handle.load_config()
        if request.collection is not None:
            collections = [require_collection(config, request.collection)]
        else:
            collections = list(config.collections)
        docs = []
        store = self.handle.index.documents
        for coll in collections:
            docs.extend(store.list_documents(coll.name, request.path))
        if request.tag is not None:
            wanted = request.tag.lower()
            docs = [d for d in docs if wanted in d.meta.tags]
        capped = len(docs) > MAX_DOCUMENTS
        return Frame(
            self.handle,
            self.tree,
            self.frontmatter,
            request,
            stop,
            config,
            collections,
            docs[:MAX_DOCUMENTS],
            capped,
        )

    def _fingerprint(self, frame: Frame) -> str:
        digest = hashlib.sha256()
        for d in frame.documents:
            digest.update(
                f"{d.collection}\0{d.rel_path}\0{d.source_hash}\0{d.mirror_hash}\n".encode()
            )
        counts = frame.handle.index.links.counts(None)
        digest.update(repr((counts.links, counts.resolved, counts.pending)).encode())
        return digest.hexdigest()

    # -- the rules ------------------------------------------------------------------------

    def _rules(
        self, frame: Frame, request: AuditRequest
    ) -> tuple[dict[str, Outcome], dict[str, float]]:
        wanted = [r for r, cat in RULES if request.category in ("all", cat)]
        outcomes: dict[str, Outcome] = {}
        timing: dict[str, float] = {}
        evidence: list[links.LinkEvidence] = []

        def link_evidence() -> links.LinkEvidence:
            if not evidence:
                evidence.append(links.LinkEvidence.read(frame))
            return evidence[0]

        table: dict[str, Callable[[], Outcome]] = {
            "links.local-targets": lambda: links.local_targets(frame, link_evidence()),
            "links.ambiguous-targets": lambda: links.ambiguous_targets(frame, link_evidence()),
            "links.orphans": lambda: links.orphans(frame),
            "links.parser-boundary": lambda: links.parser_boundary(frame),
            "provenance.capture-source": lambda: prov.capture_source(frame),
            "provenance.logical-record": lambda: prov.logical_record(frame),
            "provenance.memory-record": lambda: prov.memory_record(frame),
            "freshness.source-readable": lambda: fresh.source_readable(frame),
            "freshness.source-index-drift": lambda: fresh.source_index_drift(frame),
            "freshness.index-revision": lambda: fresh.index_revision(frame),
            "freshness.configured-age-signal": lambda: fresh.configured_age_signal(frame),
        }
        stopped = False
        if SOURCE_RULES & set(wanted):
            t = time.perf_counter()
            try:
                frame.prefetch()
            except Cancelled:
                stopped = True
            timing["sources"] = round((time.perf_counter() - t) * 1000, 3)
        for rule in wanted:
            t = time.perf_counter()
            if stopped or frame.cancelled():
                stopped = True
                outcomes[rule] = Outcome("inconclusive", 0, [], "cancelled")
            else:
                try:
                    outcomes[rule] = table[rule]()
                except Cancelled:
                    stopped = True
                    outcomes[rule] = Outcome("inconclusive", 0, [], "cancelled")
                except GnoError as exc:
                    outcomes[rule] = Outcome("unavailable", 0, [], f"{exc.code}: {exc.message}")
            timing[rule] = round((time.perf_counter() - t) * 1000, 3)
        return outcomes, timing

    # -- the report -----------------------------------------------------------------------

    def _report(
        self,
        request: AuditRequest,
        frame: Frame,
        outcomes: dict[str, Outcome],
        timing: dict[str, float],
        prints: tuple[str, str, int],
        started: str,
        t0: float,
    ) -> AuditReport:
        from gno_core.contracts import audit as c
        from gno_core.version import __version__

        every = [f for o in outcomes.values() for f in o.findings]
        every.sort(
            key=lambda f: (
                ORDER[f.rule],
                f.subject.collection,
                f.subject.rel_path,
                f.location.line if f.location else 0,
                (f.location.column or 0) if f.location else 0,
                f.id,
            )
        )
        kept = every[: request.max_findings]
        category = dict(RULES)
        rules: list[AuditRule] = [
            c.AuditRule(
                id=rule,
                category=category[rule],
                status=o.status,
                checked=o.checked,
                findings=len(o.findings),
                reason=o.reason,
                duration_ms=timing[rule],
            )
            for rule, o in outcomes.items()
        ]
        before, after, attempts = prints
        warnings: list[str] = []
        unsure = [r.id for r in rules if r.status in ("unavailable", "inconclusive")]
        if before != after:
            status = "changed_during_audit"
            warnings.append("the index changed during the audit, twice: run it again when idle")
        elif unsure or frame.capped:
            status = "partial"
        else:
            status = "complete"
        if unsure:
            warnings.append("rules that could not decide: " + ", ".join(unsure))
        if frame.capped:
            warnings.append(f"only the first {MAX_DOCUMENTS} documents were audited")
        return c.AuditReport(
            status=status,
            scope=c.AuditScope(
                category=request.category,
                collections=[coll.name for coll in frame.collections],
                path=request.path,
                tag=request.tag,
                documents=len(frame.documents),
                policy=c.AuditPolicy(
                    max_findings=request.max_findings,
                    max_age_days=request.max_age_days,
                    orphan_roots=list(request.orphan_roots or []),
                    orphan_ignore_prefixes=list(request.orphan_ignore_prefixes or []),
                ),
            ),
            capabilities={
                "index": "available",
                "sourceFiles": "unavailable" if frame.unlisted else "available",
                "recordAdapters": "unavailable",
            },
            fingerprints=c.AuditFingerprints(
                index_before=before, index_after=after, attempts=attempts
            ),
            versions=c.AuditVersions(gno=__version__),
            started_at=started,
            completed_at=self._now(),
            duration_ms=round((time.perf_counter() - t0) * 1000, 3),
            rules=rules,
            findings=kept,
            counts=c.AuditCounts(
                findings=len(every),
                returned=len(kept),
                by_rule={r.id: r.findings for r in rules},
                by_severity=dict(Counter(f.severity for f in every)),
                rules=dict(Counter(r.status for r in rules)),
            ),
            truncation=c.AuditTruncation(
                truncated=len(kept) < len(every),
                max_findings=request.max_findings,
                omitted=len(every) - len(kept),
            ),
            timing=c.AuditTiming(
                total_ms=round(sum(timing.values()), 3),
                source_reads_ms=timing.get("sources", 0.0),
                by_rule={k: v for k, v in timing.items() if k != "sources"},
            ),
            warnings=warnings,
        )

    def _now(self) -> str:
        ns = self.handle.clock.now_ns()
        return datetime.fromtimestamp(ns / 1e9, UTC).isoformat().replace("+00:00", "Z")
