"""Section targets survive edits above and below the section, and fail closed when the
heading is gone, changed or ambiguous; over the facade, MCP and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import build
from gno_core.contracts.evidence_requests import SectionRequest
from gno_core.errors import NotFoundError, ValidationError
from gno_core.evidence.sections import parse_sections, slugify
from tests.evidence.support import evidence_adapters
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

DOC = "# Guide\n\nIntro.\n\n## Setup\n\nInstall it.\n\n## Usage\n\nRun it.\n\n### Flags\n\n-v\n"


def setup_made() -> Any:
    return evidence_adapters({"guide.md": DOC, "twins.md": "# A\n\n## Same\n\nx\n\n## Same\n\ny\n"})


def create(gno: Any, **fields: Any) -> dict[str, Any]:
    result: dict[str, Any] = gno.section(
        SectionRequest(action="create", ref="notes/guide.md", **fields)
    ).wire()
    return result


def resolve(gno: Any, target: dict[str, Any], ref: str = "notes/guide.md") -> dict[str, Any]:
    result: dict[str, Any] = gno.section(
        SectionRequest.model_validate({"action": "resolve", "ref": ref, "target": target})
    ).wire()
    return result


def rewrite(made: Any, gno: Any, text: str, name: str = "guide.md") -> None:
    made.tree.write(f"/notes/{name}", text)
    gno.sync()


def test_slugs_and_spans() -> None:
    assert slugify("Hello, World! 2") == "hello-world-2"
    assert slugify("***") == "section"
    sections = parse_sections(DOC.split("\n"))
    assert [(s.slug, s.line, s.end_line, s.path) for s in sections] == [
        ("guide", 1, 16, ()),
        ("setup", 5, 8, ("guide",)),
        ("usage", 9, 16, ("guide",)),
        ("flags", 13, 16, ("guide", "usage")),
    ]
    fenced = parse_sections(["```", "# not a heading", "```", "# Real"])
    assert [s.title for s in fenced] == ["Real"]


def test_exact_then_recovered_after_edits_above_and_exact_after_edits_below() -> None:
    made = setup_made()
    with build(made) as gno:
        target = create(gno, anchor="Setup")["target"]
        assert_valid(
            "section", {"schemaVersion": "1.0", "action": "create", "uri": "x", "target": target}
        )
        exact = resolve(gno, target)
        assert exact["status"] == "exact"
        assert (exact["citation"]["lineStart"], exact["citation"]["lineEnd"]) == (5, 8)
        rewrite(made, gno, DOC + "\nMore at the end.\n")
        assert resolve(gno, target)["status"] == "exact"
        rewrite(made, gno, "Preface line.\n\n" + DOC)
        moved = resolve(gno, target)
        assert moved["status"] == "recovered"
        assert moved["citation"]["lineStart"] == 7


def test_changed_missing_and_ambiguous_fail_closed() -> None:
    made = setup_made()
    with build(made) as gno:
        target = create(gno, anchor="setup")["target"]
        rewrite(made, gno, DOC.replace("Install it.", "Install it twice."))
        stale = resolve(gno, target)
        assert stale["status"] == "stale" and "citation" not in stale
        rewrite(made, gno, DOC.replace("## Setup", "## Installation"))
        missing = resolve(gno, target)
        assert missing["status"] == "missing" and "citation" not in missing
        with pytest.raises(ValidationError) as caught:
            gno.section(SectionRequest(action="create", ref="notes/twins.md", anchor="Same"))
        assert caught.value.details["reason"] == "ambiguous_anchor"
        twin = gno.section(SectionRequest(action="create", ref="notes/twins.md", line=7)).wire()
        assert twin["target"]["occurrence"] == 2
        rewrite(made, gno, "# A\n\n## Same\n\nz\n\n## Same\n\nw\n", "twins.md")
        assert resolve(gno, twin["target"], "notes/twins.md")["status"] == "ambiguous"
        with pytest.raises(NotFoundError):
            create(gno, line=2)


@pytest.mark.parametrize(
    "arguments",
    [
        {"action": "create", "ref": "notes/guide.md"},
        {"action": "create", "ref": "notes/guide.md", "anchor": "Setup", "line": 5},
        {"action": "resolve", "ref": "notes/guide.md", "anchor": "Setup"},
        {"action": "delete", "ref": "notes/guide.md"},
        {"action": "create", "ref": "notes/guide.md", "anchor": "Setup", "extra": 1},
    ],
)
def test_mcp_refuses_malformed_branches(arguments: dict[str, Any]) -> None:
    made = setup_made()
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    result = peer.request("tools/call", {"name": "gno_section", "arguments": arguments})["result"]
    assert result["isError"] is True


def test_mcp_create_and_resolve_with_get_guidance() -> None:
    made = setup_made()
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    created = peer.request(
        "tools/call",
        {
            "name": "gno_section",
            "arguments": {"action": "create", "ref": "notes/guide.md", "anchor": "Usage"},
        },
    )["result"]
    assert_valid("section", created["structuredContent"])
    target = created["structuredContent"]["target"]
    resolved = peer.request(
        "tools/call",
        {
            "name": "gno_section",
            "arguments": {"action": "resolve", "ref": "notes/guide.md", "target": target},
        },
    )["result"]
    assert_valid("section", resolved["structuredContent"])
    assert "fromLine=9 lineCount=8" in resolved["content"][0]["text"]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_cli_section_create_and_resolve(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "guide.md").write_text(DOC, encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    created = cli.ok("section", "create", "notes/guide.md", "--anchor", "Usage").json()
    saved = tmp_path / "target.json"
    saved.write_text(json.dumps(created["target"]), encoding="utf-8")
    out = cli.ok("section", "resolve", "notes/guide.md", "--target", str(saved)).out
    assert out.startswith("exact: gno://notes/guide.md:9-16 Usage")


def test_cli_section_resolve_takes_what_create_printed(cli: Cli, tmp_path: Path) -> None:
    """Issue 23: ``section create --json > t.json; section resolve --target t.json`` was refused
    with 11 validation errors (the create result wraps the target); the saved output as printed
    resolves, and so does the bare target."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "guide.md").write_text(DOC, encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    printed = cli.ok("section", "create", "notes/guide.md", "--anchor", "Usage", "--json").out
    saved = tmp_path / "created.json"
    saved.write_text(printed, encoding="utf-8")
    out = cli.ok("section", "resolve", "notes/guide.md", "--target", str(saved)).out
    assert out.startswith("exact: gno://notes/guide.md:9-16 Usage")
    # Something else wrapped in the same way is still refused, naming what is wrong.
    wrapped = {**json.loads(printed), "action": "resolve"}
    saved.write_text(json.dumps(wrapped), encoding="utf-8")
    refused = cli("section", "resolve", "notes/guide.md", "--target", str(saved))
    assert refused.code == 1 and "target" in refused.err
