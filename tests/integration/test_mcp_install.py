"""``gno mcp install | status | uninstall`` on every target and scope, against config files that
already hold comments and other servers: every other byte survives the round trip, and the
installed command, launched the way a client launches it, answers ``initialize`` over stdio."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gno_cli.main import main

STRICT_JSON = """{
    "theme": "dark",
    "mcpServers": {
        "other": {
            "command": "npx",
            "args": ["-y", "@other/server"]
        }
    },
    "numStartups": 12
}
"""

JSONC = """// user settings, edited by hand
{
  /* keep this comment */
  "theme": "dark", // and this one
  "%s": {
    "other": {"command": "npx", "args": ["-y", "@other/server",],}, // trailing commas
  },
  "vim_mode": true,
}
"""

OPENCODE = """{
  // OpenCode
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "other": {"type": "local", "command": ["npx", "other"], "enabled": true} // other
  }
}
"""

TOML = """# Codex configuration
model = "o3"  # the model

[mcp_servers.other]
command = "npx"
args = ["-y", "@other/server"]  # keep me

[mcp_servers.other.env]
TOKEN = "x"

# profiles below
[profiles.fast]
model = "o4-mini"
"""

YAML = """# LibreChat configuration
version: 1.2.1
cache: true

mcpServers:
  # an existing server
  other:
    command: npx
    args:
      - -y
      - "@other/server"

interface:
  privacyPolicy:
    externalUrl: 'https://example.com'  # quoted on purpose
