"""The official MCP Python SDK (``mcp==2.3.0``) as an independent client over stdio, in each of
its modes: ``legacy`` (initialize handshake), ``auto`` (server/discover probe, then modern) and
``2026-07-28`` (envelope on every request, no probe)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError, StdioServerParameters

from tests.wire import real_facade

REPO = Path(__file__).resolve().parents[2]
FAKE_SERVER = str(Path(__file__).with_name("mcp_fakes.py"))
MODES = ["legacy", "auto", "2026-07-28"]
EXPECTED_VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


def run_client(mode: str, body: Callable[[Client], Awaitable[Any]], *args: str) -> Any:
    params = StdioServerParameters(command=sys.executable, args=[FAKE_SERVER, *args], cwd=str(REPO))

    async def main() -> Any:
        async with Client(params, mode=mode, cache=None) as client:
            return await body(client)

    return asyncio.run(main())


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_and_resource_through_the_sdk(mode: str) -> None:
    async def body(client: Client) -> dict[str, Any]:
        seen: dict[str, Any] = {"version": client.protocol_version}
        seen["server"] = client.server_info.name if client.server_info else None
        seen["tools"] = [t.name for t in (await client.list_tools()).tools]
        search = await client.call_tool("gno_search", {"query": "foam", "limit": 1})
        seen["search"] = (search.is_error, search.structured_content, search.content[0].text)  # type: ignore[union-attr]
        alpha = real_facade.docids()["alpha"]
        got = await client.call_tool("gno_get", {"ref": alpha, "fromLine": 6, "lineCount": 1})
        seen["get"] = got.content[0].text  # type: ignore[union-attr]
        for name, args in [
            ("gno_multi_get", {"refs": [alpha]}),
            ("gno_peek", {}),
            ("gno_status", {}),
            ("gno_list_tags", {}),
            ("gno_links", {"ref": alpha}),
            ("gno_backlinks", {"ref": alpha}),
        ]:
            result = await client.call_tool(name, args)
            assert not result.is_error and result.structured_content, name
        missing = await client.call_tool("gno_get", {"ref": "#ffffff"})
        seen["missing"] = (missing.is_error, missing.content[0].text)  # type: ignore[union-attr]
        try:
            await client.call_tool("gno_nope", {})
        except MCPError as exc:
            seen["unknown_tool"] = exc.code
        seen["resources"] = [str(r.uri) for r in (await client.list_resources()).resources]
        templates = (await client.list_resource_templates()).resource_templates
        seen["templates"] = [t.uri_template for t in templates]
        tags = await client.read_resource("gno://tags?prefix=work/")
        seen["tags"] = json.loads(tags.contents[0].text)  # type: ignore[union-attr]
        doc = await client.read_resource("gno://notes/alpha.md")
        seen["doc"] = doc.contents[0].text  # type: ignore[union-attr]
        try:
            await client.read_resource("gno://notes/missing.md")
        except MCPError as exc:
            seen["missing_resource"] = (exc.code, exc.error.data)
        return seen

    seen = run_client(mode, body)
    alpha = real_facade.docids()["alpha"]
    assert seen["version"] == EXPECTED_VERSION[mode]
    if mode != "2026-07-28":  # that mode synthesizes discovery and never learns serverInfo
        assert seen["server"] == "gno"
    assert seen["tools"] == [
        "gno_ask",
        "gno_context",
        "gno_context_verify",
        "gno_search",
        "gno_vsearch",
        "gno_query",
        "gno_query_diagnose",
        "gno_get",
        "gno_section",
        "gno_multi_get",
        "gno_peek",
        "gno_status",
        "gno_recall",
        "gno_list_tags",
        "gno_links",
        "gno_backlinks",
        "gno_similar",
        "gno_graph",
        "gno_graph_query",
        "gno_changes",
        "gno_diff",
        "gno_impact",
        "gno_audit",
        "gno_graph_neighbors",
        "gno_graph_path",
        "gno_job_status",
        "gno_list_jobs",
        "gno_egress_policy_get",
        "gno_egress_check",
        "gno_egress_audit_list",
        "gno_egress_audit_show",
        "gno_egress_audit_status",
        "gno_trace_list",
        "gno_trace_show",
    ]
    is_error, structured, text = seen["search"]
    assert not is_error and structured["meta"]["totalResults"] == 1
    assert text.startswith('Found 1 result for "foam"')
    assert seen["get"] == "6: Foam notes link ideas."
    assert seen["missing"] == (True, "Error: Document not found: #ffffff")
    assert seen["unknown_tool"] == -32602
    assert seen["resources"] == ["gno://tags"]
    assert seen["templates"] == ["gno://{collection}/{path}", "gno://tags{?collection,prefix}"]
    assert seen["tags"]["tags"] == [{"tag": "work/project", "count": 1}]
    assert (
        seen["doc"].startswith(f"<!--\n  URI: gno://notes/alpha.md\n  docid: {alpha}\n")
        and "\n4: # Alpha\n5: \n6: Foam notes link ideas.\n" in seen["doc"]
    )
    assert seen["missing_resource"] == (
        -32602,
        {"uri": "gno://notes/missing.md", "code": "NOT_FOUND"},
    )


@pytest.mark.parametrize("mode", MODES)
def test_core_profile_through_the_sdk(mode: str) -> None:
    async def body(client: Client) -> Any:
        names = [t.name for t in (await client.list_tools()).tools]
        try:
            await client.call_tool("gno_status", {})
        except MCPError as exc:
            return names, exc.code
        return names, None

    names, code = run_client(mode, body, "--tool-profile", "core")
    assert names == [
        "gno_context",
        "gno_search",
        "gno_query",
        "gno_get",
        "gno_multi_get",
        "gno_recall",
        "gno_changes",
    ]
    assert code == -32602
