"""``YamlFrontmatterParser``: the ``FrontmatterParser`` port over ruamel.yaml's safe loader.

ruamel.yaml in pure Python costs about 0.5 ms per typical block, as much as the rest of ingest
together, so blocks made only of ``key: scalar``, ``key: [a, b]`` and ``key:`` + ``- item`` lines
with unambiguous scalars are read by a small line parser; anything else goes to ruamel. The test
suite checks that both paths agree on every block of the real corpora.

Frontmatter is hostile input: YAML aliases let a few hundred bytes stand for billions of values
(an "alias bomb"), and deep nesting makes ruamel's composer recurse. So a block is bounded
before parsing (size, bracket depth, line indentation) and while converting (nesting depth, and
nodes counted every time an alias is expanded); past a bound it fails with ``FRONTMATTER``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from ruamel.yaml import YAML

from gno_core.errors import ValidationError

__all__ = [
    "MAX_FRONTMATTER_CHARS",
    "MAX_FRONTMATTER_DEPTH",
    "MAX_FRONTMATTER_NODES",
    "YamlFrontmatterParser",
]

#: Characters of one frontmatter block (real blocks are well under 4 KiB; ruamel reads
#: about 50 KiB a second, so this also bounds the parse time).
MAX_FRONTMATTER_CHARS = 64 * 1024
#: Nesting levels of collections (a mapping or list inside another counts one level).
MAX_FRONTMATTER_DEPTH = 32
#: Values (keys, scalars, lists, mappings) after alias expansion: each use of an alias counts
#: everything it stands for again, which is what bounds the memory of an alias bomb.
MAX_FRONTMATTER_NODES = 50_000
# Leading columns (spaces and compact ``- ``/``? `` indicators) past which a line cannot belong
# to a block within the depth bound at any sane indentation; checked before ruamel composes it.
_MAX_LEAD = 8 * MAX_FRONTMATTER_DEPTH
_LEAD = re.compile(r"(?:[ \t]|[-?:](?=[ \t]|$))*")

_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?")
_ITEM_LINE = re.compile(r"[ ]*-[ ]+(.*)")
_NESTED_LINE = re.compile(r"([ ]+)([A-Za-z_][A-Za-z0-9_-]*):[ ]+(.*)")
# A double-quoted flow item with no escape, quote or comma inside (read the same by YAML).
_QUOTED_ITEM = re.compile(r'"[^"\\,]*"')
# Plain scalars the line parser may resolve: no leading indicator, no ': ' (a nested mapping), no
# '#' (maybe a comment), no tab.
_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`.+~](?:[^:#\t]|:(?=[^ ]))*")
_FLOW_ITEM = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`.+~][^:#\t,\[\]{}'\"]*")
_INT = re.compile(r"0|[1-9][0-9]*")
_FLOAT = re.compile(r"(?:0|[1-9][0-9]*)\.[0-9]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# A character no number, date or time can contain: a digit-led scalar holding one is a string.
_NOT_NUMERIC = re.compile(r"[^0-9a-fA-F._:+\-xXoObBtTzZ ]")
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset({"null", "Null", "NULL"})
# Words YAML 1.1 readers treat as booleans: left to ruamel so that both paths always agree.
_AMBIGUOUS = frozenset({"yes", "no", "on", "off", "y", "n"})
_NO_VALUE = object()


class YamlFrontmatterParser:
    """Parses frontmatter blocks into plain values; duplicate keys are allowed (the first wins,
    as ruamel.yaml does when told to allow them)."""

    def __init__(self, *, fast_path: bool = True) -> None:
        self._yaml = YAML(typ="safe", pure=True)
        self._yaml.allow_duplicate_keys = True
        self._fast_path = fast_path

    def parse(self, text: str) -> Mapping[str, Any]:
        """Plain values (dict/list/str/int/float/bool/None; dates as ISO strings). Raises
        ``VALIDATION`` (``code: FRONTMATTER``) when the YAML is malformed, is not a mapping, or
        is past a bound (size, nesting depth, node count)."""
        _check_raw(text)
        if self._fast_path:
            simple = _parse_simple(text)
            if simple is not None:
                _Budget().count(simple, 0)
                return simple
        try:
            loaded = self._yaml.load(text)
        except Exception as exc:  # ruamel raises many unrelated types for malformed input
            raise ValidationError(
                f"Malformed YAML frontmatter: {_first_line(exc)}",
                details={"code": "FRONTMATTER"},
            ) from exc
        if loaded is None:
            return {}
        if not isinstance(loaded, dict):
            raise ValidationError(
                f"YAML frontmatter is a {type(loaded).__name__}, not a mapping",
                details={"code": "FRONTMATTER"},
            )
        result = _Budget().plain(loaded, 0)
        assert isinstance(result, dict)
        return result


def _limit(reason: str) -> ValidationError:
    return ValidationError(f"Frontmatter rejected: {reason}", details={"code": "FRONTMATTER"})


def _check_raw(text: str) -> None:
    """Bounds that hold before any YAML parsing: size, flow bracket depth, line indentation."""
    if len(text) > MAX_FRONTMATTER_CHARS:
        raise _limit(f"{len(text)} characters, over the {MAX_FRONTMATTER_CHARS}-character limit")
    if "[" in text or "{" in text:
        # Brackets inside quoted strings are counted too: over-counting only matters past the
        # depth bound, where no real block goes.
        depth = deepest = 0
        for ch in text:
            if ch in "[{":
                depth += 1
                deepest = max(deepest, depth)
            elif ch in "]}":
                depth = max(depth - 1, 0)
        if deepest > MAX_FRONTMATTER_DEPTH:
            raise _limit(f"nests deeper than {MAX_FRONTMATTER_DEPTH} levels")
    for line in text.split("\n"):
        lead = _LEAD.match(line)
        if lead is not None and lead.end() > _MAX_LEAD:
            raise _limit(f"a line is indented more than {_MAX_LEAD} columns")


class _Budget:
    """Converts ruamel's values to plain ones while counting nodes and depth, so an alias graph
    is never expanded past the bounds (and a self-referencing alias ends at the depth bound)."""

    def __init__(self) -> None:
        self.nodes = 0

    def _visit(self, depth: int) -> None:
        self.nodes += 1
        if self.nodes > MAX_FRONTMATTER_NODES:
            raise _limit(f"expands to more than {MAX_FRONTMATTER_NODES} nodes")
        if depth > MAX_FRONTMATTER_DEPTH:
            raise _limit(f"nests deeper than {MAX_FRONTMATTER_DEPTH} levels")

    def plain(self, value: Any, depth: int) -> Any:
        """ruamel's values as plain, JSON-ready Python values."""
        self._visit(depth)
        if isinstance(value, dict):
            return {self._key(k, depth + 1): self.plain(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            return [self.plain(v, depth + 1) for v in value]
        if isinstance(value, datetime | date):
            return value.isoformat()
        if isinstance(value, bytes | bytearray):
            return None
        return value

    def _key(self, key: Any, depth: int) -> str:
        if isinstance(key, tuple):
            # A complex key (``? [a, b]``) may hold aliases too: expanded under the same budget.
            return str(self.plain(key, depth))
        self._visit(depth)
        return str(key)

    def count(self, value: Any, depth: int) -> None:
        """Count the nodes of an already plain value (the line parser's result)."""
        self._visit(depth)
        if isinstance(value, dict):
            for item in value.values():
                self._visit(depth + 1)  # its key
                self.count(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                self.count(item, depth + 1)


def _first_line(exc: Exception) -> str:
    text = " ".join(str(exc).split("\n\n")[0].split())
    return text[:300] or type(exc).__name__


def _parse_simple(text: str) -> dict[str, Any] | None:
    """The block's mapping if every line is simple enough, else None (use the full parser).

    Simple: ``key: value`` lines with plain, quoted or flow-list values, a ``key:`` followed by
    ``- item`` lines (a block sequence) or by ``  sub: value`` lines indented by the same spaces
    (a one-level mapping, as memory facts and typed relations write them)."""
    result: dict[str, Any] = {}
    open_key: str | None = None  # a ``key:`` with no value: a sequence or mapping may follow
    items: list[Any] = []
    nested: dict[str, Any] | None = None
    indent = ""
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if open_key is not None:
            item = _ITEM_LINE.fullmatch(line) if nested is None else None
            if item is not None:
                value = _scalar(item.group(1))
                if value is _NO_VALUE:
                    return None
                items.append(value)
                continue
            sub = _NESTED_LINE.fullmatch(line) if not items else None
            if sub is not None and (nested is None or sub.group(1) == indent):
                if nested is None:
                    nested, indent = {}, sub.group(1)
                if not _plain_key(sub.group(2)):
                    return None
                value = _value(sub.group(3).strip())
                if value is _NO_VALUE:
                    return None
                nested.setdefault(sub.group(2), value)
                continue
            if line[:1] in (" ", "\t"):
                return None  # deeper or uneven nesting: the full parser
            result[open_key] = nested if nested is not None else (items or None)
            open_key, nested = None, None
        match = _KEY_LINE.fullmatch(line)
        if match is None:
            return None
        key, raw = match.group(1), match.group(2)
        if not _plain_key(key):
            return None
        if raw is None or not raw.strip():
            if key in result:
                return None  # a duplicate key heading a block: leave it to ruamel
            result[key] = None
            open_key, items = key, []
            continue
        value = _value(raw.strip())
        if value is _NO_VALUE:
            return None
        result.setdefault(key, value)
    if open_key is not None:
        result[open_key] = nested if nested is not None else (items or None)
    return result


def _plain_key(key: str) -> bool:
    return not (key in _NULLS or key in _BOOLS or key.lower() in _AMBIGUOUS)


def _value(raw: str) -> Any:
    if raw.startswith("[") and raw.endswith("]"):
        inner = raw[1:-1].strip()
        if not inner:
            return []
        items = []
        for part in inner.split(","):
            item = part.strip()
            if _QUOTED_ITEM.fullmatch(item):
                items.append(item[1:-1])
                continue
            if not item or not _FLOW_ITEM.fullmatch(item):
                return _NO_VALUE
            value = _resolve(item)
            if value is _NO_VALUE:
                return _NO_VALUE
            items.append(value)
        return items
    return _scalar(raw)


def _scalar(raw: str) -> Any:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        inner = raw[1:-1]
        return _NO_VALUE if '"' in inner or "\\" in inner else inner
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        inner = raw[1:-1]
        return _NO_VALUE if "'" in inner else inner
    if not _PLAIN.fullmatch(raw) or " #" in raw:
        return _NO_VALUE
    return _resolve(raw)


def _resolve(raw: str) -> Any:
    """YAML 1.2 core-schema resolution of a plain scalar, or _NO_VALUE when unsure."""
    if raw in _NULLS:
        return None
    if raw in _BOOLS:
        return _BOOLS[raw]
    if raw.lower() in _AMBIGUOUS:
        return _NO_VALUE
    if raw[0].isdigit():
        if _INT.fullmatch(raw):
            return int(raw)
        if _FLOAT.fullmatch(raw):
            return float(raw)
        if _DATE.fullmatch(raw):
            try:
                return date.fromisoformat(raw).isoformat()
            except ValueError:
                return _NO_VALUE
        return raw if _NOT_NUMERIC.search(raw) else _NO_VALUE
    return raw
