"""A standalone HTML page with an SVG picture of the link graph (``gno graph --html FILE``):
no script, no external resource, so it opens anywhere and shows the same picture every time.

Layout: each community on its own disc, discs placed on a spiral from the largest; a community's
members on rings inside its disc, highest degree at the centre. It is O(nodes), deterministic,
and shows what the report names (clusters, hubs, the links between clusters)."""

from __future__ import annotations

import math
from collections import defaultdict
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gno_core.contracts.graph import GraphNode, GraphResult

#: Colours cycled over communities, largest first.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7")
SPACING = 14.0


def render_html(res: GraphResult) -> str:
    groups: dict[str, list[GraphNode]] = defaultdict(list)
    for node in res.nodes:
        groups[node.community_id or node.id].append(node)
    ordered = sorted(groups.values(), key=lambda g: (-len(g), min(n.uri for n in g)))
    where: dict[str, tuple[float, float]] = {}
    colour: dict[str, str] = {}
    angle, radius = 0.0, 0.0
    for index, members in enumerate(ordered):
        disc = SPACING * (math.sqrt(len(members)) + 1)
        radius += disc if index else 0.0
        cx, cy = radius * math.cos(angle), radius * math.sin(angle)
        angle += disc / max(radius, disc) * 1.2
        radius += disc * 0.15
        members.sort(key=lambda n: (-n.degree, n.uri))
        for i, node in enumerate(members):
            ring = math.sqrt(i) * SPACING
            turn = i * 2.399963  # the golden angle spreads members evenly on a disc
            where[node.id] = (cx + ring * math.cos(turn), cy + ring * math.sin(turn))
            colour[node.id] = PALETTE[index % len(PALETTE)] if len(members) > 1 else "#999999"
    xs = [p[0] for p in where.values()] or [0.0]
    ys = [p[1] for p in where.values()] or [0.0]
    pad = 30.0
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - left + pad, max(ys) - top + pad
    lines = []
    for link in res.links:
        a, b = where.get(link.source), where.get(link.target)
        if a is not None and b is not None:
            lines.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>')
    circles = []
    for node in res.nodes:
        x, y = where[node.id]
        r = 3 + 2 * math.log1p(node.degree)
        label = escape(f"{node.title or node.rel_path} ({node.uri}, degree {node.degree})")
        circles.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour[node.id]}">'
            f"<title>{label}</title></circle>"
        )
    meta, report = res.meta, res.report
    scope = f" in {escape(meta.collection)}" if meta.collection else ""
    hubs = "".join(
        f"<li>{escape(h.title or h.uri)} <small>{escape(h.uri)}, degree {h.degree}</small></li>"
        for h in report.hubs
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>gno link graph{scope}</title>"
        "<style>body{font:14px system-ui,sans-serif;margin:1em}svg{width:100%;height:80vh;"
        "border:1px solid #ddd}line{stroke:#bbb;stroke-width:.6}small{color:#666}</style>"
        "</head><body>"
        f"<h1>Link graph{scope}</h1><p>{meta.returned_nodes} notes, {meta.returned_edges} links"
        f"{' (cut to the limits)' if meta.truncated else ''}; {report.total_communities} "
        f"communities; {report.isolated.total} isolated notes; "
        f"{report.unresolved_links.total} unresolved links. Hover a dot for its note.</p>"
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} '
        f'{height:.1f}"><g>{"".join(lines)}</g><g>{"".join(circles)}</g></svg>'
        f"<h2>Hubs</h2><ol>{hubs}</ol></body></html>\n"
    )
