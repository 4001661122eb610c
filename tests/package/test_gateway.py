"""One resident ``gno serve`` of the installed package, seen by two concurrent HTTP MCP clients
(one per protocol era) and one stdio client (``gno-mcp``): the same tools, resources and search
results; repeated calls served by one resident process, store and model; its redacted
resident status in the committed schema."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters
from pkg_support import (
    BIN,
    CONTRACTS,
    MODERN,
    detached,
    gno,
    proc_children,
    proc_open_files,
    proc_rss_mib,
    proc_threads,
    server_pid,
    validate_contract,
)

QUERIES = ("wikilinks", "daily notes", "graph visualization")


@pytest.fixture(scope="module")
def serving(gno_env: dict[str, str]) -> Iterator[dict[str, Any]]:
    with detached(gno_env, "serve") as status:
        yield status


async def observe(target: Any, mode: str) -> dict[str, Any]:
    async with Client(target, mode=mode, cache=None) as client:  # type: ignore[arg-type]
        tools = [
            t.model_dump(by_alias=True, exclude_none=True)
            for t in (await client.list_tools()).tools
        ]
        resources = [str(r.uri) for r in (await client.list_resources()).resources]
        templates = (await client.list_resource_templates()).resource_templates
        results = []
        for query in QUERIES:
            found = await client.call_tool("gno_search", {"query": query, "limit": 5})
            assert not found.is_error, found
            results.append(found.structured_content)
        hybrid = await client.call_tool("gno_query", {"query": QUERIES[1], "limit": 5})
        assert not hybrid.is_error, hybrid
        uri = results[0]["results"][0]["uri"]  # type: ignore[index]
        doc = await client.read_resource(uri)
        status = await client.call_tool("gno_status", {})
        assert not status.is_error, status
        return {
            "tools": tools,
            "resources": resources,
            "templates": [t.uri_template for t in templates],
            "results": results,
            "hybrid": hybrid.structured_content,
            "doc": doc.contents[0].text,  # type: ignore[union-attr]
            "resident": status.structured_content["resident"],  # type: ignore[index]
        }


def test_two_http_clients_and_one_stdio_client_see_the_same_index(
    gno_env: dict[str, str], serving: dict[str, Any]
) -> None:
    url = serving["base"] + "/mcp"
    stdio = StdioServerParameters(command=str(BIN / "gno-mcp"), args=[], env=gno_env)

    async def main() -> list[dict[str, Any]]:
        return list(
            await asyncio.gather(
                observe(url, "legacy"), observe(url, MODERN), observe(stdio, "auto")
            )
        )

    legacy, modern, local = asyncio.run(main())
    residents = [seen.pop("resident") for seen in (legacy, modern, local)]
    assert legacy == modern == local
    assert legacy["results"][0]["results"], "the search found nothing"
    for result in (*legacy["results"], legacy["hybrid"]):
        validate_contract("search-results", result)
    golden = json.loads((CONTRACTS / "mcp" / "tools-list.full.json").read_text())
    assert [t["name"] for t in legacy["tools"]] == [t["name"] for t in golden["tools"]]
    for seen, want in zip(legacy["tools"], golden["tools"], strict=True):
        assert seen["inputSchema"] == want["inputSchema"], seen["name"]
        assert seen["description"] == want["description"], seen["name"]
    # The HTTP clients observe the resident gateway; stdio is its own standalone lifecycle.
    for resident in residents:
        validate_contract("resident-status", resident)
    assert residents[0]["mode"] == residents[1]["mode"] == "serve"
    assert residents[0]["resident"] is residents[1]["resident"] is True
    assert residents[0]["listenerPort"] == residents[1]["listenerPort"] == serving["port"]
    assert residents[2]["mode"] == "stdio" and residents[2]["resident"] is False
    assert residents[2].get("listenerPort") is None


def resident_status(base: str) -> dict[str, Any]:
    status: dict[str, Any] = httpx.get(base + "/api/resident/status", timeout=10).json()
    validate_contract("resident-status", status)
    return status


def test_repeated_http_calls_reuse_one_resident_process_store_and_model(
    gno_env: dict[str, str], serving: dict[str, Any]
) -> None:
    """Sixteen short MCP sessions, four at a time, each running lexical, vector and hybrid
    retrieval: one process (the pid file's), no process or thread started per call, one model
    loaded for every worker thread, the same listener and one uninterrupted uptime."""
    base, pid = serving["base"], serving["pid"]
    url = base + "/mcp"
    assert server_pid(gno_env) == pid

    async def session(i: int) -> None:
        async with Client(url, mode="legacy" if i % 2 else MODERN, cache=None) as client:
            for tool in ("gno_search", "gno_vsearch", "gno_query"):
                found = await client.call_tool(tool, {"query": QUERIES[i % 3], "limit": 3})
                assert not found.is_error, (tool, found)
                assert found.structured_content["results"], tool  # type: ignore[index]

    async def warm() -> None:  # one vector search: one reader thread loads the model
        async with Client(url, mode="legacy", cache=None) as client:
            assert not (await client.call_tool("gno_vsearch", {"query": "notes"})).is_error

    asyncio.run(warm())
    first = resident_status(base)
    threads, children, rss = proc_threads(pid), proc_children(pid), proc_rss_mib(pid)

    async def rounds(start: int, stop: int) -> None:
        for batch in range(start, stop, 4):
            await asyncio.gather(*(session(i) for i in range(batch, batch + 4)))

    asyncio.run(rounds(0, 4))  # every reader thread has opened its index connection by now
    data = Path(gno_env["GNO_DATA_DIR"])
    store = proc_open_files(pid, data)
    assert any(name.endswith(".sqlite") for name in store), store
    asyncio.run(rounds(4, 16))
    later = resident_status(base)
    assert server_pid(gno_env) == pid
    assert later["listenerPort"] == first["listenerPort"] == serving["port"]
    assert later["uptimeSeconds"] > first["uptimeSeconds"]  # the same gateway all along
    assert later["admission"] == {"state": "accepting", "activeRequests": 0, "queuedRequests": 0}
    assert proc_children(pid) == children  # no worker process per call
    assert proc_open_files(pid, data) == store  # the same index connections, none per call
    # Every reader thread embeds with the model the first one loaded: no thread pool of a second
    # inference session, and not the ~30 MiB a second copy of the model takes.
    assert proc_threads(pid) == threads
    assert proc_rss_mib(pid) - rss < 15, (rss, proc_rss_mib(pid))
    listed = gno(gno_env, "serve", "--status", "--json")
    assert listed.returncode == 0, listed.stderr
    report = json.loads(listed.stdout)
    validate_contract("process-status", report)
    assert report["pid"] == pid and report["resident"]["listenerPort"] == serving["port"]


def test_app_status_is_served_on_loopback_with_the_resident_status(
    gno_env: dict[str, str], serving: dict[str, Any]
) -> None:
    base = serving["base"]
    status = httpx.get(base + "/api/status", timeout=30).json()
    validate_contract("status", status)
    assert status["resident"]["mode"] == "serve" and status["resident"]["resident"] is True
    assert status["resident"]["transport"]["authenticated"] is False
    assert status["resident"]["transport"]["writeEnabled"] is False
    text = json.dumps(resident_status(base))
    for secret in (gno_env["GNO_DATA_DIR"], gno_env["GNO_CONFIG_DIR"], "127.0.0.1"):
        assert secret not in text  # redacted: counts and limits, no paths or peers
