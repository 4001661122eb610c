"""``gno graph`` (the link graph's health report, or its JSON) and ``gno graph query``,
``gno graph neighbors``, ``gno graph path``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.options import add_request_options, defer, validated
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.contracts.graph import GraphResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    g = sub.add_parser("graph", help="the link graph: health report, traversal, neighbours, paths")
    defer(g, _graph_options)
    g.set_defaults(handler=run_graph)


def _graph_options(g: argparse.ArgumentParser) -> None:
    from gno_core.contracts.requests import (
        GraphNeighborsRequest,
        GraphPathRequest,
        GraphQueryRequest,
        GraphRequest,
    )

    add_request_options(g, GraphRequest)
    g.add_argument(
        "--html",
        metavar="FILE",
        help="also write a standalone HTML/SVG picture (its folder must exist)",
    )
    gsub = g.add_subparsers(dest="graph_command", metavar="COMMAND")
    q = gsub.add_parser("query", help="bounded typed-edge traversal from one document")
    add_request_options(q, GraphQueryRequest)
    q.set_defaults(handler=run_query)
    n = gsub.add_parser("neighbors", help="incoming and outgoing neighbours of one document")
    add_request_options(n, GraphNeighborsRequest)
    n.set_defaults(handler=run_neighbors)
    p = gsub.add_parser("path", help="the shortest link path between two documents")
    add_request_options(p, GraphPathRequest)
    p.set_defaults(handler=run_path)


def run_graph(ctx: Context) -> int:
    from gno_core.contracts.requests import GraphRequest

    req = validated(ctx.args, GraphRequest)
    html_file = getattr(ctx.args, "html", None)
    if html_file:
        _check_html_target(html_file)
    pre = ctx.gno.graph_wire(req)
    if ctx.json and not html_file:
        emit_json(pre.wire())  # no model per node and link
        return 0
    res = pre.model()
    if html_file:
        _write_html(html_file, res)
    if ctx.json:
        emit_json(res)
        return 0
    meta, report = res.meta, res.report
    scope = f" in {meta.collection}" if meta.collection else ""
    emit(f"Link graph{scope}: {meta.returned_nodes} notes, {meta.returned_edges} links")
    similar = sum(1 for link in res.links if link.type == "similar")
    if similar:
        emit(
            f"  of them {similar} similar edges (threshold {req.threshold:g}, top {meta.similar_top_k})"
        )
    if meta.truncated:
        emit(f"  (cut to the limits: {meta.total_nodes} notes and {meta.total_edges} links in all)")
    emit("\nHubs (most linked):")
    for h in report.hubs:
        emit(f"  {h.degree:5d}  {h.uri}" + (f"  {h.title}" if h.title else ""))
    emit(f"\nCommunities: {report.total_communities} with two or more notes")
    for c in report.communities:
        emit(f"  {c.id}  {c.size:5d} notes  e.g. {', '.join(c.members[:3])}")
    emit("\nBridge candidates (neighbours in several communities):")
    for b in report.bridge_candidates:
        emit(f"  {b.communities:3d} communities  {b.uri}")
    emit(f"\nIsolated notes: {report.isolated.total}")
    for uri in report.isolated.examples:
        emit(f"  {uri}")
    by_type = ", ".join(f"{k} {v}" for k, v in report.unresolved_links.by_type.items())
    emit(
        f"\nUnresolved links: {report.unresolved_links.total}"
        + (f" ({by_type})" if by_type else "")
    )
    emit("Edge types: " + (", ".join(f"{k} {v}" for k, v in report.edge_types.items()) or "none"))
    emit(
        "Confidence: "
        + (", ".join(f"{k} {v}" for k, v in report.edge_confidence.items()) or "none")
    )
    for warning in meta.warnings:
        emit(f"warning: {warning}")
    return 0


def _check_html_target(html_file: str) -> None:
    """Fail before the graph is built when ``--html`` names a file in a folder that is not
    there (gno does not create folders the user did not ask for)."""
    from pathlib import Path

    from gno_core.errors import PathNotFoundError, ValidationError

    target = Path(html_file)
    folder = target.parent
    if not folder.exists():
        raise PathNotFoundError(
            f"Cannot write {html_file}: the folder {folder} does not exist",
            details={"path": str(target), "folder": str(folder)},
        )
    if not folder.is_dir() or target.is_dir():
        not_dir = folder if not folder.is_dir() else target
        raise ValidationError(
            f"Cannot write {html_file}: {not_dir} is "
            + ("not a folder" if not_dir is folder else "a folder"),
            details={"path": str(target)},
        )


def _write_html(html_file: str, res: GraphResult) -> None:
    import errno
    from pathlib import Path

    from gno_cli.graph_html import render_html
    from gno_core.errors import RuntimeFailure

    try:
        Path(html_file).write_text(render_html(res), encoding="utf-8")
    except OSError as exc:
        code = errno.errorcode.get(exc.errno or 0, "")
        raise RuntimeFailure(
            f"Cannot write {html_file}: {exc.strerror or exc}",
            details={"path": html_file, "errno": code},
        ) from exc


def run_query(ctx: Context) -> int:
    from gno_core.contracts.requests import GraphQueryRequest

    req = validated(ctx.args, GraphQueryRequest)
    res = ctx.gno.graph_query(req)
    if ctx.json:
        emit_json(res)
        return 0
    meta = res.meta
    emit(
        f"{meta.returned_nodes} notes, {meta.returned_edges} edges from {res.root.uri} "
        f"(direction {meta.direction}, depth <= {meta.max_depth})"
    )
    uris = {n.id: n.uri for n in res.nodes}
    for e in res.edges:
        emit(
            f"  {e.depth}  {uris.get(e.source, e.source)} -[{e.edge_type}]-> "
            f"{uris.get(e.target, e.target)}  ({e.confidence})"
        )
    if meta.truncated:
        emit(f"truncated by: {', '.join(meta.truncated_by)}")
    return 0


def run_neighbors(ctx: Context) -> int:
    from gno_core.contracts.requests import GraphNeighborsRequest

    req = validated(ctx.args, GraphNeighborsRequest)
    res = ctx.gno.graph_neighbors(req)
    if ctx.json:
        emit_json(res)
        return 0
    emit(f"{res.meta.total_neighbors} neighbours of {res.root.uri}")
    arrows = {"out": "->", "in": "<-", "both": "<->"}
    for n in res.neighbors:
        emit(f"  {arrows[n.direction]:3s} {n.node.uri}  [{n.type}, {n.confidence}]")
    if res.meta.truncated:
        emit("(the graph searched was cut by --limit / --edge-limit)")
    return 0


def run_path(ctx: Context) -> int:
    from gno_core.contracts.requests import GraphPathRequest

    req = validated(ctx.args, GraphPathRequest)
    res = ctx.gno.graph_path(req)
    if ctx.json:
        emit_json(res)
        return 0
    if not res.found:
        cut = (
            " (the graph searched was cut by --limit / --edge-limit)" if res.meta.truncated else ""
        )
        emit(
            f"No path from {res.source.uri} to {res.target.uri} within "
            f"{res.meta.max_depth} hops{cut}"
        )
        return 1
    emit(f"{res.hops} hops from {res.source.uri} to {res.target.uri}")
    emit(f"  {res.path[0].uri}")
    for step, doc in zip(res.steps, res.path[1:], strict=True):
        emit(f"  {'->' if step.forward else '<-'} {doc.uri}  [{step.type}, {step.confidence}]")
    return 0
