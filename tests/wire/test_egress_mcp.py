"""The eight egress tools over a real ``gno mcp`` stdio process on a SQLite index made by the
CLI (issue 26): reads always listed, writes only with ``--enable-write``; every answer valid
against its committed contract; a relaxation without (or with a replayed, stale,
cross-collection or cross-target) confirmation fails closed and changes nothing; tightening is
immediate; an unknown field is refused before any handler runs; purge needs ``confirm: true``."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.schema_check import assert_valid

REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "gno_cli.main"]
READS = [
    "gno_egress_policy_get",
    "gno_egress_check",
    "gno_egress_audit_list",
    "gno_egress_audit_show",
    "gno_egress_audit_status",
]
WRITES = ["gno_egress_policy_set", "gno_egress_audit_delete", "gno_egress_audit_purge"]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("gno-egress-mcp")
    environ = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    environ.pop("GNO_MCP_ENABLE_WRITE", None)
    for name in ("notes", "team"):
        folder = home / name
        folder.mkdir()
        (folder / "a.md").write_text(f"# {name}\n\nsecret words of {name}\n", encoding="utf-8")
        subprocess.run(
            [*CLI, "collection", "add", str(folder), "--name", name],
            env=environ,
            check=True,
            capture_output=True,
            cwd=REPO,
        )
    return environ


class Server:
    """``gno mcp`` spoken to in raw JSON lines."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen(
            [*CLI, "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=REPO,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.next_id = 0
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t"}}
        assert "result" in self.rpc("initialize", init)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def rpc(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}})
        line = self.lines.get(timeout=60)
        assert line is not None, "the server closed stdout"
        answer: dict[str, Any] = json.loads(line)
        assert answer["id"] == self.next_id
        return answer

    def tools(self) -> list[str]:
        return [t["name"] for t in self.rpc("tools/list")["result"]["tools"]]

    def call(self, name: str, **arguments: Any) -> dict[str, Any]:
        answer = self.rpc("tools/call", {"name": name, "arguments": arguments})
        return answer.get("result") or answer

    def ok(self, name: str, contract: str, **arguments: Any) -> dict[str, Any]:
        result = self.call(name, **arguments)
        assert not result.get("isError"), result
        structured: dict[str, Any] = result["structuredContent"]
        assert_valid(contract, structured)
        assert result["content"][0]["text"]
        return structured

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()


def error_code(result: dict[str, Any]) -> str | None:
    """The gno error code of a failed call (``_meta``); ``INVALID_ARGUMENTS`` for arguments the
    closed input schema refused (no handler ran); ``rpc:<code>`` for a JSON-RPC error."""
    if "error" in result:
        return f"rpc:{result['error']['code']}"
    assert result.get("isError") is True, result
    if result["content"][0]["text"].startswith("Error: Invalid arguments for tool"):
        return "INVALID_ARGUMENTS"
    code: str = result["_meta"]["gno/error"]["code"]
    return code


@pytest.fixture(scope="module")
def writer(env: dict[str, str]) -> Iterator[Server]:
    server = Server(env, "--enable-write")
    yield server
    server.close()


def test_reads_are_always_listed_and_writes_only_behind_the_gate(env: dict[str, str]) -> None:
    server = Server(env)
    try:
        names = server.tools()
        assert [n for n in names if "egress" in n] == READS
        refused = server.call("gno_egress_policy_set", collection="notes", policy="local_only")
        assert error_code(refused) == "rpc:-32602"  # not registered: unknown tool
        # Local audit inspection stays available.
        assert server.ok("gno_egress_audit_status", "egress-audit-management")["status"]
    finally:
        server.close()


