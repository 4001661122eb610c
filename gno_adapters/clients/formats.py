"""Read, set and remove gno's entry in a JSON/JSONC, TOML or YAML client config.

Every edit is a splice: the entry's own lines (or members) are added or taken out and every
other byte stays as it was. tomlkit and ruamel.yaml re-emit blank lines, indentation and table
placement of the whole document when it is dumped, so they are used here to read the file and to
check each edit: the edited text, read back, must hold the original data plus (or minus) exactly
the entry, or the edit is refused and nothing is written.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from typing import Any

from gno_adapters.clients import jsonc
from gno_adapters.clients.targets import Format


class UnreadableConfig(ValueError):
    """A config file gno cannot read, or cannot edit without touching more than its entry."""


def _toml_load(text: str) -> dict[str, Any]:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        value: dict[str, Any] = tomlkit.parse(text).unwrap()
    except TOMLKitError as exc:
        raise UnreadableConfig(f"not valid TOML: {exc}") from None
    return value


def _yaml_load(text: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="safe", pure=True)
    try:
        return yaml.load(io.StringIO(text))
    except YAMLError as exc:
        raise UnreadableConfig(f"not valid YAML: {exc}") from None


def load(fmt: Format, text: str) -> Any:
    """The data in ``text`` (an empty file is an empty mapping)."""
    if text.strip() == "":
        return {}
    if fmt == "json":
        try:
            return jsonc.loads(text)
        except jsonc.JsoncError as exc:
            raise UnreadableConfig(f"not valid JSON: {exc}") from None
    data = _toml_load(text) if fmt == "toml" else _yaml_load(text)
    return {} if data is None else data


def read_entry(fmt: Format, text: str, path: Sequence[str]) -> Any:
    value = load(fmt, text)
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _without(data: Any, path: Sequence[str]) -> Any:
    if not path or not isinstance(data, dict) or path[0] not in data:
        return data
    if len(path) == 1:
        return {k: v for k, v in data.items() if k != path[0]}
    return {**data, path[0]: _without(data[path[0]], path[1:])}


def _with(data: Any, path: Sequence[str], value: Any) -> Any:
    if not path:
        return value
    base = data if isinstance(data, dict) else {}
    return {**base, path[0]: _with(base.get(path[0], {}), path[1:], value)}


def set_entry(fmt: Format, text: str, path: Sequence[str], value: dict[str, Any]) -> str:
    """``text`` with the entry at ``path`` set to ``value``; checked by reading it back."""
    before = load(fmt, text)
    if fmt == "json":
        try:
            out = jsonc.set_member(text, path, value)
        except jsonc.JsoncError as exc:
            raise UnreadableConfig(str(exc)) from None
    elif fmt == "toml":
        out = _toml_set(_toml_remove(text, path), path, value)
    else:
        out = _yaml_set(_yaml_remove(text, path), path, value)
    if load(fmt, out) != _with(before, path, value):
        raise UnreadableConfig("the edit would change more than gno's entry; edit it by hand")
    return out


def remove_entry(fmt: Format, text: str, path: Sequence[str]) -> str:
    """``text`` without the entry at ``path``; checked by reading it back."""
    before = load(fmt, text)
    if fmt == "json":
        try:
            out = jsonc.remove_member(text, path)
        except jsonc.JsoncError as exc:
            raise UnreadableConfig(str(exc)) from None
    elif fmt == "toml":
        out = _toml_remove(text, path)
    else:
        out = _yaml_remove(text, path)
    if load(fmt, out) != _without(before, path):
        raise UnreadableConfig("gno's entry is written in a form gno cannot remove; edit by hand")
    return out


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _append_block(text: str, block: list[str], nl: str) -> str:
    if text.strip() == "":
        return nl.join(block) + nl
    if not text.endswith("\n"):
        text += nl
    return text + nl + nl.join(block) + nl


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return stripped == "" or stripped.startswith("#")


def _drop_lines(lines: list[str], start: int, end: int) -> list[str]:
    """``lines`` without ``[start, end)``, trailing comments and blank lines given back to what
    follows, and the one blank line that separated the block from what precedes it."""
    while end > start + 1 and _is_filler(lines[end - 1]):
        end -= 1
    if start > 0 and lines[start - 1].strip() == "":
        start -= 1
    return lines[:start] + lines[end:]


# -- TOML: ``[mcp_servers.gno]`` and ``[mcp_servers.gno.env]`` tables ------------------------

_TOML_HEADER = re.compile(r"^\s*\[\[?\s*(?P<name>[^\[\]#]+?)\s*\]\]?\s*(?:#.*)?$")


def _toml_key(name: str) -> tuple[str, ...]:
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', name)
    return tuple(a or b or c for a, b, c in parts)


def _toml_set(text: str, path: Sequence[str], value: dict[str, Any]) -> str:
    nl = _newline(text)
    head = ".".join(_toml_name(p) for p in path)
    lines = [f"[{head}]"]
    env = value.get("env", {})
    for key, item in value.items():
        if key != "env":
            lines.append(f"{_toml_name(key)} = {_toml_value(item)}")
    lines += ["", f"[{head}.env]"] + [f"{_toml_name(k)} = {_toml_value(v)}" for k, v in env.items()]
    return _append_block(text, lines, nl)


def _toml_name(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    # A JSON string literal is a TOML basic string (same escapes); gno writes only strings.
    return json.dumps(value, ensure_ascii=False)


def _toml_remove(text: str, path: Sequence[str]) -> str:
    lines = text.splitlines(keepends=True)
    key = tuple(path)
    start = end = None
    for i, line in enumerate(lines):
        match = _TOML_HEADER.match(line)
        if not match:
            continue
        name = _toml_key(match.group("name"))
        if name[: len(key)] == key:
            if start is None:
                start = i
            end = None
        elif start is not None and end is None:
            end = i
            break
    if start is None:
        return text
    return "".join(_drop_lines(lines, start, len(lines) if end is None else end))


# -- YAML: ``gno:`` under a block mapping ``mcpServers:`` ------------------------------------


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _yaml_key_line(lines: list[str], key: str, indent: int, start: int, stop: int) -> int | None:
    pattern = re.compile(
        rf"^ {{{indent}}}(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*:(?:\s|$)"
    )
    for i in range(start, stop):
        if pattern.match(lines[i]):
            return i
    return None


def _yaml_block_end(lines: list[str], start: int, indent: int) -> int:
    """The line after the block that the key on line ``start`` (at ``indent``) owns."""
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if not _is_filler(line) and _indent(line) <= indent:
            break
        i += 1
    while i > start + 1 and _is_filler(lines[i - 1]):
        i -= 1
    return i


def _yaml_scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _yaml_lines(key: str, value: Any, indent: str, unit: str) -> list[str]:
    if isinstance(value, dict):
        out = [f"{indent}{key}:"]
        for k, v in value.items():
            out += _yaml_lines(k, v, indent + unit, unit)
        return out
    if isinstance(value, list):
        return [f"{indent}{key}:"] + [f"{indent}{unit}- {_yaml_scalar(v)}" for v in value]
    return [f"{indent}{key}: {_yaml_scalar(value)}"]


def _yaml_set(text: str, path: Sequence[str], value: dict[str, Any]) -> str:
    if len(path) != 2:
        raise UnreadableConfig("gno writes YAML entries one level below the top")
    container, name = path
    nl = _newline(text)
    lines = text.splitlines(keepends=True)
    top = _yaml_key_line(lines, container, 0, 0, len(lines))
    if top is None:
        return _append_block(text, _yaml_lines(container, {name: value}, "", "  "), nl)
    if lines[top].split(":", 1)[1].split("#", 1)[0].strip():
        raise UnreadableConfig(f"{container!r} is not a block mapping; edit it by hand")
    end = _yaml_block_end(lines, top, 0)
    children = [ln for ln in lines[top + 1 : end] if not _is_filler(ln)]
    unit = " " * (_indent(children[0]) if children else 2)
    block = "".join(line + nl for line in _yaml_lines(name, value, unit, unit))
    if end > 0 and not lines[end - 1].endswith("\n"):
        lines[end - 1] += nl
    return "".join([*lines[:end], block, *lines[end:]])


def _yaml_remove(text: str, path: Sequence[str]) -> str:
    if len(path) != 2:
        return text
    container, name = path
    lines = text.splitlines(keepends=True)
    top = _yaml_key_line(lines, container, 0, 0, len(lines))
    if top is None:
        return text
    end = _yaml_block_end(lines, top, 0)
    children = [ln for ln in lines[top + 1 : end] if not _is_filler(ln)]
    if not children:
        return text
    unit = _indent(children[0])
    at = _yaml_key_line(lines, name, unit, top + 1, end)
    if at is None:
        return text
    stop = _yaml_block_end(lines, at, unit)
    return "".join(lines[:at] + lines[stop:])
