"""``gno links`` (a document's outgoing links) and ``gno backlinks`` (the links to it)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gno_cli.options import add_request_options, defer, validated
from gno_cli.output import emit, emit_json

if TYPE_CHECKING:
    from gno_cli.context import Context


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    k = sub.add_parser("links", help="outgoing links of a document and what they resolve to")
    defer(k, _links_options)
    k.set_defaults(handler=run_links)

    b = sub.add_parser("backlinks", help="documents linking to a document, with line and context")
    defer(b, _backlinks_options)
    b.set_defaults(handler=run_backlinks)


def _links_options(k: argparse.ArgumentParser) -> None:
    from gno_core.contracts.requests import LinksRequest

    add_request_options(k, LinksRequest)


def _backlinks_options(b: argparse.ArgumentParser) -> None:
    from gno_core.contracts.requests import BacklinksRequest

    add_request_options(b, BacklinksRequest)


def run_links(ctx: Context) -> int:
    from gno_core.contracts.requests import LinksRequest

    req = validated(ctx.args, LinksRequest)
    res = ctx.gno.links(req.ref, link_type=req.link_type)
    if ctx.json:
        emit_json(res)
        return 0
    meta = res.meta
    emit(f"{meta.total_links} outgoing links in {meta.uri} ({meta.unresolved_links} unresolved)")
    for link in res.links:
        name = link.target_ref + (f"#{link.target_anchor}" if link.target_anchor else "")
        if link.targets:
            where = ", ".join(t.uri for t in link.targets)
            state = f"{link.confidence}" + (
                f", {link.relation}" if link.relation != "links_to" else ""
            )
        else:
            where, state = "-", link.resolution
        emit(
            f"  {link.position.start_line}:{link.position.start_col}  [{link.link_type}] {name} -> {where}  ({state})"
        )
    return 0


def run_backlinks(ctx: Context) -> int:
    from gno_core.contracts.requests import BacklinksRequest

    req = validated(ctx.args, BacklinksRequest)
    pre = ctx.gno.backlinks_wire(req.ref, collection=req.collection)
    if ctx.json:
        emit_json(pre.wire())  # no model per backlink
        return 0
    res = pre.model()
    meta = res.meta
    emit(f"{meta.total_backlinks} backlinks to {meta.uri}")
    for b in res.backlinks:
        title = f"  {b.source_doc_title}" if b.source_doc_title else ""
        emit(f"  {b.source_doc_uri}:{b.position.start_line}{title}  ({b.confidence})")
        emit(f"      {b.context}")
    return 0
