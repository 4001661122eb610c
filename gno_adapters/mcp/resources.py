"""MCP resources: ``gno://tags`` (JSON tag counts) and ``gno://{collection}/{path}`` documents.

A document reads as its line-numbered Markdown mirror after a display-only header comment;
``?index=<name>`` reads another index, and a missing index is an error (never created).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from gno_adapters.mcp.jsonrpc import INVALID_PARAMS, JSONObject, RpcError
from gno_adapters.mcp.tools.common import number_lines
from gno_core.surface import Facade

if TYPE_CHECKING:
    from gno_core.contracts import GetResult

TAGS_URI = "gno://tags"

RESOURCES: list[JSONObject] = [
    {
        "uri": TAGS_URI,
        "name": "tags",
        "title": "Tags",
        "description": (
            "All tags with document counts as JSON; add ?collection=<name> and/or "
            "?prefix=<tag prefix> to filter"
        ),
        "mimeType": "application/json",
    }
]

RESOURCE_TEMPLATES: list[JSONObject] = [
    {
        "uriTemplate": "gno://{collection}/{path}",
        "name": "document",
        "title": "Document",
        "description": (
            "An indexed document as line-numbered Markdown with a header comment (URI, docid, "
            "source, mime, language); append ?index=<name> to read another index"
        ),
        "mimeType": "text/markdown",
    },
    {
        "uriTemplate": "gno://tags{?collection,prefix}",
        "name": "tags-filtered",
        "title": "Tags (filtered)",
        "description": "Tags with document counts, filtered by collection and/or tag prefix",
        "mimeType": "application/json",
    },
]


def read_resource(facade: Facade, uri: str) -> JSONObject:
    """The ``resources/read`` result for ``uri``; gno errors propagate to the caller's table."""
    if uri == TAGS_URI or uri.startswith(TAGS_URI + "?"):
        return _read_tags(facade, uri)
    if not uri.startswith("gno://"):
        raise RpcError(INVALID_PARAMS, f"Resource not found: {uri}", {"uri": uri})
    got = facade.get(uri)
    text = render_document(got)
    return {"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}


def _read_tags(facade: Facade, uri: str) -> JSONObject:
    query = parse_qs(urlsplit(uri).query)
    collection = query.get("collection", [None])[0] or None
    prefix = query.get("prefix", [None])[0] or None
    tags = facade.tags(collection, prefix)
    text = json.dumps(tags.wire(), ensure_ascii=False, indent=2)
    return {"contents": [{"uri": uri, "mimeType": "application/json", "text": text}]}


def render_document(got: GetResult) -> str:
    header = [
        "<!--",
        f"  URI: {got.uri}",
        f"  docid: {got.docid}",
    ]
    if got.source.abs_path:
        header.append(f"  source: {got.source.abs_path}")
    header.append(f"  mime: {got.source.mime}")
    if got.language:
        header.append(f"  language: {got.language}")
    header.append("-->")
    start = got.returned_lines.start if got.returned_lines else 1
    return "\n".join(header) + "\n\n" + number_lines(got.content, start) + "\n"
