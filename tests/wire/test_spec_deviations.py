"""``docs/reference/spec-deviations.md`` stays true: the tools it lists as missing are exactly the
spec's tools the registry lacks (a tool that lands, or one the spec adds, fails this until the page
says so), and the counts it gives are the registry's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO.parent / "shared" / "spec" / "gno-mcp-spec.md"
PAGE = REPO / "docs" / "reference" / "spec-deviations.md"
GOLDENS = REPO / "contracts" / "mcp"


def spec_tools() -> set[str]:
    """Every tool the spec names: its sections, and the names in its prose and tables."""
    if not SPEC.is_file():
        pytest.skip(f"the spec is not at {SPEC}")
    text = SPEC.read_text(encoding="utf-8")
    return set(re.findall(r"^### (gno_[a-z_]+)", text, flags=re.M)) | set(
        re.findall(r"`(gno_[a-z_]*[a-z])(?:`| \{)", text)
    )


def registry(name: str) -> set[str]:
    tools = json.loads((GOLDENS / f"tools-list.{name}.json").read_text(encoding="utf-8"))
    return {tool["name"] for tool in tools["tools"]}


def listed_missing() -> set[str]:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Tools gno does not have yet", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `gno_")]
    return {name for row in rows for name in re.findall(r"`(gno_[a-z_]+)`", row.split("|")[1])}


def test_the_page_lists_exactly_the_spec_tools_gno_lacks() -> None:
    spec = spec_tools()
    assert len(spec) == 53  # the spec's full profile with writes
    ours = registry("full.write")
    assert ours <= spec, f"tools the spec does not name: {sorted(ours - spec)}"
    assert listed_missing() == spec - ours


def test_the_page_gives_the_registry_counts() -> None:
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    counts = (
        len(registry("full")),
        len(registry("full.write")),
        len(registry("core")),
        len(registry("core.write")),
    )
    assert f"gno has {counts[0]} and {counts[1]}, and {counts[2]} and {counts[3]}" in text