def test_policy_relaxation_confirmation_and_tightening(writer: Server) -> None:
    assert [n for n in writer.tools() if "egress" in n] == READS + WRITES

    def state(name: str = "notes") -> dict[str, Any]:
        return writer.ok("gno_egress_policy_get", "collection-egress-policy", collection=name)

    first = state()
    assert first["effectivePolicy"] == "local_only" and first["revision"] == 0
    assert first["source"] == "config_default" and first["configuredPolicy"] is None

    def confirm(**override: Any) -> dict[str, Any]:
        base = {
            "collection": "notes",
            "currentPolicy": "local_only",
            "currentRevision": 0,
            "targetPolicy": "lan",
            "acknowledged": True,
        }
        return {**base, **override}

    def relax(confirmation: dict[str, Any] | None, policy: str = "lan") -> dict[str, Any]:
        args: dict[str, Any] = {"collection": "notes", "policy": policy}
        if confirmation is not None:
            args["confirmation"] = confirmation
        return writer.call("gno_egress_policy_set", **args)

    required = "EGRESS_RELAXATION_CONFIRMATION_REQUIRED"
    # Without, cross-collection, cross-target, stale policy, stale revision: all fail closed.
    assert error_code(relax(None)) == required
    assert error_code(relax(confirm(collection="team"))) == required
    assert error_code(relax(confirm(targetPolicy="remote"))) == required
    assert error_code(relax(confirm(currentPolicy="lan"))) == required
    assert error_code(relax(confirm(currentRevision=5))) == required
    # acknowledged must be true, and an unknown field is refused before any handler runs:
    assert error_code(relax(confirm(acknowledged=False))) == "INVALID_ARGUMENTS"
    unknown = writer.call(
        "gno_egress_policy_set", collection="notes", policy="lan", confirmation=confirm(), force=1
    )
    assert error_code(unknown) == "INVALID_ARGUMENTS"
    assert "force" in unknown["content"][0]["text"]
    assert state() == first  # nothing changed, not even the revision

    relaxed = writer.ok(
        "gno_egress_policy_set",
        "collection-egress-policy-set",
        collection="notes",
        policy="lan",
        confirmation=confirm(),
    )
    assert relaxed["change"] == "relaxed"
    assert relaxed["current"]["effectivePolicy"] == "lan" and relaxed["current"]["revision"] == 1
    epoch = relaxed["invalidation"]["policyEpoch"]

    # Tightening is immediate: no confirmation, a new revision and epoch.
    tightened = writer.ok(
        "gno_egress_policy_set",
        "collection-egress-policy-set",
        collection="notes",
        policy="local_only",
    )
    assert tightened["change"] == "tightened"
    assert tightened["current"]["revision"] == 2
    assert tightened["invalidation"]["policyEpoch"] != epoch
    # The confirmation of revision 0 names the same policy again, but it was consumed.
    replayed = relax(confirm())
    assert error_code(replayed) == required
    assert state()["effectivePolicy"] == "local_only" and state()["revision"] == 2


def test_check_explains_without_acting(writer: Server) -> None:
    team = writer.ok("gno_egress_policy_get", "collection-egress-policy", collection="team")
    writer.ok(
        "gno_egress_policy_set",
        "collection-egress-policy-set",
        collection="team",
        policy="lan",
        confirmation={
            "collection": "team",
            "currentPolicy": team["effectivePolicy"],
            "currentRevision": team["revision"],
            "targetPolicy": "lan",
            "acknowledged": True,
        },
    )
    before = writer.ok("gno_egress_audit_status", "egress-audit-management")["status"]
    args: dict[str, Any] = {
        "collections": ["notes", "team"],
        "action": "serve",
        "destinationZone": "lan",
        "caller": {"authenticated": True, "operationAuthorized": True},
        "contentClass": "snippet",
    }
    denied = writer.ok("gno_egress_check", "collection-egress-check", **args)
    assert denied["mode"] == "denied" and denied["decision"]["reason"] == "POLICY_LOCAL_ONLY"
    partial = writer.ok(
        "gno_egress_check", "collection-egress-check", **args, partialResults="explicit"
    )
    assert partial["mode"] == "partial" and partial["allowedCollections"] == ["team"]
    assert partial["omittedCollections"] == [{"collection": "notes", "reason": "POLICY_LOCAL_ONLY"}]
    assert "secret" not in json.dumps(partial)
    unauthenticated = writer.ok(
        "gno_egress_check",
        "collection-egress-check",
        **{
            **args,
            "caller": {"authenticated": False, "operationAuthorized": True},
            "collections": ["team"],
        },
    )
    assert unauthenticated["decision"]["reason"] == "AUTHENTICATION_REQUIRED"
    # Scope: duplicates and unknown fields refused; a check records nothing.
    dup = writer.call("gno_egress_check", **{**args, "collections": ["team", "team"]})
    assert error_code(dup) in {"VALIDATION", "INVALID_ARGUMENTS"}
    assert error_code(writer.call("gno_egress_check", **args, query="x")) == "INVALID_ARGUMENTS"
    after = writer.ok("gno_egress_audit_status", "egress-audit-management")["status"]
    assert after["receipts"] == before["receipts"]


