"""Key stores are never collection roots (issue 21, failure 5): on the real file system, an
agent's ``gno_add_collection`` (MCP) and a person's ``gno collection add`` (even with
``--allow-broad-root``) refuse ``~/.ssh``, ``~/.gnupg/private-keys-v1.d``, ``~/.config/gh``,
``~/.aws``, ``~/.kube``, ``~/.docker`` ..., any folder under them and any link to them; other
hidden folders of the home folder only with the person's override. A collection that holds a
link to a key store, or a key store folder of its own, indexes none of its bytes: after every
attempt no tool returns one byte of a key."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import open_gno
from tests.integration.cli_helpers import Cli
from tests.wire.real_facade import Peer
from tests.wire.test_mcp_writes import call, error_code

SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA"
#: Key stores, each with a file holding a key (as Markdown too, so any pattern would take it).
STORES = {
    ".ssh": "id_ed25519.md",
    ".ssh/keys": "deploy.md",
    ".gnupg/private-keys-v1.d": "ABCDEF.key.md",
    ".config/gh": "hosts.md",
    ".config/gcloud": "credentials.md",
    ".aws": "credentials.md",
    ".azure": "msal_token_cache.md",
    ".kube": "config.md",
    ".docker": "config.md",
    ".password-store": "bank.md",
    ".local/share/keyrings": "login.md",
    ".mozilla/firefox/abc.default": "logins.md",
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    for store, name in STORES.items():
        (home / store).mkdir(parents=True, exist_ok=True)
        (home / store / name).write_text(f"# key\n\n{SECRET}\n", encoding="utf-8")
    (home / ".config" / "app").mkdir(parents=True)
    (home / ".config" / "app" / "readme.md").write_text("# App\n\nsettings\n", encoding="utf-8")
    (home / "link-to-ssh").symlink_to(home / ".ssh")
    work = home / "work"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "plan.md").write_text("# Plan\n\nwombat roadmap\n", encoding="utf-8")
    (work / "keys").symlink_to(home / ".ssh")  # a link out of the root: never followed
    (work / ".aws").mkdir()  # a key store of its own inside the collection: never indexed
    (work / ".aws" / "credentials.md").write_text(f"# aws\n\n{SECRET}\n", encoding="utf-8")
    (work / "cloud").symlink_to(work / ".aws")  # links inside the root to it: not followed
    (work / "docs" / "creds.md").symlink_to(work / ".aws" / "credentials.md")
    monkeypatch.setenv("HOME", str(home))
    for var in ("CONFIG", "DATA", "CACHE"):
        monkeypatch.setenv(f"GNO_{var}_DIR", str(tmp_path / "gno" / var.lower()))
    monkeypatch.delenv("GNO_MCP_ENABLE_WRITE", raising=False)
    return home


def _peer() -> Peer:
    peer = Peer(enable_write=True, facade=lambda: open_gno("default"))
    peer.initialize()
    return peer


def _leaks(peer: Peer) -> list[str]:
    """Every tool answer that carries a byte of the key."""
    every = call(peer, "gno_multi_get", pattern="**/*", maxBytes=100_000)
    answers: list[Any] = [
        every,
        call(peer, "gno_search", query="OPENSSH PRIVATE KEY"),
        call(peer, "gno_status"),
    ]
    for doc in every.get("structuredContent", {}).get("documents", []):
        answers.append(call(peer, "gno_get", ref=doc["uri"]))
    return [str(a)[:200] for a in answers if "b3BlbnNzaC1rZXktdjEAAAAA" in str(a)]


@pytest.mark.parametrize(
    "path",
    [
        *(f"~/{store}" for store in STORES),
        "~/.SSH",  # a case-insensitive disk opens it as ~/.ssh (here: missing or refused)
        "~/link-to-ssh",  # a link to ~/.ssh is ~/.ssh
        "~/link-to-ssh/keys",
    ],
)
def test_an_agent_cannot_add_a_key_store(home: Path, path: str) -> None:
    peer = _peer()
    result = call(peer, "gno_add_collection", path=path, pattern="**/*")
    if not result.get("isError"):  # accepted: let its indexing job finish, then look
        peer.handlers.jobs.manager.wait(result["structuredContent"]["jobId"], 30)
    assert _leaks(peer) == []
    if path == "~/.SSH" and not os.path.isdir(os.path.expanduser(path)):
        assert error_code(result) == "PATH_NOT_FOUND"
        return
    assert error_code(result) == "INVALID_PATH"
    text = result["content"][0]["text"]
    assert "keys, tokens or credentials" in text and "notes folder inside" not in text
    assert call(peer, "gno_list_jobs")["structuredContent"] == {"recent": []}


@pytest.mark.parametrize("path", ["~/.config", "~/.config/app", "~/.local", "~/.cache"])
def test_an_agent_cannot_add_another_hidden_home_folder(home: Path, path: str) -> None:
    (home / ".cache").mkdir(exist_ok=True)
    result = call(_peer(), "gno_add_collection", path=path)
    assert error_code(result) == "INVALID_PATH"
    assert "hidden folder of the home folder" in result["content"][0]["text"]


def test_a_collection_holding_a_link_to_a_key_store_indexes_none_of_it(home: Path) -> None:
    peer = _peer()
    added = call(peer, "gno_add_collection", path="~/work", pattern="**/*")["structuredContent"]
    peer.handlers.jobs.manager.wait(added["jobId"], 30)
    status = call(peer, "gno_job_status", jobId=added["jobId"])["structuredContent"]
    assert status["status"] == "completed", status
    hits = call(peer, "gno_search", query="wombat")["structuredContent"]["results"]
    assert [h["uri"] for h in hits] == ["gno://work/docs/plan.md"]
    assert _leaks(peer) == []


def test_the_cli_refuses_key_stores_even_with_the_override(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = Cli(home.parent / "gno", monkeypatch, capsys)
    for store in (".ssh", ".ssh/keys", ".gnupg/private-keys-v1.d", ".config/gh", ".aws"):
        for extra in ((), ("--allow-broad-root",)):
            run = cli("collection", "add", str(home / store), "--pattern", "**/*", *extra)
            assert run.code == 1, (store, extra, run.out)
            assert "keys, tokens or credentials" in run.err
            assert "--allow-broad-root" not in run.err and "notes folder inside" not in run.err
    run = cli("collection", "add", str(home / "link-to-ssh"), "--allow-broad-root")
    assert run.code == 1 and "keys, tokens or credentials" in run.err
    # Another hidden folder of the home folder: the person may insist.
    run = cli("collection", "add", str(home / ".config" / "app"))
    assert run.code == 1 and "--allow-broad-root" in run.err
    cli.ok("collection", "add", str(home / ".config" / "app"), "--allow-broad-root")
    cli.ok("update")
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in cli("search", "OPENSSH", "--json").out
    # The whole home folder, the person insisting: every key store in it is still left out.
    cli.ok("collection", "remove", "app")
    cli.ok("collection", "add", str(home), "--allow-broad-root", "--pattern", "**/*")
    cli.ok("update")
    assert cli.ok("search", "wombat", "--json").json()["results"]  # the rest is indexed
    found = cli.ok("search", "OPENSSH PRIVATE KEY", "--json", "-n", "100")
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in found.out


def test_a_root_swapped_for_a_link_to_a_key_store_is_not_read(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = Cli(home.parent / "gno", monkeypatch, capsys)
    notes = home / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nwombat\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes), "--pattern", "**/*")
    cli.ok("update")
    (notes / "a.md").unlink()
    notes.rmdir()
    notes.symlink_to(home / ".ssh")  # after the add: the root is now the key store
    run = cli("update", "--json")
    assert "KEY_STORE" in run.out or "key store" in run.out, run.out
    found = cli.ok("search", "OPENSSH PRIVATE KEY", "--json", "-n", "100")
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in found.out
    # What the collection held is inactive too: a configuration from before the rule whose
    # root is a key store keeps none of it searchable after the next update.
    assert cli.ok("search", "wombat", "--json").json()["results"] == []
