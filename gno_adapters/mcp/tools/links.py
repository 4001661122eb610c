"""``gno_links`` (a document's outgoing links) and ``gno_backlinks`` (the links to it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts import LinksResult


def render_links(res: LinksResult) -> str:
    meta = res.meta
    count = len(res.links)
    head = f"Found {count} outgoing {'link' if count == 1 else 'links'} in {meta.uri}"
    lines = []
    for link in res.links:
        where = link.targets[0].uri if link.targets else link.resolution
        name = link.target_ref + (f"#{link.target_anchor}" if link.target_anchor else "")
        lines.append(f" [{link.link_type}] {name} -> {where} (line {link.position.start_line})")
    return head + (":\n\n" + "\n".join(lines) if lines else "")


def render_backlinks(wire: dict[str, Any]) -> str:
    """The text of a ``backlinks@1.0`` answer in its wire form."""
    found = wire["backlinks"]
    count = len(found)
    head = f"Found {count} {'backlink' if count == 1 else 'backlinks'} to {wire['meta']['uri']}"
    lines = [
        f' {b["sourceDocUri"]} "{b.get("sourceDocTitle") or ""}" '
        f"(line {b['position']['startLine']})"
        for b in found
    ]
    return head + (":\n\n" + "\n".join(lines) if lines else "")


def _links(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import LinksRequest

    req = validated(LinksRequest, call.arguments)
    res = call.facade.links(req.ref, link_type=req.link_type)
    return tool_result(render_links(res), res)


def _backlinks(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import BacklinksRequest

    req = validated(BacklinksRequest, call.arguments)
    res = call.facade.backlinks_wire(req.ref, collection=req.collection)
    return tool_result(render_backlinks(res.wire()), res)


LINKS = ToolDef(
    name="gno_links",
    input_schema=DerivedSchema("LinksRequest"),
    output="links",
    handler=_links,
    requires="links",
)
BACKLINKS = ToolDef(
    name="gno_backlinks",
    input_schema=DerivedSchema("BacklinksRequest"),
    output="backlinks",
    handler=_backlinks,
    requires="backlinks",
)
