"""``gno_list_tags``: tags with document counts, by collection and prefix."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts import TagsList

LIST_TAGS_INPUT = DerivedSchema("TagsRequest")


def render_tags(tags: TagsList) -> str:
    count = len(tags.tags)
    head = f"Found {count} {'tag' if count == 1 else 'tags'}"
    if not tags.tags:
        return head
    return head + ":\n\n" + "\n".join(f"  {t.tag} ({t.count})" for t in tags.tags)


def _list_tags(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import TagsRequest

    req = validated(TagsRequest, call.arguments)
    tags = call.facade.tags(req.collection, req.prefix)
    return tool_result(render_tags(tags), tags)


LIST_TAGS = ToolDef(
    name="gno_list_tags", input_schema=LIST_TAGS_INPUT, output="tags-list", handler=_list_tags
)