def test_receipts_list_show_delete_and_purge(writer: Server, env: dict[str, str]) -> None:
    # Receipts come from decisions where content leaves: made here through the Python API on
    # the same index (the gateway does the same through egress_authorize).
    script = (
        "import gno_core.entry as e\n"
        "from gno_core.contracts.egress_requests import RelaxationConfirmationInput as C\n"
        "with e.open() as g:\n"
        "    s = g.egress_policy_get('team')\n"
        "    if s.effective_policy == 'local_only':\n"
        "        g.egress_policy_set('team', 'lan', C(collection='team', current_policy=\n"
        "            'local_only', current_revision=s.revision, target_policy='lan',\n"
        "            acknowledged=True))\n"
        "    for zone in ('lan', 'remote', 'lan'):\n"
        "        g.egress_authorize(collections=['notes', 'team'], action='serve', zone=zone,\n"
        "            content_class='snippet', authenticated=True, authorized=True,\n"
        "            partial='explicit', operation='gno_query')\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=REPO)
    status = writer.ok("gno_egress_audit_status", "egress-audit-management")
    assert status["status"]["receipts"] == 3
    page = writer.ok("gno_egress_audit_list", "egress-audit-management", limit=2)
    assert len(page["receipts"]) == 2 and page["nextCursor"].startswith("gno-egress-audit-v1.")
    rest = writer.ok(
        "gno_egress_audit_list", "egress-audit-management", limit=2, cursor=page["nextCursor"]
    )
    assert len(rest["receipts"]) == 1 and "nextCursor" not in rest
    ids = [r["auditId"] for r in page["receipts"] + rest["receipts"]]
    assert len(set(ids)) == 3
    assert "secret" not in json.dumps(page)
    shown = writer.ok("gno_egress_audit_show", "egress-audit-management", auditId=ids[0])
    assert shown["receipt"]["auditId"] == ids[0]
    receipt = shown["receipt"]
    # Receipts of one millisecond are ordered by id: the one shown is a lan or a remote one.
    expected = [{"collection": "notes", "reason": "POLICY_LOCAL_ONLY"}]
    if receipt["destinationZone"] == "remote":
        expected.append({"collection": "team", "reason": "POLICY_LAN_ONLY"})
    assert receipt["omittedCollections"] == expected
    deleted = writer.ok("gno_egress_audit_delete", "egress-audit-management", auditId=ids[0])
    assert deleted["deleted"] == 1
    gone = writer.call("gno_egress_audit_show", auditId=ids[0])
    assert error_code(gone) == "NOT_FOUND"
    assert error_code(writer.call("gno_egress_audit_delete", auditId=ids[0])) == "NOT_FOUND"
    # Purge: confirm is required and must be true; policies survive it.
    assert error_code(writer.call("gno_egress_audit_purge")) == "INVALID_ARGUMENTS"
    assert error_code(writer.call("gno_egress_audit_purge", confirm=False)) == "INVALID_ARGUMENTS"
    purged = writer.ok("gno_egress_audit_purge", "egress-audit-management", confirm=True)
    assert purged["deleted"] == 2
    assert (
        writer.ok("gno_egress_audit_status", "egress-audit-management")["status"]["receipts"] == 0
    )
    team = writer.ok("gno_egress_policy_get", "collection-egress-policy", collection="team")
    assert team["effectivePolicy"] == "lan"
