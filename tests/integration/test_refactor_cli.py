"""Refactors on disk: ``gno rename`` / ``mv`` / ``duplicate`` show the diff, apply only with
``--yes``, keep the backlinks; an apply SIGKILLed at any step of its commit leaves, after the
next start (``gno update`` recovers first), the vault byte-identical to the before or the after
state and the index converged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cli_helpers import Cli, run_gno
from tests.schema_check import assert_valid

VAULT = {
    "old.md": "# Old\r\n\r\nbody\r\n",
    "hub.md": "See [[old]], [[old|label]] and [md](old.md#top).\n",
    "deep/leaf.md": "Up: [up](../old.md) and ![[old]]\n",
}


def _vault(root: Path) -> Path:
    notes = root / "vault"
    for rel, text in VAULT.items():
        path = notes / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    return notes


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    made = Cli(tmp_path, monkeypatch, capsys)
    made.ok("init", str(_vault(tmp_path)), "--name", "notes")
    made.ok("update")
    return made


def _backlinks(cli: Cli, ref: str) -> list[tuple[str, int]]:
    found = cli.ok("backlinks", ref, "--json").json()["backlinks"]
    return sorted((b["sourceDocUri"], b["position"]["startLine"]) for b in found)


def test_rename_shows_the_diff_applies_with_yes_and_keeps_the_backlinks(
    cli: Cli, tmp_path: Path
) -> None:
    before = _snapshot(tmp_path / "vault")
    links = _backlinks(cli, "notes/old.md")
    shown = cli.ok("rename", "notes/old.md", "new")  # no terminal: preview only
    assert "-See [[old]], [[old|label]] and [md](old.md#top)." in shown.out
    assert "+See [[new]], [[new|label]] and [md](new.md#top)." in shown.out
    assert "Not applied" in shown.err
    assert _snapshot(tmp_path / "vault") == before
    done = cli.ok("rename", "notes/old.md", "new", "--yes")
    assert "applied: gno://notes/old.md -> gno://notes/new.md" in done.out
    after = _snapshot(tmp_path / "vault")
    assert after["new.md"] == before["old.md"]  # CRLF kept
    assert after["deep/leaf.md"] == b"Up: [up](../new.md) and ![[new]]\n"
    assert _backlinks(cli, "notes/new.md") == links
    assert "0 added, 0 updated" in cli.ok("update").out + cli.ok("update").err


def test_mv_and_duplicate_with_json(cli: Cli, tmp_path: Path) -> None:
    preview = cli.ok("mv", "notes/old.md", "deep", "--json").json()
    assert_valid("file-refactor-preview", preview)
    moved = cli.ok("mv", "notes/old.md", "deep", "--json", "--yes").json()
    assert_valid("file-refactor-apply-result", moved)
    assert moved["status"] == "applied"
    assert (tmp_path / "vault/deep/leaf.md").read_bytes() == b"Up: [up](old.md) and ![[old]]\n"
    blocked = cli("mv", "notes/deep/old.md", "", "--name", "hub.md", "--yes")
    assert blocked.code == 1 and "occupied_target" in blocked.out
    copy = cli.ok("duplicate", "notes/hub.md", "--folder", "deep", "--yes", "--json").json()
    assert copy["target"]["relPath"] == "deep/hub-copy.md"


KILLER = textwrap.dedent(
    """
    import json, os, signal, sys
    from gno_adapters.bootstrap import open_gno
    from gno_adapters.files.refactor_commit import JournaledCommit
    from gno_core.contracts.refactors import RenameNoteRequest

    step = sys.argv[1]
    save = sys.argv[2] if len(sys.argv) > 2 else None

    def hook(at):
        if at == step and save:  # an editor saves the note at this step
            with open(os.path.join(os.environ["VAULT"], save), "a") as handle:
                handle.write("saved by an editor\\n")
        elif at == step:
            os.kill(os.getpid(), signal.SIGKILL)

    gno = open_gno()
    gno.refactors._commit = JournaledCommit(os.environ["GNO_DATA_DIR"] + "/refactor-journal", hook)
    request = RenameNoteRequest(ref="notes/old.md", name="new")
    plan = gno.rename_note(request)
    done = gno.rename_note(request.model_copy(update={
        "action": "apply", "schema_version": "1.0", "plan_digest": plan.plan_digest,
        "confirmation": "apply", "confirm": True}))
    print(json.dumps(done.wire()))
    """
)


@pytest.mark.parametrize(
    ("step", "command"),
    [
        ("stage:2", "update"),
        ("committing", "update"),
        ("apply:1", "update"),
        ("apply:3", "update"),
        ("committed", "update"),
        ("apply:1", "index"),  # every sync recovers first, not only gno update
    ],
)
def test_a_sigkilled_apply_recovers_to_before_or_after(
    tmp_path: Path, step: str, command: str
) -> None:
    notes, env = _indexed(tmp_path)
    before = _snapshot(notes)
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, step], env=env, capture_output=True, text=True, check=False
    )
    assert killed.returncode == -9, killed.stderr
    assert run_gno(env, command).returncode == 0  # the next start recovers, then syncs
    after = _snapshot(notes)
    renamed = step == "committed"
    if renamed:
        assert "new.md" in after and "old.md" not in after
        assert after["hub.md"] == b"See [[new]], [[new|label]] and [md](new.md#top).\n"
    else:
        assert after == before
    name = "notes/new.md" if renamed else "notes/old.md"
    found = json.loads(run_gno(env, "backlinks", name, "--json").stdout)["backlinks"]
    assert len(found) == 5
    journals = tmp_path / "data" / "refactor-journal"
    assert not journals.exists() or not any(journals.iterdir())


# -- links the index does not hold (issue 21, failure 6) -------------------------------------

BROKEN_YAML = (
    '---\ntitle: [unclosed\nup: "[[old]]"\n---\r\nSee [[old|label]] and [md](old.md#top).\r\n'
)
CROWD = " ".join(["[[hub]]"] * 20_000) + "\nlast [[old]] and ![img](./old.md)\n"


def _unseen_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Cli:
    notes = tmp_path / "vault"
    files: dict[str, bytes] = {
        "old.md": b"# Old\n",
        "hub.md": b"See [[old]]\n",
        "broken.md": BROKEN_YAML.encode(),
        "big.md": ("[[old]] first\n" + "filler words\n" * 25_000 + "![[old#H]] last\n").encode(),
        "crowd.md": CROWD.encode(),
        "bin.md": b"\x00binary [[old]]\n",
    }
    for rel, data in files.items():
        (notes / rel).parent.mkdir(parents=True, exist_ok=True)
        (notes / rel).write_bytes(data)
    made = Cli(tmp_path, monkeypatch, capsys)
    made.ok("init", str(notes), "--name", "notes")
    _ingest_limit(made, 256 * 1024)
    made.ok("update")
    return made


def _ingest_limit(cli: Cli, max_file_bytes: int) -> None:
    from ruamel.yaml import YAML

    path = cli.home / "config" / "index.yml"
    yaml = YAML()
    data = yaml.load(path.read_text(encoding="utf-8"))
    data.setdefault("ingest", {})["maxFileBytes"] = max_file_bytes
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def test_rename_rewrites_links_the_index_does_not_hold_and_names_what_it_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = _unseen_vault(tmp_path, monkeypatch, capsys)
    status = cli.ok("status", "--json").json()
    failed = {e["relPath"]: e["code"] for e in status["recentErrors"]}
    assert failed == {"broken.md": "FRONTMATTER", "big.md": "TOO_LARGE", "bin.md": "BINARY"}
    vault = tmp_path / "vault"
    before = _snapshot(vault)
    shown = cli.ok("rename", "notes/old.md", "new")
    assert "+See [[new|label]] and [md](new.md#top).\r" not in shown.out  # lines, no CR
    assert "+See [[new|label]] and [md](new.md#top)." in shown.out
    assert "+last [[new]] and ![img](./new.md)" in shown.out
    assert "warning: notes/bin.md was not scanned for links (BINARY" in shown.out
    assert _snapshot(vault) == before
    preview = cli.ok("rename", "notes/old.md", "new", "--json").json()
    assert_valid("file-refactor-preview", preview)
    edits = {d["relPath"]: d["edits"] for d in preview["affectedDocuments"]}
    assert (edits["broken.md"], edits["big.md"], edits["crowd.md"], edits["hub.md"]) == (
        3,
        2,
        2,
        1,
    )
    assert "bin.md" not in edits
    done = cli.ok("rename", "notes/old.md", "new", "--yes", "--json").json()
    assert_valid("file-refactor-apply-result", done)
    assert done["status"] == "applied"
    assert "notes/bin.md" in done["message"] and "BINARY" in done["message"]
    after = _snapshot(vault)
    assert set(after) == set(before) - {"old.md"} | {"new.md"}  # no write elsewhere
    assert (
        after["broken.md"]
        == BROKEN_YAML.replace("[[old", "[[new").replace("(old.md", "(new.md").encode()
    )
    assert after["big.md"] == before["big.md"].replace(b"[[old", b"[[new")
    assert (
        after["crowd.md"]
        == CROWD.replace("[[old]]", "[[new]]").replace("./old.md", "./new.md").encode()
    )
    assert after["bin.md"] == before["bin.md"]  # named, never written
    # The index holds the edited notes as they are (still failing) and nothing churns.
    again = cli.ok("status", "--json").json()
    assert {e["relPath"] for e in again["recentErrors"]} == set(failed)
    assert again["links"]["unresolved"] == 0
    shown_status = cli.ok("status").out
    assert "0 unresolved" in shown_status
    assert "(the links of 3 files that failed to index are not counted)" in shown_status
    assert "0 added, 0 updated" in cli.ok("update").out


def _env(tmp_path: Path, notes: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
        "VAULT": str(notes),
    }


def _indexed(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The vault, registered and indexed by the CLI as a user would, and its environment."""
    notes = _vault(tmp_path)
    env = _env(tmp_path, notes)
    assert run_gno(env, "init", str(notes), "--name", "notes").returncode == 0
    assert run_gno(env, "update").returncode == 0
    return notes, env


