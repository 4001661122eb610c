"""An audit interrupted part way, on a vault large enough that it takes seconds (6,000 generated
notes of twenty links each, some broken): Ctrl-C during ``gno audit`` prints the partial
report (the rules not finished ``inconclusive``, reason ``cancelled``) and exits 5, never a
clean report nor a traceback; a ``gno_audit`` cancelled over the real stdio MCP server answers
that partial report (the spec's audit contract), and the connection goes on serving."""

from __future__ import annotations

import json
import random
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cli_helpers import run_gno
from tests.integration.streams import GNO_INTERACTIVE, Lines, home_env, wait_for_open_index
from tests.schema_check import assert_valid

NOTES = 6000


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path]:
    root = tmp_path_factory.mktemp("big")
    vault = root / "vault"
    rnd = random.Random(25)
    for i in range(NOTES):
        folder = vault / f"d{i % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        links = " ".join(f"[[n{rnd.randrange(NOTES)}]]" for _ in range(20))
        broken = f" [[missing{i}]]" if i % 10 == 0 else ""
        (folder / f"n{i}.md").write_text(
            f"---\ntitle: Note {i}\ntags: [t{i % 7}]\n---\n# Note {i}\n\n{links}{broken}\n",
            encoding="utf-8",
        )
    env = home_env(root / "home")
    assert run_gno(env, "init", str(vault), "--name", "big").returncode == 0
    assert run_gno(env, "update", "-q").returncode == 0
    return env, root / "home" / "data"


def _assert_partial(report: dict[str, Any]) -> None:
    assert_valid("audit-report", report)
    assert report["status"] == "partial", report["status"]
    statuses = {r["id"]: (r["status"], r.get("reason")) for r in report["rules"]}
    stopped = [rule for rule, (status, reason) in statuses.items() if reason == "cancelled"]
    assert stopped, statuses
    assert all(statuses[rule][0] == "inconclusive" for rule in stopped)
    assert report["scope"]["documents"] == NOTES
    assert any("could not decide" in w for w in report["warnings"])


@pytest.mark.parametrize("json_out", [True, False], ids=["json", "text"])
def test_ctrl_c_during_gno_audit_prints_the_partial_report_and_exits_5(
    big: tuple[dict[str, str], Path], json_out: bool
) -> None:
    env, data = big
    proc = subprocess.Popen(
        [*GNO_INTERACTIVE, "audit", *(["--json"] if json_out else [])],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    try:
        wait_for_open_index(proc, data)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    printed, said = "\n".join(out.rest()), "\n".join(err.rest())
    assert "Traceback" not in said, said
    assert code == 5, (code, said)
    assert "interrupted" in said.lower()
    if json_out:
        _assert_partial(json.loads(printed))
    else:
        head = printed.splitlines()[0]
        assert head.startswith(f"Audit of {NOTES} documents (big; all): partial"), head
        assert "inconclusive" in printed and "cancelled" in printed
        assert "Warning: rules that could not decide" in printed


def _rpc(proc: subprocess.Popen[str], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def _answer(out: Lines, rid: int) -> dict[str, Any]:
    while True:
        line = out.next(timeout=60)
        assert line is not None, "the server ended without answering"
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == rid:
            return message


def test_a_cancelled_mcp_gno_audit_answers_its_partial_report_over_stdio(
    big: tuple[dict[str, str], Path],
) -> None:
    env, data = big
    proc = subprocess.Popen(
        [*GNO_INTERACTIVE, "mcp"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    out = Lines(proc.stdout)
    try:
        init = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        _rpc(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
        assert "result" in _answer(out, 0)
        _rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "gno_audit", "arguments": {}}
        _rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        wait_for_open_index(proc, data)  # the call is running
        cancel = {"requestId": 1, "reason": "the user stopped it"}
        _rpc(proc, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        result = _answer(out, 1)["result"]
        assert not result.get("isError"), result
        _assert_partial(result["structuredContent"])
        assert "partial" in result["content"][0]["text"]
        # The connection goes on: the next call is answered.
        _rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert "gno_audit" in {t["name"] for t in _answer(out, 2)["result"]["tools"]}
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        out.rest()
