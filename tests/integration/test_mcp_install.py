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


# --- links a repository plants, backups, files that cannot be written ----------------------

#: target -> the project config a cloned repository ships
PROJECT_FILES = {
    "claude-code": (".mcp.json", STRICT_JSON),
    "codex": (".codex/config.toml", TOML),
    "cursor": (".cursor/mcp.json", STRICT_JSON),
}
SECRET = "export TOKEN=do-not-touch\n"


def _plant(world: dict[str, Path], target: str) -> Path:
    rel, text = PROJECT_FILES[target]
    config = world["project"] / rel
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    return config


def _leftovers(folder: Path, *keep: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


@pytest.mark.parametrize("dangling", [False, True], ids=["existing", "dangling"])
@pytest.mark.parametrize("target", list(PROJECT_FILES))
def test_a_planted_bak_link_is_never_followed(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str], target: str, dangling: bool
) -> None:
    config = _plant(world, target)
    victim = world["user"] / ".claude.json"
    if not dangling:
        victim.write_text(SECRET)
    planted = config.with_name(config.name + ".bak")
    os.symlink(victim, planted)

    code, done = _run(capsys, "mcp", "install", "-t", target, "-s", "project")
    assert code == 0 and done["result"] == "installed", done
    assert victim.exists() is not dangling
    if not dangling:
        assert victim.read_text() == SECRET
    assert planted.is_symlink() and os.readlink(planted) == str(victim)
    backup = Path(done["backupPath"])
    assert backup != planted and backup.parent == config.parent
    assert not backup.is_symlink() and backup.read_text() == PROJECT_FILES[target][1]

    # uninstall makes a fresh backup too, and still leaves the link and its target alone
    code, gone = _run(capsys, "mcp", "uninstall", "-t", target, "-s", "project")
    assert code == 0 and gone["result"] == "removed"
    assert Path(gone["backupPath"]) not in (planted, backup)
    assert victim.exists() is not dangling
    if not dangling:
        assert victim.read_text() == SECRET
    assert config.read_text() == PROJECT_FILES[target][1]


def test_the_users_own_bak_is_kept_under_force(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "mcp", "install", "-t", "cursor", "-s", "user")[0] == 0
    config = world["user"] / ".cursor" / "mcp.json"
    mine = config.with_name("mcp.json.bak")
    mine.write_text("my own backup\n")
    before = config.read_bytes()
    code, done = _run(capsys, "--index", "work", "mcp", "install", "-t", "cursor", "--force")
    assert code == 0 and done["result"] == "updated"
    assert mine.read_text() == "my own backup\n"
    assert done["backupPath"] == str(config.with_name("mcp.json.bak.1"))
    assert Path(done["backupPath"]).read_bytes() == before
    # and the next one takes the next free name
    code, gone = _run(capsys, "--index", "work", "mcp", "uninstall", "-t", "cursor")
    assert gone["backupPath"] == str(config.with_name("mcp.json.bak.2"))
    assert mine.read_text() == "my own backup\n"


@pytest.mark.parametrize("target", list(PROJECT_FILES))
@pytest.mark.parametrize("action", ["install", "install --dry-run", "uninstall"])
def test_a_project_config_that_is_a_link_is_refused(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str], target: str, action: str
) -> None:
    rel, text = PROJECT_FILES[target]
    victim = world["user"] / "victim"
    victim.write_text(text.replace("other", "gno") if action == "uninstall" else text)
    original = victim.read_bytes()
    config = world["project"] / rel
    config.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(victim, config)
    code, refused = _run(capsys, "mcp", *action.split(), "-t", target, "-s", "project")
    assert code == 1 and refused["error"]["code"] == "INVALID_PATH", refused
    assert refused["error"]["details"]["path"] == str(config)
    assert refused["error"]["details"]["reason"] == "symlink"
    assert victim.read_bytes() == original and config.is_symlink()
    assert _leftovers(world["user"]) == ["victim"]
    assert _leftovers(config.parent) == [config.name]


