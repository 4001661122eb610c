"""Collection roots may not overlap (issue 21, failure 6): with ``va`` and ``va/sub`` both
collections a note under ``va/sub`` is two documents, and a rename through one collection reads
the shared file as the other's and leaves its links broken. ``gno collection add`` (CLI) and
``gno_add_collection`` (MCP) refuse a root inside another collection's root or containing one
(``CONFLICT``, ``details.code`` ``OVERLAPPING_ROOT``, naming the other collection); a
configuration written before keeps working and ``gno status`` reports it (not healthy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.wire.test_mcp_write_jobs import made_with, peer_over
from tests.wire.test_mcp_writes import call, error_code


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "gno", monkeypatch, capsys)


def _tree(tmp_path: Path) -> Path:
    va = tmp_path / "vault" / "va"
    (va / "sub").mkdir(parents=True)
    (tmp_path / "vault" / "vab").mkdir()
    (va / "index.md").write_text("# Index\n\nSee [[shared]].\n", encoding="utf-8")
    (va / "sub" / "shared.md").write_text("# Shared\n\nwombat\n", encoding="utf-8")
    return va


def test_the_cli_refuses_a_root_inside_or_around_another(cli: Cli, tmp_path: Path) -> None:
    va = _tree(tmp_path)
    cli.ok("collection", "add", str(va))
    for path, relation in ((va / "sub", "inside"), (va.parent, "contains")):
        run = cli("collection", "add", str(path), "--json")
        assert run.code == 1, run.out
        error = run.json()["error"]
        assert error["code"] == "CONFLICT"
        assert error["details"] == {
            "code": "OVERLAPPING_ROOT",
            "collection": "va",
            "path": str(va),
            "relation": relation,
        }
        assert "collection va" in error["message"]
    cli.ok("collection", "add", str(tmp_path / "vault" / "vab"))  # a sibling is apart
    names = [c["name"] for c in cli.ok("collection", "list", "--json").json()["collections"]]
    assert names == ["va", "vab"]


def test_an_agent_cannot_add_a_root_inside_another() -> None:
    made = made_with()
    tree = made.tree
    tree.write("/more/sub/second.md", "# Second\n\nwombat\n")  # type: ignore[attr-defined]
    peer = peer_over(made)
    first = call(peer, "gno_add_collection", path="/more")["structuredContent"]
    peer.handlers.jobs.manager.wait(first["jobId"], 10)
    for path in ("/more/sub", "/"):
        result = call(peer, "gno_add_collection", path=path)
        assert error_code(result) == ("CONFLICT" if path != "/" else "INVALID_PATH")
    result = call(peer, "gno_add_collection", path="/more/sub")
    assert "collection more" in result["content"][0]["text"]
    listing = call(peer, "gno_status")["structuredContent"]["collections"]
    assert [c["name"] for c in listing] == ["notes", "more"]


def test_an_existing_overlapping_configuration_is_reported_not_broken(
    cli: Cli, tmp_path: Path
) -> None:
    va = _tree(tmp_path)
    cli.ok("collection", "add", str(va))
    cli.ok("collection", "add", str(tmp_path / "vault" / "vab"))
    config = tmp_path / "gno" / "config" / "index.yml"
    text = config.read_text(encoding="utf-8")
    # As a configuration from before the rule: vab's root moved under va by hand.
    config.write_text(text.replace(str(tmp_path / "vault" / "vab"), str(va / "sub")), "utf-8")
    cli.ok("update")
    status = cli.ok("status", "--json").json()
    overlaps = {c["name"]: c.get("overlaps") for c in status["collections"]}
    assert overlaps == {"va": ["vab"], "vab": ["va"]}
    assert status["healthy"] is False
    assert "root overlaps vab" in cli.ok("status").out
    assert cli.ok("search", "wombat", "--json").json()["results"]  # still searchable
