"""Plan and apply one change to one client config: add, replace or remove gno's entry, with a
diff to preview, an atomic write and a ``.bak`` of the previous file."""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gno_adapters.clients import formats
from gno_adapters.clients.targets import Entry, Scope, Target, entry_value
from gno_core.errors import ConflictError, UnreadableConfigError

Result = Literal["installed", "updated", "unchanged", "removed", "not_installed"]

#: the only environment keys an installed entry carries (spec: installed entry contract)
PINNED_ENV = ("GNO_DATA_DIR", "GNO_CACHE_DIR")


@dataclass(frozen=True, slots=True)
class Plan:
    target: Target
    scope: Scope
    path: Path
    result: Result
    before: str | None
    after: str | None

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


def current_entry(target: Target, path: Path) -> tuple[object | None, str | None]:
    """(the stored value under gno's key, the file text); (None, None) when there is no file."""
    text = _read(path)
    if text is None:
        return None, None
    try:
        return formats.read_entry(target.format, text, target.key_path()), text
    except formats.UnreadableConfig as exc:
        raise _refusal(path, exc) from None


def plan_install(target: Target, scope: Scope, path: Path, entry: Entry, *, force: bool) -> Plan:
    stored, text = current_entry(target, path)
    value = entry_value(target, entry)
    if stored is not None:
        if stored == value:
            return Plan(target, scope, path, "unchanged", text, text)
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
    return Plan(target, scope, path, "updated" if stored is not None else "installed", text, after)


def plan_uninstall(target: Target, scope: Scope, path: Path) -> Plan:
    stored, text = current_entry(target, path)
    if stored is None or text is None:
        return Plan(target, scope, path, "not_installed", text, text)
    try:
        after = formats.remove_entry(target.format, text, target.key_path())
    except formats.UnreadableConfig as exc:
        raise _refusal(path, exc) from None
    return Plan(target, scope, path, "removed", text, after)


def apply(plan: Plan) -> Path | None:
    """Write ``plan``: the previous file copied to ``<name>.bak``, then the new text replacing
    it in one rename. Returns the backup's path (None when there was no previous file)."""
    if not plan.changed or plan.after is None:
        return None
    # A config that is a symlink (dotfile managers) keeps being one: write where it points.
    target = plan.path.resolve() if plan.path.is_symlink() else plan.path
    target.parent.mkdir(parents=True, exist_ok=True)
    backup = None
    mode = 0o600
    if plan.before is not None:
        backup = target.with_name(target.name + ".bak")
        shutil.copy2(target, backup)
        mode = target.stat().st_mode & 0o777
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(plan.after.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return backup


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