SAVED = b"saved by an editor\n"


@pytest.mark.parametrize("step", ["committing", "check:2", "check:3"])
def test_a_save_during_the_apply_wins_and_the_apply_rolls_back(tmp_path: Path, step: str) -> None:
    notes, env = _indexed(tmp_path)
    before = _snapshot(notes)
    ran = subprocess.run(
        [sys.executable, "-c", KILLER, step, "hub.md"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert_valid("file-refactor-apply-result", result)
    assert result["status"] == "conflict"
    assert result["filesystem"]["state"] == "rolled_back"
    assert _snapshot(notes) == {**before, "hub.md": before["hub.md"] + SAVED}


def test_a_save_after_a_killed_apply_survives_the_recovery(tmp_path: Path) -> None:
    notes, env = _indexed(tmp_path)
    before = _snapshot(notes)
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, "apply:3"], env=env, capture_output=True, check=False
    )
    assert killed.returncode == -9
    rewritten = (notes / "hub.md").read_bytes()
    assert rewritten != before["hub.md"]
    with open(notes / "hub.md", "ab") as handle:  # the user edits a note already rewritten
        handle.write(SAVED)
    updated = run_gno(env, "update", "--json")
    assert updated.returncode == 0, updated.stderr
    after = _snapshot(notes)
    assert after.pop("hub.md") == rewritten + SAVED
    [copy] = [name for name in after if name.startswith("hub.md.conflict-")]
    assert after.pop(copy) == before.pop("hub.md")
    assert after == before
    [kept] = json.loads(updated.stdout)["recoveredEdits"]
    assert (kept["collection"], kept["relPath"], kept["conflictCopy"]) == ("notes", "hub.md", copy)


def test_mv_moves_past_links_the_index_does_not_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = _unseen_vault(tmp_path, monkeypatch, capsys)
    vault = tmp_path / "vault"
    before = _snapshot(vault)
    done = cli.ok("mv", "notes/old.md", "deep", "--yes", "--json").json()
    assert done["status"] == "applied" and "notes/bin.md" in done["message"]
    after = _snapshot(vault)
    assert set(after) == set(before) - {"old.md"} | {"deep/old.md"}
    # Bare names still name the note; paths follow it.
    assert after["broken.md"] == BROKEN_YAML.replace("(old.md", "(deep/old.md").encode()
    assert after["crowd.md"] == CROWD.replace("./old.md", "./deep/old.md").encode()
    assert after["big.md"] == before["big.md"]
    assert after["bin.md"] == before["bin.md"]