"""

#: target -> scope -> (path relative to the home or project folder, original text)
CASES: dict[str, dict[str, tuple[str, str]]] = {
    "claude-desktop": {"user": (".config/Claude/claude_desktop_config.json", STRICT_JSON)},
    "claude-code": {"user": (".claude.json", STRICT_JSON), "project": (".mcp.json", STRICT_JSON)},
    "codex": {"user": (".codex/config.toml", TOML), "project": (".codex/config.toml", TOML)},
    "cursor": {
        "user": (".cursor/mcp.json", STRICT_JSON),
        "project": (".cursor/mcp.json", STRICT_JSON),
    },
    "zed": {"user": (".config/zed/settings.json", JSONC % "context_servers")},
    "windsurf": {"user": (".codeium/windsurf/mcp_config.json", STRICT_JSON)},
    "opencode": {
        "user": (".config/opencode/opencode.jsonc", OPENCODE),
        "project": ("opencode.json", OPENCODE),
    },
    "amp": {"user": (".config/amp/settings.json", JSONC % "amp.mcpServers")},
    "lmstudio": {"user": (".lmstudio/mcp.json", STRICT_JSON)},
    "librechat": {"project": ("librechat.yaml", YAML)},
}
PAIRS = [(t, s) for t, scopes in CASES.items() for s in scopes]


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "APPDATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GNO_CONFIG_DIR", str(tmp_path / "gno-config"))
    monkeypatch.setenv("GNO_DATA_DIR", str(tmp_path / "gno-data"))
    monkeypatch.setenv("GNO_CACHE_DIR", str(tmp_path / "gno-cache"))
    monkeypatch.chdir(project)
    return {"user": home, "project": project, "root": tmp_path}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def _status_row(capsys: pytest.CaptureFixture[str], target: str, scope: str) -> dict[str, Any]:
    code, report = _run(capsys, "mcp", "status", "-t", target, "-s", scope)
    assert code == 0
    assert [r["target"] for r in report["targets"]] == [target]
    row: dict[str, Any] = report["targets"][0]
    return row


@pytest.mark.parametrize(("target", "scope"), PAIRS)
def test_round_trip_leaves_every_other_byte(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str], target: str, scope: str
) -> None:
    rel, original = CASES[target][scope]
    config = world[scope] / rel
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_bytes(original.encode())

    code, preview = _run(capsys, "mcp", "install", "-t", target, "-s", scope, "--dry-run")
    assert code == 0 and preview["changed"] and preview["dryRun"]
    assert config.read_bytes() == original.encode()
    assert preview["diff"].startswith(f"--- {config}\n+++ {config}\n")
    added = [ln for ln in preview["diff"].splitlines() if ln.startswith("+") and "gno" in ln]
    assert added, preview["diff"]
    body = preview["diff"].splitlines()[2:]
    plus = {ln[1:] for ln in body if ln.startswith("+")}
    for line in (ln[1:] for ln in body if ln.startswith("-")):
        # The only change to an existing line: a comma after the member the entry follows.
        assert any(
            p[:i] + p[i + 1 :] == line for p in plus for i, ch in enumerate(p) if ch == ","
        ), line

    code, done = _run(capsys, "mcp", "install", "-t", target, "-s", scope)
    assert code == 0 and done["result"] == "installed" and done["configPath"] == str(config)
    assert Path(done["backupPath"]).read_bytes() == original.encode()

    row = _status_row(capsys, target, scope)
    assert row["state"] == "configured" and row["configured"] and row["current"] is True
    entry = row["entry"]
    assert entry["args"][-1] == "mcp" and set(entry["env"]) == {"GNO_DATA_DIR", "GNO_CACHE_DIR"}
    assert entry["env"]["GNO_DATA_DIR"] == str(world["root"] / "gno-data")

    code, again = _run(capsys, "mcp", "install", "-t", target, "-s", scope)
    assert again["result"] == "unchanged" and not again["changed"]

    code, gone = _run(capsys, "mcp", "uninstall", "-t", target, "-s", scope)
    assert code == 0 and gone["result"] == "removed"
    assert config.read_bytes() == original.encode()
    assert _status_row(capsys, target, scope)["state"] == "not_configured"


@pytest.mark.parametrize("target", list(CASES))
def test_the_installed_command_answers_initialize(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str], target: str
) -> None:
    scope = next(iter(CASES[target]))
    assert _run(capsys, "mcp", "install", "-t", target, "-s", scope)[0] == 0
    entry = _status_row(capsys, target, scope)["entry"]
    # A client launches the stored command with its own environment (no gno variables, a
    # working folder of its choosing) plus the entry's env.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(world["user"]), **entry["env"]}
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": target, "version": "0"},
        },
    }
    proc = subprocess.run(
        [entry["command"], *entry["args"]],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=world["root"],
        timeout=60,
        check=False,
    )
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["id"] == 1 and first["result"]["serverInfo"]["name"] == "gno", proc.stderr


def test_a_different_entry_needs_force(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "mcp", "install", "-t", "cursor", "-s", "project")[0] == 0
    code, refused = _run(
        capsys, "--index", "work", "mcp", "install", "-t", "cursor", "-s", "project"
    )
    assert code == 1 and refused["error"]["code"] == "CONFLICT"
    code, preview = _run(
        capsys,
        "--index",
        "work",
        "mcp",
        "install",
        "-t",
        "cursor",
        "-s",
        "project",
        "--force",
        "--dry-run",
    )
    assert code == 0 and preview["result"] == "updated" and '"work"' in preview["diff"]
    code, done = _run(
        capsys, "--index", "work", "mcp", "install", "-t", "cursor", "-s", "project", "-f"
    )
    assert done["result"] == "updated"
    assert _status_row(capsys, "cursor", "project")["entry"]["args"][4] == "work"
    assert _status_row(capsys, "cursor", "project")["current"] is False


def test_enable_write_only_when_asked(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, plain = _run(capsys, "mcp", "install", "-t", "codex", "-s", "project", "--dry-run")
    assert "--enable-write" not in plain["entry"]["args"]
    _, write = _run(capsys, "mcp", "install", "-t", "codex", "-s", "project", "--enable-write")
    assert write["entry"]["args"][-2:] == ["mcp", "--enable-write"]


@pytest.mark.parametrize(
    ("target", "rel", "text", "state"),
    [
        ("cursor", ".cursor/mcp.json", '{"mcpServers": {"other": {"command": "x"}', "unreadable"),
        ("codex", ".codex/config.toml", "[mcp_servers\nbroken = ", "unreadable"),
        ("librechat", "librechat.yaml", "mcpServers:\n  other: [unclosed\n", "unreadable"),
        # readable, so status says "no entry"; but there is no object to add one to
        ("cursor", ".cursor/mcp.json", '{"mcpServers": ["not", "an", "object"]}', "not_configured"),
        ("librechat", "librechat.yaml", "mcpServers: {other: {command: x}}\n", "not_configured"),
    ],
)
def test_an_unreadable_file_is_refused_and_left_alone(
    world: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    target: str,
    rel: str,
    text: str,
    state: str,
) -> None:
    config = world["project"] / rel
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    code, refused = _run(capsys, "mcp", "install", "-t", target, "-s", "project")
    assert code == 1 and refused["error"]["code"] == "CONFIG_UNREADABLE"
    assert str(config) in refused["error"]["message"]
    assert config.read_text() == text
    assert sorted(p.name for p in config.parent.iterdir()) == [config.name]
    assert _status_row(capsys, target, "project")["state"] == state


def test_status_enumerates_every_target_and_scope(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _run(capsys, "mcp", "status")
    assert code == 0 and report["total"] == 14 and report["configured"] == 0
    assert sorted((r["target"], r["scope"]) for r in report["targets"]) == sorted(PAIRS)
    code, users = _run(capsys, "mcp", "status", "-s", "user")
    assert {r["scope"] for r in users["targets"]} == {"user"} and users["total"] == 9


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-t", "nope"], "Unknown target"),
        (["-t", "librechat", "-s", "user"], "no 'user' scope"),
        (["-t", "zed", "-s", "project"], "no 'project' scope"),
    ],
)
def test_bad_targets_and_scopes_fail_before_writing(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, refused = _run(capsys, "mcp", "install", *argv)
    assert code == 1 and refused["error"]["code"] == "VALIDATION"
    assert message in refused["error"]["message"]
    assert not any(world["user"].iterdir()) and not any(world["project"].iterdir())


def test_an_invalid_index_name_fails_before_writing(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, refused = _run(
        capsys, "--index", "../x", "mcp", "install", "-t", "cursor", "-s", "project"
    )
    assert code == 1 and refused["error"]["code"] == "VALIDATION"
    assert not any(world["project"].iterdir())


def test_a_symlinked_config_stays_a_symlink(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    real = world["root"] / "dotfiles" / "mcp.json"
    real.parent.mkdir()
    real.write_text(STRICT_JSON)
    link = world["project"] / ".mcp.json"
    os.symlink(real, link)
    assert _run(capsys, "mcp", "install", "-t", "claude-code", "-s", "project")[0] == 0
    assert link.is_symlink() and "gno" in json.loads(real.read_text())["mcpServers"]
