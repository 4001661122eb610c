"""The words a person reads for an impact answer (who depends on the root, how far away,
through which links) and an audit report (the verdict, each rule, each finding and what to
do): the CLI's text and the MCP tools' text."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gno_core.contracts.audit import AuditReport
    from gno_core.contracts.impact import ImpactResult

#: The option that raises each cap, as the CLI names it (the MCP/REST name is the cap itself).
RAISE = {
    "maxDepth": "--max-depth",
    "maxNodes": "--max-nodes",
    "maxEdges": "--max-edges",
    "frontierLimit": "--frontier-limit",
    "visitedLimit": "--visited-limit",
}


def impact_lines(res: ImpactResult, *, cli: bool = False) -> list[str]:
    meta = res.meta
    count = meta.returned_nodes
    noun = "document depends" if count == 1 else "documents depend"
    lines = [
        f"{count} {noun} on {res.root.uri} (depth <= {meta.max_depth}, "
        f"{meta.returned_edges} inbound links read)"
    ]
    for item in res.impacted:
        title = f' "{item.document.title}"' if item.document.title else ""
        lines.append(f"  depth {item.depth}  {item.document.uri}{title}")
        hops = [item.evidence_path[0].source_uri.rsplit("/", 1)[-1]]
        for step in item.evidence_path:
            hops.append(f"-[{step.edge_type}]-> {step.target_uri.rsplit('/', 1)[-1]}")
        lines.append("           via " + " ".join(hops))
    if meta.truncated:
        names = [RAISE[c] if cli else c for c in meta.truncated_by]
        lines.append(
            f"Truncated by {', '.join(meta.truncated_by)}: more documents may depend on it "
            f"(raise {', '.join(names)})."
        )
    return lines


def audit_lines(report: AuditReport) -> list[str]:
    """The audit report as a person acts on it: the verdict, each rule's status, then each
    finding with where it is, what is wrong and the first thing to do."""
    scope, counts = report.scope, report.counts
    failing = sum(1 for r in report.rules if r.status == "fail")
    lines = [
        f"Audit of {scope.documents} documents ({', '.join(scope.collections) or 'no collection'}"
        f"; {scope.category}): {report.status.replace('_', ' ')}, {counts.findings} findings "
        f"from {failing} of {len(report.rules)} rules"
    ]
    width = max((len(r.id) for r in report.rules), default=0)
    for rule in report.rules:
        mark = rule.status.upper() if rule.status == "fail" else rule.status
        tail = (
            f"{rule.findings} finding{'s' if rule.findings != 1 else ''}" if rule.findings else ""
        )
        if rule.reason:
            tail = f"{tail}; {rule.reason}" if tail else rule.reason
        lines.append(f"  {mark:<12} {rule.id:<{width}}  {tail}".rstrip())
    if report.findings:
        lines.append("")
    for f in report.findings:
        where = f.subject.uri
        if f.location is not None:
            where += f":{f.location.line}" + (f":{f.location.column}" if f.location.column else "")
        lines.append(f"  [{f.severity}] {f.rule}  {where}")
        lines.append(f"      {f.message}")
        if f.guidance:
            lines.append(f"      -> {f.guidance[0]}")
    if report.truncation.truncated:
        lines.append(
            f"Showing {counts.returned} of {counts.findings} findings "
            "(--max-findings, up to 1000, shows more; --json has every count)."
        )
    lines += [f"Warning: {w}" for w in report.warnings]
    return lines
