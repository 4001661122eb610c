"""End to end: the real CLI builds an index of ``foam-docs``, ``gno mcp`` serves it over stdio, and
the official SDK client drives it in each mode. Structured results are validated against the
committed contracts; a missing named index errors without being created."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp import Client, MCPError, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
CONTRACTS = REPO / "contracts"
CLI = [
    sys.executable,
    "-c",
    "import sys; from gno_cli.main import main; sys.exit(main(sys.argv[1:]))",
]
MODES = ["legacy", "auto", "2026-07-28"]


def validate(contract: str, value: Any) -> None:
    schema = json.loads((CONTRACTS / f"{contract}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(value)


@pytest.fixture(scope="module")
def foam_env(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("gno-mcp-e2e")
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    for argv in (
        ["collection", "add", str(shared_data / "foam-docs"), "--name", "foam"],
        ["update"],
    ):
        subprocess.run([*CLI, *argv], env=env, check=True, capture_output=True, cwd=REPO)
    return env


def drive(env: dict[str, str], mode: str) -> dict[str, Any]:
    params = StdioServerParameters(command=CLI[0], args=[*CLI[1:], "mcp"], env=env, cwd=str(REPO))

    async def main() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(params, mode=mode, cache=None) as client:
            seen["version"] = client.protocol_version
            seen["tools"] = [t.name for t in (await client.list_tools()).tools]
            search = await client.call_tool("gno_search", {"query": "wikilinks", "limit": 3})
            seen["search"] = search.structured_content
            top = search.structured_content["results"][0]  # type: ignore[index]
            got = await client.call_tool(
                "gno_get", {"ref": top["uri"], "fromLine": 1, "lineCount": 2}
            )
            seen["get"] = (got.structured_content, got.content[0].text)  # type: ignore[union-attr]
            multi = await client.call_tool(
                "gno_multi_get", {"pattern": "foam/user/features/*", "maxBytes": 400}
            )
            seen["multi"] = multi.structured_content
            for name in ("gno_status", "gno_peek", "gno_list_tags"):
                seen[name] = (await client.call_tool(name, {})).structured_content
            other = await client.call_tool("gno_get", {"ref": top["uri"] + "?index=elsewhere"})
            seen["other_index_tool"] = (other.is_error, other.content[0].text)  # type: ignore[union-attr]
            doc = await client.read_resource(top["uri"])
            seen["doc"] = doc.contents[0].text  # type: ignore[union-attr]
            tags = await client.read_resource("gno://tags?collection=foam")
            seen["tags"] = json.loads(tags.contents[0].text)  # type: ignore[union-attr]
            try:
                await client.read_resource(top["uri"] + "?index=elsewhere")
            except MCPError as exc:
                seen["other_index_resource"] = (exc.code, exc.error.message)
        return seen

    return asyncio.run(main())


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_gno_mcp_serves_a_real_index(foam_env: dict[str, str], mode: str) -> None:
    seen = drive(foam_env, mode)
    assert seen["version"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
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
    validate("search-results", seen["search"])
    assert seen["search"]["results"][0]["uri"] == "gno://foam/user/features/wikilinks.md"
    structured, text = seen["get"]
    validate("get", structured)
    assert text.splitlines()[0] == "1: # Wikilinks"
    validate("multi-get", seen["multi"])
    assert seen["multi"]["meta"]["returned"] > 1
    validate("status", seen["gno_status"])
    assert seen["gno_status"]["resident"]["mode"] == "stdio"
    assert seen["gno_status"]["chunking"]["state"] == "current"
    assert seen["gno_status"]["totalDocuments"] >= 80
    validate("peek", seen["gno_peek"])
    assert seen["gno_peek"]["initialized"] is True
    validate("tags-list", seen["gno_list_tags"])
    validate("tags-list", seen["tags"])
    assert seen["other_index_tool"] == (True, "Error: Index not found: elsewhere")
    assert seen["other_index_resource"] == (-32602, "Index not found: elsewhere")
    assert seen["doc"].startswith("<!--\n  URI: gno://foam/user/features/wikilinks.md\n")
    assert "\n1: # Wikilinks\n" in seen["doc"]
    data = Path(foam_env["GNO_DATA_DIR"])
    assert sorted(p.name for p in data.glob("index-*.sqlite")) == ["index-default.sqlite"]


@pytest.mark.slow
def test_an_unknown_profile_fails_with_validation_before_serving(foam_env: dict[str, str]) -> None:
    run = subprocess.run(
        [*CLI, "mcp", "--tool-profile", "tiny"],
        env=foam_env,
        input=b"",
        capture_output=True,
        cwd=REPO,
        check=False,
    )
    assert run.returncode == 1
    assert run.stdout == b""
    assert b"tool profile" in run.stderr