def test_a_project_config_folder_that_is_a_link_is_refused(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    real = world["user"] / ".codex"
    real.mkdir()
    (real / "config.toml").write_text(TOML)
    os.symlink(real, world["project"] / ".codex")
    code, refused = _run(capsys, "mcp", "install", "-t", "codex", "-s", "project")
    assert code == 1 and refused["error"]["code"] == "INVALID_PATH"
    assert refused["error"]["details"]["path"] == str(world["project"] / ".codex")
    assert (real / "config.toml").read_text() == TOML
    assert _leftovers(real) == ["config.toml"]
    # a link to nowhere is refused the same way, and nothing is created where it points
    (world["project"] / ".codex").unlink()
    os.symlink(world["user"] / "nowhere", world["project"] / ".codex")
    code, refused = _run(capsys, "mcp", "install", "-t", "codex", "-s", "project")
    assert code == 1 and refused["error"]["code"] == "INVALID_PATH"
    assert not (world["user"] / "nowhere").exists()


def test_a_symlinked_user_config_is_written_where_it_points(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    dotfiles = world["root"] / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude.json"
    real.write_text(STRICT_JSON)
    link = world["user"] / ".claude.json"
    os.symlink(real, link)
    code, done = _run(capsys, "mcp", "install", "-t", "claude-code", "-s", "user")
    assert code == 0 and done["configPath"] == str(link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "gno" in json.loads(real.read_text())["mcpServers"]
    assert done["backupPath"] == str(dotfiles / "claude.json.bak")
    assert _leftovers(world["user"]) == [".claude.json"]


def _chattr(flag: str, path: Path) -> bool:
    try:
        proc = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    except FileNotFoundError:
        return False
    return proc.returncode == 0


@pytest.mark.parametrize("action", ["install", "uninstall"])
def test_an_immutable_config_is_a_typed_error(
    world: dict[str, Path], capsys: pytest.CaptureFixture[str], action: str
) -> None:
    if action == "uninstall":
        assert _run(capsys, "mcp", "install", "-t", "cursor", "-s", "project")[0] == 0
        for extra in (world["project"] / ".cursor").glob("mcp.json.bak*"):
            extra.unlink()
    else:
        _plant(world, "cursor")
    config = world["project"] / ".cursor" / "mcp.json"
    before = config.read_bytes()
    if not _chattr("+i", config):
        pytest.skip("chattr +i is not supported here")
    try:
        code, refused = _run(capsys, "mcp", action, "-t", "cursor", "-s", "project")
    finally:
        _chattr("-i", config)
    assert code == 1 and refused["error"]["code"] == "CONFIG_UNWRITABLE", refused
    assert refused["error"]["details"]["path"] == str(config)
    assert refused["error"]["details"]["errno"] == "EPERM"
    assert config.read_bytes() == before
    assert _leftovers(config.parent) == ["mcp.json"]


@pytest.mark.parametrize("error", ["EACCES", "EROFS", "EPERM", "ENOSPC"])
def test_a_failed_write_is_a_typed_error_and_leaves_nothing(
    world: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    error: str,
) -> None:
    import errno

    config = _plant(world, "codex")

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(getattr(errno, error), os.strerror(getattr(errno, error)))

    monkeypatch.setattr(os, "replace", refuse)
    code, refused = _run(capsys, "mcp", "install", "-t", "codex", "-s", "project")
    assert code == 1 and refused["error"]["code"] == "CONFIG_UNWRITABLE", refused
    assert refused["error"]["details"] == {"path": str(config), "errno": error}
    assert config.read_text() == TOML
    assert _leftovers(config.parent) == ["config.toml"]


def test_a_file_changed_after_the_plan_is_not_overwritten(world: dict[str, Path]) -> None:
    from gno_adapters.client_setup import this_entry
    from gno_adapters.clients.configfile import locate
    from gno_adapters.clients.installer import apply, plan_install
    from gno_adapters.clients.targets import TARGETS
    from gno_core.errors import ConflictError

    config = _plant(world, "cursor")
    target = TARGETS["cursor"]
    location = locate(config, world["project"])
    plan = plan_install(target, "project", location, this_entry(None, None), force=False)
    config.write_text(STRICT_JSON.replace("dark", "light"))
    with pytest.raises(ConflictError):
        apply(plan)
    assert "light" in config.read_text()
    assert _leftovers(config.parent) == ["mcp.json"]


def test_a_save_while_the_backup_is_written_is_not_overwritten(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor that saves after gno compared the file, while the backup and the new text are
    being written (two fsyncs), keeps its bytes: the file is checked again just before the
    rename."""
    from gno_adapters.client_setup import this_entry
    from gno_adapters.clients import configfile
    from gno_adapters.clients.configfile import locate
    from gno_adapters.clients.installer import apply, plan_install
    from gno_adapters.clients.targets import TARGETS
    from gno_core.errors import ConflictError

    config = _plant(world, "cursor")
    location = locate(config, world["project"])
    plan = plan_install(TARGETS["cursor"], "project", location, this_entry(None, None), force=False)
    real_temporary = configfile._temporary

    def editor_saves(folder: int, name: str, data: bytes, mode: int) -> str:
        config.write_text(STRICT_JSON.replace("dark", "light"))
        return real_temporary(folder, name, data, mode)

    monkeypatch.setattr(configfile, "_temporary", editor_saves)
    with pytest.raises(ConflictError):
        apply(plan)
    assert "light" in config.read_text()
    assert _leftovers(config.parent) == ["mcp.json"]
