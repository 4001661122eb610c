"""``gno mcp install|uninstall|status``: the entry that runs this installation, and the change
it makes to each client's config (the editing itself is ``gno_adapters.clients``, the index's
locations ``gno_adapters.config``: this module joins the two, above both)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from gno_adapters.clients.configfile import Location, locate
from gno_adapters.clients.installer import (
    Plan,
    apply,
    current_entry,
    entry_problems,
    plan_install,
    plan_uninstall,
)
from gno_adapters.clients.targets import (
    TARGETS,
    Entry,
    Scope,
    Target,
    config_path,
    entry_from_value,
)
from gno_adapters.config import resolve_paths
from gno_core.contracts.clients import (
    McpEntry,
    McpInstallResult,
    McpStatus,
    McpTargetStatus,
)
from gno_core.errors import UnreadableConfigError, ValidationError

__all__ = ["TARGETS", "install", "status", "this_entry", "uninstall"]


def this_entry(
    index: str | None,
    config: str | None,
    *,
    enable_write: bool = False,
    env: Mapping[str, str] | None = None,
) -> Entry:
    """The command that runs this installation's MCP server for ``index``: this interpreter
    (not resolved, so a virtualenv's python keeps its packages) with ``-P`` so a client's
    working folder never shadows gno's modules, and every location pinned, because GUI clients
    do not inherit the installing shell's environment."""
    paths = resolve_paths(index, config, env)
    args = [
        "-P",
        "-m",
        "gno_cli",
        "--index",
        paths.index_name,
        "--config",
        str(Path(os.path.abspath(paths.config_file))),
        "mcp",
    ]
    if enable_write:
        args.append("--enable-write")
    pinned = {
        "GNO_DATA_DIR": os.path.abspath(paths.data_dir),
        "GNO_CACHE_DIR": os.path.abspath(paths.cache_dir),
    }
    return Entry(os.path.abspath(sys.executable), tuple(args), pinned)


def _target(name: str) -> Target:
    target = TARGETS.get(name)
    if target is None:
        raise ValidationError(
            f"Unknown target {name!r}; one of: {', '.join(TARGETS)}",
            details={"targets": list(TARGETS)},
        )
    return target


def _target_scope(name: str, scope: str | None) -> tuple[Target, Scope]:
    """The named target and the scope asked for (the target's default when none), checked."""
    target = _target(name)
    chosen = scope or target.default_scope
    if chosen not in target.scopes:
        raise ValidationError(
            f"{target.label} has no {chosen!r} scope; use {' or '.join(target.scopes)}",
            details={"target": target.name, "scopes": list(target.scopes)},
        )
    return target, chosen


def _where(target: Target, scope: Scope, env: Mapping[str, str] | None, cwd: Path | None) -> Path:
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or Path.home())
    return config_path(target, scope, home=home, project=cwd or Path.cwd(), env=env)


def _location(
    target: Target, scope: Scope, env: Mapping[str, str] | None, cwd: Path | None
) -> Location:
    """Where an edit reads and writes: at project scope no link below the project folder is
    followed (a cloned repository may have planted one); at user scope the user's own links
    (a dotfile manager's) are."""
    project = cwd or Path.cwd()
    return locate(_where(target, scope, env, project), project if scope == "project" else None)


def _wire(entry: Entry) -> McpEntry:
    return McpEntry(command=entry.command, args=list(entry.args), env=dict(entry.env))


def _result(plan: Plan, action: str, entry: Entry | None, dry_run: bool) -> McpInstallResult:
    backup = None if dry_run else apply(plan)
    return McpInstallResult.model_validate(
        {
            "action": action,
            "target": plan.target.name,
            "scope": plan.scope,
            "config_path": str(plan.path),
            "result": plan.result,
            "dry_run": dry_run,
            "changed": plan.changed,
            "entry": _wire(entry) if entry else None,
            "diff": plan.diff(),
            "backup_path": str(backup) if backup else None,
        }
    )


def install(
    target: str,
    scope: str | None,
    entry: Entry,
    *,
    force: bool = False,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> McpInstallResult:
    chosen, where = _target_scope(target, scope)
    problems = entry_problems(entry)
    if problems:
        raise ValidationError("Refusing to install: " + "; ".join(problems))
    plan = plan_install(chosen, where, _location(chosen, where, env, cwd), entry, force=force)
    return _result(plan, "install", entry, dry_run)


def uninstall(
    target: str,
    scope: str | None,
    *,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> McpInstallResult:
    chosen, where = _target_scope(target, scope)
    plan = plan_uninstall(chosen, where, _location(chosen, where, env, cwd))
    return _result(plan, "uninstall", None, dry_run)


def _status_row(
    target: Target, scope: Scope, path: Path, expected: Entry | None
) -> McpTargetStatus:
    row: dict[str, object] = {
        "target": target.name,
        "label": target.label,
        "scope": scope,
        "config_path": str(path),
        "configured": False,
        "state": "not_configured",
    }
    try:
        stored, _ = current_entry(target, path)
    except UnreadableConfigError as exc:
        return McpTargetStatus.model_validate(
            {**row, "state": "unreadable", "problems": [exc.message]}
        )
    if stored is None:
        return McpTargetStatus.model_validate(row)
    entry = entry_from_value(target, stored)
    if entry is None:
        return McpTargetStatus.model_validate(
            {**row, "state": "invalid", "problems": ["the entry does not have gno's shape"]}
        )
    problems = entry_problems(entry)
    return McpTargetStatus.model_validate(
        {
            **row,
            "configured": not problems,
            "state": "invalid" if problems else "configured",
            "entry": _wire(entry),
            "problems": problems or None,
            "current": None if expected is None else _same_run(entry, expected),
        }
    )


def _same_run(entry: Entry, expected: Entry) -> bool:
    """Whether ``entry`` runs what ``expected`` runs (``--enable-write`` either way)."""

    def core(e: Entry) -> tuple[object, ...]:
        return (e.command, tuple(a for a in e.args if a != "--enable-write"), dict(e.env))

    return core(entry) == core(expected)


def status(
    target: str | None = None,
    scope: str | None = None,
    *,
    expected: Entry | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> McpStatus:
    """Every target and scope (or those ``target``/``scope`` select; ``all`` means every one)."""
    chosen = list(TARGETS.values()) if target in (None, "all") else [_target(target or "")]
    if scope not in (None, "all", "user", "project"):
        raise ValidationError(f"Unknown scope {scope!r}; use user, project or all")
    rows = [
        _status_row(t, s, _where(t, s, env, cwd), expected)
        for t in chosen
        for s in t.scopes
        if scope in (None, "all", s)
    ]
    return McpStatus(targets=rows, configured=sum(1 for r in rows if r.configured), total=len(rows))
