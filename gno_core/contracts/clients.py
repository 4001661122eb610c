"""The ``mcp-install@1.0`` and ``mcp-status@1.0`` contracts of ``gno mcp install|uninstall|status``."""

from __future__ import annotations

from typing import Literal

from gno_core.contracts.base import WireModel


class McpEntry(WireModel):
    """The command a client runs: normalized, whatever wrapper the target stores it in."""

    command: str
    args: list[str]
    env: dict[str, str]


class McpInstallResult(WireModel):
    action: Literal["install", "uninstall"]
    target: str
    scope: Literal["user", "project"]
    config_path: str
    #: installed (new entry), updated (replaced with --force), unchanged (already this entry),
    #: removed, or not_installed (uninstall found no entry)
    result: Literal["installed", "updated", "unchanged", "removed", "not_installed"]
    dry_run: bool
    #: whether the file was (or, with --dry-run, would be) written
    changed: bool
    entry: McpEntry | None = None
    #: unified diff of the file, before -> after (empty when nothing changes)
    diff: str
    #: the copy of the previous file, when one was written: ``<name>.bak`` or, when that name
    #: is taken (never overwritten), the first free ``<name>.bak.N``; beside the real file
    backup_path: str | None = None


class McpTargetStatus(WireModel):
    target: str
    label: str
    scope: Literal["user", "project"]
    config_path: str
    configured: bool
    #: configured: a valid gno entry; invalid: a gno entry that breaks the installed-entry
    #: contract (see problems); not_configured: no entry or no file; unreadable: the file
    #: cannot be parsed
    state: Literal["configured", "invalid", "not_configured", "unreadable"]
    #: whether the entry runs this installation with this index and config
    current: bool | None = None
    entry: McpEntry | None = None
    problems: list[str] | None = None


class McpStatus(WireModel):
    targets: list[McpTargetStatus]
    configured: int
    total: int
