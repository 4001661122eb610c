"""``gno collection policy get|set|check`` and ``gno egress-audit list|show|status|delete|purge``
in a child process on a SQLite index (issue 26): text and ``--json`` (valid against the egress
contracts), exit codes as the other commands; a relaxation without its confirmation flags, or
with a stale or replayed one, fails closed (exit 1) and says the command that confirms; a
tightening is immediate; purge needs ``--confirm``; the receipts never hold the notes' text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cli_helpers import run_gno
from tests.schema_check import assert_valid

REPO = Path(__file__).resolve().parents[2]
SECRET = "the merger closes on friday"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    environ = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }
    for name in ("notes", "team"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "a.md").write_text(f"# {name}\n\n{SECRET}\n", encoding="utf-8")
        assert run_gno(environ, "collection", "add", str(folder), "--name", name).returncode == 0
    assert run_gno(environ, "update").returncode == 0
    return environ


def gno(env: dict[str, str], *argv: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = run_gno(env, *argv)
    assert done.returncode == code, (argv, done.returncode, done.stdout, done.stderr)
    return done


def as_json(env: dict[str, str], contract: str, *argv: str, code: int = 0) -> Any:
    payload = json.loads(gno(env, *argv, "--json", code=code).stdout)
    assert_valid(contract, payload)
    return payload


def test_policy_get_set_and_the_one_use_confirmation(env: dict[str, str]) -> None:
    state = as_json(env, "collection-egress-policy", "collection", "policy", "get", "notes")
    assert (state["effectivePolicy"], state["source"], state["revision"]) == (
        "local_only",
        "config_default",
        0,
    )
    text = gno(env, "collection", "policy", "get", "notes").stdout
    assert text.startswith("notes: local_only\n") and "revision: 0" in text

    # No confirmation: refused, exit 1, the command that confirms on stderr.
    refused = gno(env, "collection", "policy", "set", "notes", "lan", code=1)
    assert "EGRESS" not in refused.stdout
    assert (
        "gno collection policy set notes lan --current-policy local_only --confirm-relaxation 0"
        in refused.stderr
    )
    error = as_json(env, "error", "collection", "policy", "set", "notes", "lan", code=1)
    assert error["error"]["code"] == "EGRESS_RELAXATION_CONFIRMATION_REQUIRED"
    assert error["error"]["details"]["mismatch"] == "missing"
    # A stale revision, or a flag without the other: refused.
    stale = ("--current-policy", "local_only", "--confirm-relaxation", "3")
    gno(env, "collection", "policy", "set", "notes", "lan", *stale, code=1)
    gno(env, "collection", "policy", "set", "notes", "lan", "--confirm-relaxation", "0", code=1)
    assert as_json(env, "collection-egress-policy", "collection", "policy", "get", "notes") == state

    confirm = ("--current-policy", "local_only", "--confirm-relaxation", "0")
    relaxed = as_json(
        env, "collection-egress-policy-set", "collection", "policy", "set", "notes", "lan", *confirm
    )
    assert relaxed["change"] == "relaxed" and relaxed["current"]["revision"] == 1
    tightened = gno(env, "collection", "policy", "set", "notes", "local_only").stdout
    assert tightened.startswith("notes: tightened (lan -> local_only, revision 1 -> 2)")
    # Replayed: the revision it names was consumed.
    replay = as_json(env, "error", "collection", "policy", "set", "notes", "lan", *confirm, code=1)
    assert replay["error"]["details"]["mismatch"] == "stale_revision"
    final = as_json(env, "collection-egress-policy", "collection", "policy", "get", "notes")
    assert (final["effectivePolicy"], final["revision"]) == ("local_only", 2)
    gno(env, "collection", "policy", "get", "nope", code=1)


def test_check_exit_codes_and_partial(env: dict[str, str]) -> None:
    confirm = ("--current-policy", "local_only", "--confirm-relaxation", "0")
    gno(env, "collection", "policy", "set", "team", "lan", *confirm)
    scope = ("notes", "team", "--zone", "lan", "--authenticated")
    denied = as_json(
        env, "collection-egress-check", "collection", "policy", "check", *scope, code=1
    )
    assert denied["mode"] == "denied" and denied["decision"]["reason"] == "POLICY_LOCAL_ONLY"
    partial = gno(env, "collection", "policy", "check", *scope, "--partial", "explicit").stdout
    assert partial.splitlines()[:3] == [
        "partial: EGRESS_DENIED (POLICY_LOCAL_ONLY)",
        "  may go: team",
        "  omitted: notes (POLICY_LOCAL_ONLY)",
    ]
    loopback = as_json(
        env, "collection-egress-check", "collection", "policy", "check", "--zone", "loopback"
    )
    assert loopback["decision"]["reason"] == "LOCAL_DESTINATION"
    gno(env, "collection", "policy", "check", "team", "--zone", "lan", code=1)  # no bearer
    gno(env, "collection", "policy", "check", "team", "team", code=1)  # named twice


def test_egress_audit_commands(env: dict[str, str]) -> None:
    script = (
        "import gno_core.entry as e\n"
        "with e.open() as g:\n"
        "    for zone in ('lan', 'remote'):\n"
        "        g.egress_authorize(collections=['notes'], action='serve', zone=zone,\n"
        "            content_class='snippet', authenticated=True, authorized=True)\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=REPO)
    status = as_json(env, "egress-audit-management", "egress-audit", "status")
    assert status["status"]["receipts"] == 2
    page = as_json(env, "egress-audit-management", "egress-audit", "list", "--limit", "1")
    assert len(page["receipts"]) == 1 and page["nextCursor"]
    listed = gno(env, "egress-audit", "list").stdout
    assert listed.splitlines()[-1] == "2 receipts" and SECRET not in listed
    first = page["receipts"][0]["auditId"]
    shown = gno(env, "egress-audit", "show", first).stdout
    assert shown.startswith(first) and "POLICY_LOCAL_ONLY" in shown
    deleted = as_json(env, "egress-audit-management", "egress-audit", "delete", first)
    assert deleted["deleted"] == 1
    gno(env, "egress-audit", "show", first, code=1)
    assert "--confirm" in gno(env, "egress-audit", "purge", code=1).stderr
    assert gno(env, "egress-audit", "purge", "--confirm").stdout == "deleted 1 receipt\n"
    assert (
        as_json(env, "egress-audit-management", "egress-audit", "status")["status"]["receipts"] == 0
    )
