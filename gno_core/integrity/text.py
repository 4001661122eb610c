"""The words a person reads for an impact answer (the CLI's text and the MCP tool's text):
who depends on the root, how far away, and through which links."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
