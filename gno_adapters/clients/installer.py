"""Plan and apply one change to one client config: add, replace or remove gno's entry, with a
diff to preview, an atomic write and a backup of the previous file (the file I/O, which never
follows a link gno did not choose, is ``configfile``)."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gno_adapters.clients import configfile, formats
from gno_adapters.clients.configfile import Location
from gno_adapters.clients.targets import Entry, Scope, Target, entry_value
from gno_core.errors import ConflictError, UnreadableConfigError

Result = Literal["installed", "updated", "unchanged", "removed", "not_installed"]

#: the only environment keys an installed entry carries (spec: installed entry contract)
PINNED_ENV = ("GNO_DATA_DIR", "GNO_CACHE_DIR")


@dataclass(frozen=True, slots=True)
class Plan:
    target: Target
    scope: Scope
    location: Location
    result: Result
    before: str | None
    after: str | None

    @property
    def path(self) -> Path:
        return self.location.shown

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before

    def diff(self) -> str:
        if not self.changed:
            return ""
        old = (self.before or "").splitlines(keepends=True)
        new = (self.after or "").splitlines(keepends=True)
        label = str(self.path)
        lines = difflib.unified_diff(
            old, new, fromfile=label if self.before is not None else "/dev/null", tofile=label
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _read(path: Path) -> str | None:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnreadableConfigError(
            f"Cannot read {path}: {exc.strerror or exc}", details={"path": str(path)}
        ) from None
    return _decode(raw, path)


def _decode(raw: bytes | None, path: Path) -> str | None:
    if raw is None:
        return None
    try:
        # newline="" semantics: keep CRLF as it is, so the splice leaves it alone.
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableConfigError(
            f"{path} is not UTF-8 text; gno leaves it alone", details={"path": str(path)}
        ) from None


def _refusal(path: Path, exc: formats.UnreadableConfig) -> UnreadableConfigError:
    return UnreadableConfigError(
        f"Cannot edit {path}: {exc}. The file was not changed.", details={"path": str(path)}
    )


def current_entry(
    target: Target, path: Path, location: Location | None = None
) -> tuple[object | None, str | None]:
    """(the stored value under gno's key, the file text); (None, None) when there is no file.
    Read at ``location`` (no link followed where it says so) when given, else at ``path``."""
    text = _read(path) if location is None else _decode(configfile.read(location), path)
    if text is None:
        return None, None
    try:
        return formats.read_entry(target.format, text, target.key_path()), text
    except formats.UnreadableConfig as exc:
        raise _refusal(path, exc) from None


def plan_install(
    target: Target, scope: Scope, location: Location, entry: Entry, *, force: bool
) -> Plan:
    path = location.shown
    stored, text = current_entry(target, path, location)
    value = entry_value(target, entry)
    if stored is not None:
        if stored == value:
            return Plan(target, scope, location, "unchanged", text, text)
        if not force:
            raise ConflictError(
                f"{path} already has a {target.key_path()[-1]!r} entry that differs from this "
                "installation; use --force to replace it (--force --dry-run to preview)",
                details={"path": str(path), "target": target.name},
            )
    try:
        after = formats.set_entry(target.format, text or "", target.key_path(), value)
    except formats.UnreadableConfig as exc:
        raise _refusal(path, exc) from None
    result: Result = "updated" if stored is not None else "installed"
    return Plan(target, scope, location, result, text, after)


def plan_uninstall(target: Target, scope: Scope, location: Location) -> Plan:
    path = location.shown
    stored, text = current_entry(target, path, location)
    if stored is None or text is None:
        return Plan(target, scope, location, "not_installed", text, text)
    try:
        after = formats.remove_entry(target.format, text, target.key_path())
    except formats.UnreadableConfig as exc:
        raise _refusal(path, exc) from None
    return Plan(target, scope, location, "removed", text, after)


def apply(plan: Plan) -> Path | None:
    """Write ``plan``: the previous file copied to a fresh ``<name>.bak`` (``.bak.1`` ... when
    that name is taken), then the new text replacing it in one rename. Returns the backup's
    path (None when there was no previous file)."""
    if not plan.changed or plan.after is None:
        return None
    before = None if plan.before is None else plan.before.encode("utf-8")
    return configfile.replace(plan.location, before, plan.after.encode("utf-8"))


def entry_problems(entry: Entry) -> list[str]:
    """Where ``entry`` breaks the installed-entry contract (absolute paths, pinned env only)."""
    problems = []
    if not os.path.isabs(entry.command):
        problems.append(f"command is not an absolute path: {entry.command!r}")
    for flag in ("--index", "--config"):
        if flag not in entry.args:
            problems.append(f"args do not pin {flag}")
    if "--config" in entry.args:
        at = entry.args.index("--config") + 1
        if at >= len(entry.args) or not os.path.isabs(entry.args[at]):
            problems.append("--config is not followed by an absolute path")
    if "mcp" not in entry.args:
        problems.append("args do not run the mcp command")
    for key in sorted(set(entry.env) - set(PINNED_ENV)):
        problems.append(f"env has a key gno does not pin: {key}")
    for key in PINNED_ENV:
        value = entry.env.get(key)
        if value is None:
            problems.append(f"env does not pin {key}")
        elif not os.path.isabs(value):
            problems.append(f"{key} is not an absolute path")
    every = [entry.command, *entry.args, *entry.env.values()]
    if any(ch < " " or ch == "\x7f" for value in every for ch in value):
        problems.append("a value holds a control character")
    return problems
