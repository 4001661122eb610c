"""The MCP clients ``gno mcp install`` configures: where each keeps its config, in which format,
under which keys, and the shape of the entry it expects (spec: ``gno mcp install``)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Format = Literal["json", "toml", "yaml"]
Shape = Literal["standard", "opencode", "codex"]
Scope = Literal["user", "project"]

#: the key gno's entry lives under, in every client
SERVER_NAME = "gno"


@dataclass(frozen=True, slots=True)
class Entry:
    """What the client runs: an executable, its arguments, and the pinned environment."""

    command: str
    args: tuple[str, ...]
    env: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    label: str
    scopes: tuple[Scope, ...]
    format: Format
    #: keys from the top of the file to the table of servers
    container: tuple[str, ...]
    shape: Shape = "standard"
    #: a ``.jsonc`` file next to the ``.json`` one the client also reads (reused when present)
    jsonc_alternate: bool = False

    @property
    def default_scope(self) -> Scope:
        return self.scopes[0]

    def key_path(self) -> tuple[str, ...]:
        return (*self.container, SERVER_NAME)


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("claude-desktop", "Claude Desktop", ("user",), "json", ("mcpServers",)),
        Target("claude-code", "Claude Code", ("user", "project"), "json", ("mcpServers",)),
        Target("codex", "Codex", ("user", "project"), "toml", ("mcp_servers",), "codex"),
        Target("cursor", "Cursor", ("user", "project"), "json", ("mcpServers",)),
        Target("zed", "Zed", ("user",), "json", ("context_servers",)),
        Target("windsurf", "Windsurf", ("user",), "json", ("mcpServers",)),
        Target("opencode", "OpenCode", ("user", "project"), "json", ("mcp",), "opencode", True),
        Target("amp", "Amp", ("user",), "json", ("amp.mcpServers",), jsonc_alternate=True),
        Target("lmstudio", "LM Studio", ("user",), "json", ("mcpServers",)),
        Target("librechat", "LibreChat", ("project",), "yaml", ("mcpServers",)),
    )
}


def _user_path(name: str, home: Path, env: Mapping[str, str], platform: str) -> Path:
    if name == "claude-desktop":
        if platform == "darwin":
            return home / "Library/Application Support/Claude/claude_desktop_config.json"
        if platform == "win32":
            return Path(env.get("APPDATA") or home) / "Claude" / "claude_desktop_config.json"
        return home / ".config/Claude/claude_desktop_config.json"
    if name == "zed" and platform == "win32":
        return Path(env.get("APPDATA") or home) / "Zed" / "settings.json"
    paths = {
        "claude-code": ".claude.json",
        "codex": ".codex/config.toml",
        "cursor": ".cursor/mcp.json",
        "zed": ".config/zed/settings.json",
        "windsurf": ".codeium/windsurf/mcp_config.json",
        "opencode": ".config/opencode/opencode.json",
        "amp": ".config/amp/settings.json",
        "lmstudio": ".lmstudio/mcp.json",
    }
    return home / paths[name]


def _project_path(name: str, project: Path) -> Path:
    paths = {
        "claude-code": ".mcp.json",
        "codex": ".codex/config.toml",
        "cursor": ".cursor/mcp.json",
        "opencode": "opencode.json",
        "librechat": "librechat.yaml",
    }
    return project / paths[name]


def config_path(
    target: Target,
    scope: Scope,
    *,
    home: Path,
    project: Path,
    env: Mapping[str, str],
    platform: str = sys.platform,
) -> Path:
    """The file ``target`` reads for ``scope`` (its ``.jsonc`` alternate when only that exists)."""
    if scope not in target.scopes:
        raise ValueError(f"{target.name} has no {scope} scope")
    path = (
        _user_path(target.name, home, env, platform)
        if scope == "user"
        else _project_path(target.name, project)
    )
    if target.jsonc_alternate and not path.exists():
        alternate = path.with_suffix(".jsonc")
        if alternate.exists():
            return alternate
    return path


def entry_value(target: Target, entry: Entry) -> dict[str, Any]:
    """The entry as ``target`` stores it (plain JSON-ready values)."""
    if target.shape == "opencode":
        return {
            "type": "local",
            "command": [entry.command, *entry.args],
            "environment": dict(entry.env),
            "enabled": True,
        }
    return {"command": entry.command, "args": list(entry.args), "env": dict(entry.env)}


def entry_from_value(target: Target, value: object) -> Entry | None:
    """The entry read back from a stored value, or None when the value does not have the
    shape gno writes (another tool's entry under the same name, or a hand edit)."""
    if not isinstance(value, Mapping):
        return None
    env_key = "environment" if target.shape == "opencode" else "env"
    env = value.get(env_key, {})
    if not isinstance(env, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        return None
    if target.shape == "opencode":
        command = value.get("command")
        if not isinstance(command, list) or not command:
            return None
        head, args = command[0], command[1:]
    else:
        head, args = value.get("command"), value.get("args", [])
    if not isinstance(head, str) or not isinstance(args, list):
        return None
    if not all(isinstance(a, str) for a in args):
        return None
    return Entry(head, tuple(args), {str(k): str(v) for k, v in env.items()})
