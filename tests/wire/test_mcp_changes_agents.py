"""Issue 25's "done when": an agent connected over stdio to ``gno-mcp --tool-profile core`` (the
real server process, driven by the official SDK client) holds a ``gno_changes`` cursor while
another agent, a second ``gno-mcp`` process with writes enabled, captures notes and renames
one, and an agent in a shell moves another (``mv``, then ``gno update``); the first agent, in
the same session, reads on from its cursor and sees exactly those changes (each move one
``rename``), then nothing more. The processes share the index on disk, as agents would."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
CONTRACTS = REPO / "contracts"
#: What the ``gno-mcp`` console script runs (``gno_cli.main:mcp_main``), so the test runs the
#: code of this tree wherever the script was installed from.
GNO_MCP = [
    sys.executable,
    "-c",
    "import sys; from gno_cli.main import mcp_main; sys.exit(mcp_main())",
]
CLI = [
    sys.executable,
    "-c",
    "import sys; from gno_cli.main import main; sys.exit(main(sys.argv[1:]))",
]


def _validate(contract: str, value: Any) -> None:
    schema = json.loads((CONTRACTS / f"{contract}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(value)


def _server(env: dict[str, str], *args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=GNO_MCP[0], args=[*GNO_MCP[1:], *args], env=env, cwd=str(REPO)
    )


def _kinds(page: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for c in page["changes"]:
        path = (c["current"] or c["previous"])["uri"]
        if c["kind"] == "rename":
            path = f"{c['previous']['uri']} -> {path}"
        out.append((c["kind"], path))
    return out


async def _structured(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def _writer(env: dict[str, str]) -> None:
    """The other agent: captures two notes and renames one of them in its folder (preview, then
    apply)."""
    async with Client(_server(env, "--enable-write"), cache=None) as agent:
        for name in ("one", "two"):
            await _structured(
                agent,
                "gno_capture",
                {"collection": "notes", "content": f"# {name}\n", "path": f"inbox/{name}.md"},
            )
        ask = {"ref": "notes/inbox/one.md", "name": "first.md"}
        plan = await _structured(agent, "gno_rename_note", {"action": "preview", **ask})
        await _structured(
            agent,
            "gno_rename_note",
            {
                "action": "apply",
                **ask,
                "schemaVersion": "1.0",
                "planDigest": plan["planDigest"],
                "confirmation": "apply",
                "confirm": True,
            },
        )


def _gno(env: dict[str, str], *argv: str) -> None:
    proc = subprocess.run(
        [*CLI, *argv], check=False, env=env, capture_output=True, text=True, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr


def test_a_core_agent_sees_exactly_what_another_agent_changed(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "hub.md").write_text("# Hub\n", encoding="utf-8")
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    _gno(env, "init", str(vault), "--name", "notes")
    _gno(env, "update")

    async def main() -> tuple[list[str], dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with Client(_server(env, "--tool-profile", "core"), cache=None) as reader:
            tools = sorted(t.name for t in (await reader.list_tools()).tools)
            before = await _structured(reader, "gno_changes", {"limit": 1000})
            cursor = before["page"]["latestCursor"]
            await _writer(env)  # a second process, while this session stays open
            # and an agent working in a shell: mv, then gno update (a third process)
            (vault / "archive").mkdir()
            os.rename(vault / "inbox" / "two.md", vault / "archive" / "two.md")
            _gno(env, "update")
            after = await _structured(reader, "gno_changes", {"since": cursor})
            again = await _structured(reader, "gno_changes", {"since": after["page"]["nextCursor"]})
            return tools, before, after, again

    tools, before, after, again = asyncio.run(main())
    assert "gno_changes" in tools and "gno_capture" not in tools and len(tools) == 7
    assert _kinds(before) == [("create", "gno://notes/hub.md")]
    for page in (before, after, again):
        _validate("changes", page)
    assert _kinds(after) == [
        ("create", "gno://notes/inbox/one.md"),
        ("create", "gno://notes/inbox/two.md"),
        ("rename", "gno://notes/inbox/one.md -> gno://notes/inbox/first.md"),
        ("rename", "gno://notes/inbox/two.md -> gno://notes/archive/two.md"),
    ]
    for rename in after["changes"][2:]:
        assert rename["previous"]["sourceHash"] == rename["current"]["sourceHash"]
    assert not after["page"]["cursorExpired"] and not after["page"]["truncated"]
    assert again["changes"] == [] and again["page"]["nextCursor"] == after["page"]["nextCursor"]
