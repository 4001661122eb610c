"""``gno collection add --memory`` and ``gno recall`` on a real SQLite index: facts written as
files, edited by hand, broken, superseded; the JSON contract and the exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_core.fact_files import content_hash, fact_path, record_id, render_fact
from gno_core.facts import FactRecord
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid

CREATED = "2026-12-01T09:00:00Z"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")  # the lexical leg alone, fast
    return Cli(tmp_path / "home", monkeypatch, capsys)


def write_fact(root: Path, text: str, *scopes: str, supersedes: tuple[str, ...] = ()) -> str:
    digest = content_hash(text)
    rid = record_id(digest, CREATED, "cli:someone", "ppid:1", scopes, supersedes)
    record = FactRecord(
        rid, text, scopes, "cli:someone", "ppid:1", CREATED, digest, None, supersedes
    )
    rel = fact_path(CREATED, rid)
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(render_fact(record), encoding="utf-8")
    return rel


def test_recall_from_a_memory_folder(cli: Cli, tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    old = write_fact(root, "The release train leaves on Thursdays", "project:gno")
    write_fact(
        root,
        "The release train leaves on Wednesdays",
        "project:gno",
        supersedes=(f"gno://mem/{old}",),
    )
    write_fact(root, "Thursdays are for the gym", "personal")
    (root / "facts" / "2026-12-01" / "mem-ffffffffffffffff.md").write_text(
        "---\nmemory:\n  recordId: mem-ffffffffffffffff\n---\nrelease train gossip\n",
        encoding="utf-8",
    )
    cli.ok("collection", "add", str(root), "--name", "mem", "--memory")
    listing = cli.ok("collection", "list", "--json").json()
    assert listing["collections"][0]["memoryManaged"] is True
    cli.ok("update")

    run = cli.ok("recall", "release train", "-c", "mem", "--scope", "project:gno", "--json")
    out = run.json()
    assert_valid("memory-recall", out)
    assert [f["text"] for f in out["facts"]] == ["The release train leaves on Wednesdays"]
    assert out["retrieval"] == {
        "mode": "lexical",
        "semanticUnavailable": out["retrieval"]["semanticUnavailable"],
    }
    assert out["receipt"]["caller"].startswith("cli:")
    text = cli.ok("recall", "release train", "-c", "mem", "--scope", "project:gno").out
    assert "Wednesdays" in text and "Thursdays" not in text

    # A hand edit that keeps the hash honest shows up after gno update; the superseded fact
    # stays a file, and search still finds every text.
    assert cli.ok("search", "gossip", "--json").json()["results"]
    empty = cli.ok("recall", "release", "-c", "mem", "--scope", "elsewhere", "--json").json()
    assert empty["facts"] == [] and "gno remember" in empty["hint"]
    status = cli.ok("status", "--json").json()
    assert_valid("status", status)
    memory = status["memory"]
    assert (memory["currentFacts"], memory["supersededFacts"], memory["invalidFacts"]) == (2, 1, 1)
    assert memory["diagnostics"][0]["code"] == "MEMORY_SCOPES_EMPTY"
    assert "1 invalid" in cli.ok("status").out


def test_recall_refusals_exit_with_their_codes(cli: Cli, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.md").write_text("# A\n", encoding="utf-8")
    cli.ok("collection", "add", str(plain), "--name", "plain")
    run = cli("recall", "x", "-c", "plain", "--scope", "a", "--json")
    assert run.code == 1 and run.json()["error"]["code"] == "MEMORY_COLLECTION_UNMANAGED"
    memory = tmp_path / "memory"
    memory.mkdir()
    cli.ok("collection", "add", str(memory), "--name", "mem", "--memory")
    run = cli("recall", "x", "-c", "mem", "--json")
    assert run.code == 1 and run.json()["error"]["code"] == "MEMORY_SCOPES_REQUIRED"
    run = cli("recall", "x", "-c", "nope", "--scope", "a")
    assert run.code == 1 and "No collection named nope" in run.err


def test_remember_then_recall_then_supersede(cli: Cli, tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    cli.ok("collection", "add", str(root), "--name", "mem", "--memory")
    cli.ok("update")
    fact = "The office wifi password rotates monthly"
    asked = cli.ok("remember", fact, "-c", "mem", "--scope", "office", "--json").json()
    assert asked["outcome"] == "candidates" and asked["candidates"] == []
    run = cli.ok("remember", fact, "-c", "mem", "--scope", "office", "--add", "--json")
    added = run.json()
    assert_valid("memory-remember", added)
    assert added["outcome"] == "added" and added["sync"] == {"status": "completed"}
    written = Path(added["absPath"])
    assert written.is_file() and written.is_relative_to(root / "facts")
    assert fact in written.read_text(encoding="utf-8")
    recalled = cli.ok("recall", "wifi password", "-c", "mem", "--scope", "office", "--json")
    receipt_file = tmp_path / "recall.json"
    receipt_file.write_text(recalled.out, encoding="utf-8")
    assert [f["text"] for f in recalled.json()["facts"]] == [fact]
    replay = cli(
        "remember", fact, "-c", "mem", "--scope", "other", "--add", "--receipt", str(receipt_file)
    )
    assert replay.code == 1 and "MEMORY_FENCED_REPLAY" not in replay.out
    assert "returned by a recall" in replay.err
    old = recalled.json()["facts"][0]
    newer = cli.ok(
        "remember",
        "The office wifi password rotates weekly",
        "-c",
        "mem",
        "--scope",
        "office",
        "--supersede",
        old["uri"],
        "--predecessor-hash",
        old["contentHash"],
        "--json",
    ).json()
    assert newer["outcome"] == "superseded"
    again = cli.ok("recall", "wifi password", "-c", "mem", "--scope", "office", "--json").json()
    assert [f["text"] for f in again["facts"]] == ["The office wifi password rotates weekly"]
    lost = cli(
        "remember",
        "The office wifi password never rotates",
        "-c",
        "mem",
        "--scope",
        "office",
        "--supersede",
        old["uri"],
        "--predecessor-hash",
        old["contentHash"],
        "--json",
    )
    assert lost.code == 4 and lost.json()["error"]["code"] == "MEMORY_SUPERSEDE_CONFLICT"


def test_a_superseding_fact_is_a_supersedes_edge(cli: Cli, tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    cli.ok("collection", "add", str(root), "--name", "mem", "--memory")
    first = cli.ok("remember", "Standup at nine", "-c", "mem", "--scope", "t", "--add", "--json")
    old = first.json()["record"]
    newer = cli.ok(
        "remember",
        "Standup at ten",
        "-c",
        "mem",
        "--scope",
        "t",
        "--supersede",
        old["uri"],
        "--predecessor-hash",
        old["contentHash"],
        "--json",
    ).json()["record"]
    back = cli.ok("backlinks", old["uri"], "--json").json()
    assert [(b["sourceDocUri"], b["relation"]) for b in back["backlinks"]] == [
        (newer["uri"], "supersedes")
    ]


def test_integrity_supersede_across_scopes_copies_and_other_collections(
    cli: Cli, tmp_path: Path
) -> None:
    root, other = tmp_path / "memory", tmp_path / "other"
    root.mkdir()
    other.mkdir()
    cli.ok("collection", "add", str(root), "--name", "mem", "--memory")
    cli.ok("collection", "add", str(other), "--name", "other", "--memory")
    fact = "The on-call rotation starts on Mondays"
    added = cli.ok("remember", fact, "-c", "mem", "--scope", "team", "--add", "--json").json()
    uri, digest = added["record"]["uri"], added["record"]["contentHash"]
    # remember --supersede of a fact in a scope the new one does not share: refused.
    run = cli(
        "remember",
        "On-call is cancelled",
        "-c",
        "mem",
        "--scope",
        "home",
        "--supersede",
        uri,
        "--predecessor-hash",
        digest,
        "--json",
    )
    assert run.code == 1 and run.json()["error"]["code"] == "MEMORY_PREDECESSOR_NOT_FOUND"
    # A copy of the fact file, and a fact of another memory naming this one: neither counts.
    written = Path(added["absPath"])
    (written.parent / "copy.md").write_bytes(written.read_bytes())
    rel = write_fact(other, "On-call moved to Sundays", "team", supersedes=(uri,))
    cli.ok("update")
    out = cli.ok("recall", "on-call rotation", "-c", "mem", "--scope", "team", "--json").json()
    assert [f["text"] for f in out["facts"]] == [fact]
    memory = cli.ok("status", "--json").json()["memory"]
    found = {(d["collection"], d["relPath"]): d["code"] for d in memory["diagnostics"]}
    copy_rel = str((written.parent / "copy.md").relative_to(root))
    assert found == {
        ("mem", copy_rel): "MEMORY_PATH_MISMATCH",
        ("other", rel): "MEMORY_SUPERSEDES_IGNORED",
    }
    assert (memory["currentFacts"], memory["supersededFacts"]) == (2, 0)
