"""The tool registry: golden ``tools/list`` per profile and write gate, descriptions, schemas,
profile selection, and the write and capability gates."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gno_adapters.mcp.descriptions import CORE_DESCRIPTIONS, FULL_DESCRIPTIONS
from gno_adapters.mcp.registry import (
    CORE_READ_TOOLS,
    CORE_WRITE_TOOLS,
    JSON_SCHEMA_DIALECT,
    ToolDef,
    ToolRegistry,
    parse_profile,
)
from gno_adapters.mcp.tools import ALL_TOOLS
from gno_core.contracts.schemas import build_schema
from gno_core.errors import ValidationError
from tests.wire.real_facade import Peer

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "contracts" / "mcp"
UPDATE = os.environ.get("GNO_UPDATE_GOLDENS") == "1"
VARIANTS = [("full", False), ("full", True), ("core", False), ("core", True)]


def registry(profile: str, write: bool, tools: tuple[ToolDef, ...] = ALL_TOOLS) -> ToolRegistry:
    return ToolRegistry(
        tools,
        profile=profile,
        enable_write=write,
        has_capability=lambda _: True,
        output_schema=build_schema,
    )


def golden_text(profile: str, write: bool) -> str:
    listing = {"tools": registry(profile, write).listing()}
    return json.dumps(listing, indent=2, ensure_ascii=False) + "\n"


def golden_path(profile: str, write: bool) -> Path:
    return GOLDEN_DIR / f"tools-list.{profile}{'.write' if write else ''}.json"


@pytest.mark.parametrize(("profile", "write"), VARIANTS)
def test_tools_list_matches_the_committed_golden(profile: str, write: bool) -> None:
    path = golden_path(profile, write)
    text = golden_text(profile, write)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, (
        f"{path.name} drifted from the registry; if the change is intended, regenerate with "
        "GNO_UPDATE_GOLDENS=1 pytest tests/wire/test_mcp_registry.py"
    )


@pytest.mark.parametrize(("profile", "write"), VARIANTS)
def test_served_tools_list_is_the_golden_on_the_wire(profile: str, write: bool) -> None:
    peer = Peer(profile=profile, enable_write=write)
    peer.initialize()
    served = peer.request("tools/list")["result"]
    assert served == json.loads(golden_path(profile, write).read_text(encoding="utf-8"))


def test_registry_names_and_order() -> None:
    assert [t.name for t in registry("full", False).tools] == [
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
    write_only = [t.name for t in registry("full", True).tools if t.write]
    assert write_only == [
        "gno_capture",
        "gno_remember",
        "gno_add_collection",
        "gno_create_folder",
        "gno_rename_note",
        "gno_move_note",
        "gno_duplicate_note",
        "gno_sync",
        "gno_embed",
        "gno_clear_collection_embeddings",
        "gno_index",
        "gno_remove_collection",
        "gno_egress_policy_set",
        "gno_egress_audit_delete",
        "gno_egress_audit_purge",
        "gno_trace_label",
        "gno_trace_export",
        "gno_trace_delete",
        "gno_trace_purge",
    ]
    assert [t.name for t in registry("full", True).tools if not t.write] == [
        t.name for t in registry("full", False).tools
    ]
    core = [t.name for t in registry("core", True).tools]
    assert core == [
        "gno_context",
        "gno_search",
        "gno_query",
        "gno_get",
        "gno_multi_get",
        "gno_recall",
        "gno_capture",
        "gno_remember",
        "gno_changes",
    ]
    assert [t.name for t in registry("core", False).tools] == [
        n for n in core if n not in ("gno_capture", "gno_remember")
    ]
    # the spec's core profile: exactly its seven read tools (gno_changes the last to land)
    assert {t.name for t in registry("core", False).tools} == CORE_READ_TOOLS
    assert set(core) <= CORE_READ_TOOLS | CORE_WRITE_TOOLS


def test_descriptions_differ_between_profiles_exactly_on_the_core_set() -> None:
    assert set(CORE_DESCRIPTIONS) == CORE_READ_TOOLS | CORE_WRITE_TOOLS
    assert len(CORE_DESCRIPTIONS) == 9
    full = {e["name"]: e for e in registry("full", True).listing()}
    core = {e["name"]: e for e in registry("core", True).listing()}
    differing = {n for n in core if core[n]["description"] != full[n]["description"]}
    assert differing == set(core)
    for name in set(FULL_DESCRIPTIONS) & set(CORE_DESCRIPTIONS):
        assert FULL_DESCRIPTIONS[name] != CORE_DESCRIPTIONS[name]
    for name, entry in core.items():
        assert {k: v for k, v in entry.items() if k != "description"} == {
            k: v for k, v in full[name].items() if k != "description"
        }, "input schemas, output schemas and annotations are identical across profiles"


def test_every_registered_tool_has_a_full_description() -> None:
    assert {t.name for t in ALL_TOOLS} <= set(FULL_DESCRIPTIONS)


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=lambda t: t.name)
def test_schemas_are_stamped_json_schema_2020_12(tool: ToolDef) -> None:
    (entry,) = [e for e in registry("full", True).listing() if e["name"] == tool.name]
    assert entry["inputSchema"]["$schema"] == JSON_SCHEMA_DIALECT
    assert entry["inputSchema"]["type"] == "object"
    Draft202012Validator.check_schema(entry["inputSchema"])
    if tool.output is None:
        # The spec names no output schema for gno_create_folder,
        # gno_clear_collection_embeddings and gno_duplicate_note; rename and move answer one
        # of two schemas by action (file-refactor-preview / -apply-result), tested per call.
        assert tool.name in {
            "gno_create_folder",
            "gno_clear_collection_embeddings",
            "gno_rename_note",
            "gno_move_note",
            "gno_duplicate_note",
        }
        assert "outputSchema" not in entry
    else:
        assert entry["outputSchema"] == build_schema(tool.output)
        assert entry["outputSchema"]["$schema"] == JSON_SCHEMA_DIALECT
        Draft202012Validator.check_schema(entry["outputSchema"])
    assert entry["annotations"]["readOnlyHint"] is (not tool.write)


def test_output_schemas_agree_with_committed_contract_files() -> None:
    contracts = GOLDEN_DIR.parent
    for tool in ALL_TOOLS:
        if tool.output is None:
            continue
        committed = contracts / f"{tool.output}.schema.json"
        assert committed.is_file(), tool.output
        if committed.is_file():
            assert json.loads(committed.read_text(encoding="utf-8")) == build_schema(tool.output)


def test_profile_selection() -> None:
    assert parse_profile(None) == "full"
    assert parse_profile("core") == "core"
    with pytest.raises(ValidationError) as caught:
        parse_profile("tiny")
    assert caught.value.code == "VALIDATION"
    with pytest.raises(ValidationError):
        Peer(profile="Core")


def _noop(call: Any) -> dict[str, Any]:
    return {"content": []}


SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
CAPTURE = ToolDef(name="gno_capture", input_schema=SCHEMA, output=None, handler=_noop, write=True)
SYNC = ToolDef(name="gno_sync", input_schema=SCHEMA, output=None, handler=_noop, write=True)
VSEARCH = ToolDef(
    name="gno_vsearch", input_schema=SCHEMA, output=None, handler=_noop, requires="vsearch"
)


def test_write_tools_are_registered_only_behind_the_gate_and_the_profile_narrows_them() -> None:
    def names(profile: str, write: bool) -> list[str]:
        return [t.name for t in registry(profile, write, (*ALL_TOOLS, CAPTURE, SYNC)).tools]

    assert "gno_capture" not in names("full", False) and "gno_sync" not in names("full", False)
    assert names("full", True)[-2:] == ["gno_capture", "gno_sync"]
    assert "gno_capture" in names("core", True) and "gno_sync" not in names("core", True)
    assert "gno_capture" not in names("core", False)


def test_tools_whose_capability_is_missing_are_not_registered() -> None:
    def build(capable: bool) -> list[str]:
        reg = ToolRegistry(
            (*ALL_TOOLS, VSEARCH),
            profile="full",
            enable_write=False,
            has_capability=lambda name: capable,
            output_schema=build_schema,
        )
        return [t.name for t in reg.tools]

    assert "gno_vsearch" in build(True)
    assert "gno_vsearch" not in build(False)


def test_write_gate_reads_the_environment_flag() -> None:
    from gno_adapters.mcp.server import write_enabled_by_env

    assert write_enabled_by_env({"GNO_MCP_ENABLE_WRITE": "1"})
    assert not write_enabled_by_env({"GNO_MCP_ENABLE_WRITE": "0"})
    assert not write_enabled_by_env({})
