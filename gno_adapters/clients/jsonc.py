"""Edit one member of a JSON or JSONC file in place, leaving every other byte as it was.

No maintained Python library both reads JSONC (comments, trailing commas) and writes back a
change without reformatting the rest, so this is a small parser that records where each value
and member sits in the text, and an editor that splices only the member it adds, replaces or
removes. ``remove_member`` undoes ``set_member`` byte for byte (tests/unit/test_jsonc.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: Deeper nesting than any client config has; the bound keeps a hostile file from exhausting
#: the recursion limit.
MAX_DEPTH = 256

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JsoncError(ValueError):
    """Text that is not JSON or JSONC; ``offset`` is where reading stopped."""

    def __init__(self, message: str, offset: int, text: str) -> None:
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        super().__init__(f"{message} at line {line}, column {column}")
        self.line = line
        self.column = column


@dataclass
class Member:
    key: str
    key_start: int
    value: Node
    #: offset of the comma that follows this member, if one does
    comma: int | None = None


@dataclass
class Node:
    start: int
    end: int
    value: Any
    #: object members in file order (None for anything but an object)
    members: list[Member] | None = None
    #: offset of the closing bracket of an object or array
    close: int = -1
    children: list[Node] = field(default_factory=list)

    def member(self, key: str) -> Member | None:
        found = [m for m in self.members or () if m.key == key]
        # With duplicate keys the last one wins, as in every JSON reader the clients use.
        return found[-1] if found else None


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str, offset: int | None = None) -> JsoncError:
        return JsoncError(message, self.pos if offset is None else offset, self.text)

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n:
            c = text[self.pos]
            if c in " \t\r\n\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unterminated comment")
                self.pos = end + 2
            else:
                return

    def value(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH} levels")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of file")
        c = self.text[self.pos]
        if c == "{":
            return self.obj(depth)
        if c == "[":
            return self.array(depth)
        if c == '"':
            start = self.pos
            text = self.string()
            return Node(start, self.pos, text)
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, self.pos):
                start = self.pos
                self.pos += len(word)
                return Node(start, self.pos, literal)
        match = _NUMBER.match(self.text, self.pos)
        if match:
            self.pos = match.end()
            raw = match.group()
            number: int | float = float(raw) if any(ch in raw for ch in ".eE") else int(raw)
            return Node(match.start(), self.pos, number)
        raise self.fail(f"unexpected character {c!r}")

    def string(self) -> str:
        start = self.pos
        i = start + 1
        text = self.text
        while i < len(text):
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == '"':
                self.pos = i + 1
                try:
                    decoded: str = json.loads(text[start : i + 1])
                except json.JSONDecodeError as exc:
                    raise self.fail(f"bad string ({exc.msg})", start) from None
                return decoded
            if c == "\n":
                break
            i += 1
        raise self.fail("unterminated string", start)

    def obj(self, depth: int) -> Node:
        start = self.pos
        self.pos += 1
        members: list[Member] = []
        value: dict[str, Any] = {}
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("unterminated object", start)
            if self.text[self.pos] == "}":
                close = self.pos
                self.pos += 1
                node = Node(start, self.pos, value, members, close)
                node.children = [m.value for m in members]
                return node
            if members and members[-1].comma is None:
                raise self.fail("expected ',' or '}'")
            if self.text[self.pos] != '"':
                raise self.fail("expected a member name in double quotes")
            key_start = self.pos
            key = self.string()
            self.skip()
            if not self.text.startswith(":", self.pos):
                raise self.fail("expected ':'")
            self.pos += 1
            child = self.value(depth + 1)
            member = Member(key, key_start, child)
            members.append(member)
            value[key] = child.value
            self.skip()
            if self.text.startswith(",", self.pos):
                member.comma = self.pos
                self.pos += 1

    def array(self, depth: int) -> Node:
        start = self.pos
        self.pos += 1
        items: list[Node] = []
        comma = True
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("unterminated array", start)
            if self.text[self.pos] == "]":
                close = self.pos
                self.pos += 1
                node = Node(start, self.pos, [i.value for i in items], None, close)
                node.children = items
                return node
            if not comma:
                raise self.fail("expected ',' or ']'")
            items.append(self.value(depth + 1))
            self.skip()
            comma = self.text.startswith(",", self.pos)
            if comma:
                self.pos += 1


def parse(text: str) -> Node:
    """The tree of ``text`` (an empty or whitespace-only text is an empty object)."""
    reader = _Reader(text)
    reader.skip()
    if reader.pos >= len(text):
        return Node(0, 0, {}, [], -1)
    node = reader.value(0)
    reader.skip()
    if reader.pos != len(text):
        raise reader.fail("unexpected text after the value")
    return node


def loads(text: str) -> Any:
    return parse(text).value


# -- editing ---------------------------------------------------------------------------------


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _line_indent(text: str, offset: int) -> str | None:
    """The whitespace before ``offset`` on its line, or None when something else precedes it."""
    line_start = text.rfind("\n", 0, offset) + 1
    lead = text[line_start:offset]
    return lead if lead.strip(" \t") == "" else None


def _indent_of(text: str, node: Node, parent_indent: str) -> tuple[str, str]:
    """(indent of ``node``'s members, one indent unit) as the file already writes them."""
    for m in node.members or ():
        ind = _line_indent(text, m.key_start)
        if ind is not None and len(ind) > len(parent_indent):
            return ind, ind[len(parent_indent) :]
    return parent_indent + "  ", "  "


def _render(key: str, value: Any, indent: str, unit: str, newline: str) -> str:
    body = json.dumps(value, indent=unit, ensure_ascii=False)
    body = body.replace("\n", newline + indent)
    return json.dumps(key, ensure_ascii=False) + ": " + body


def _after_same_line_comment(text: str, pos: int) -> int:
    """``pos``, or the end of a comment that follows it on the same line: a member added after a
    ``"x": 1, // note`` goes below the note, not between the comma and it."""
    i = pos
    while i < len(text) and text[i] in " \t":
        i += 1
    if text.startswith("//", i):
        end = text.find("\n", i)
        end = len(text) if end < 0 else end
        return end - 1 if text[end - 1 : end] == "\r" else end
    if text.startswith("/*", i):
        end = text.find("*/", i)
        if end >= 0 and "\n" not in text[i:end]:
            return end + 2
    return pos


def _splice(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _object_path(root: Node, text: str, path: Sequence[str]) -> tuple[list[Node], list[str]]:
    """The objects along ``path`` that exist (root first) and the indent of each."""
    if not isinstance(root.value, dict):
        raise JsoncError("the file's top level is not an object", root.start, text)
    nodes, indents = [root], [_line_indent(text, root.start) or ""]
    for depth, key in enumerate(path):
        member = nodes[-1].member(key)
        if member is None:
            break
        if member.value.members is None:
            where = ".".join(path[: depth + 1])
            raise JsoncError(f"{where!r} is not an object", member.value.start, text)
        nodes.append(member.value)
        indents.append(_indent_of(text, nodes[-2], indents[-1])[0])
    return nodes, indents


def set_member(text: str, path: Sequence[str], value: Any) -> str:
    """``text`` with the member at ``path`` set to ``value`` (objects on the way created)."""
    nl = _newline(text)
    if text.strip() == "":
        nested: Any = value
        for key in reversed(path):
            nested = {key: nested}
        return json.dumps(nested, indent=2, ensure_ascii=False).replace("\n", nl) + nl
    root = parse(text)
    nodes, indents = _object_path(root, text, path[:-1])
    parent, parent_indent = nodes[-1], indents[-1]
    ind, unit = _indent_of(text, parent, parent_indent)
    rest = list(path[len(nodes) - 1 :])
    if len(rest) == 1 and (existing := parent.member(rest[0])) is not None:
        body = json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", nl + ind)
        return _splice(text, [(existing.value.start, existing.value.end, body)])
    nested = value
    for key in reversed(rest[1:]):
        nested = {key: nested}
    member = _render(rest[0], nested, ind, unit, nl)
    members = parent.members or []
    if not members:
        interior = text[parent.start + 1 : parent.close]
        if interior.strip() == "":
            return _splice(
                text, [(parent.start + 1, parent.close, f"{nl}{ind}{member}{nl}{parent_indent}")]
            )
        last = parent.close - len(interior) + len(interior.rstrip())
        return _splice(text, [(last, last, f"{nl}{ind}{member}")])
    last_member = members[-1]
    if last_member.comma is not None:
        at = _after_same_line_comment(text, last_member.comma + 1)
        return _splice(text, [(at, at, f"{nl}{ind}{member},")])
    end = last_member.value.end
    at = _after_same_line_comment(text, end)
    if at == end:
        return _splice(text, [(end, end, f",{nl}{ind}{member}")])
    return _splice(text, [(end, end, ","), (at, at, f"{nl}{ind}{member}")])


def get_member(text: str, path: Sequence[str]) -> Any:
    """The value at ``path``, or None when a key on the way is missing."""
    value: Any = loads(text)
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def remove_member(text: str, path: Sequence[str]) -> str:
    """``text`` without the member at ``path`` (unchanged when it is not there)."""
    root = parse(text)
    nodes, _ = _object_path(root, text, path[:-1])
    if len(nodes) != len(path):
        return text
    parent = nodes[-1]
    members = parent.members or []
    index = next((i for i in range(len(members) - 1, -1, -1) if members[i].key == path[-1]), None)
    if index is None:
        return text
    member = members[index]
    gap = member.key_start
    while gap > 0 and text[gap - 1] in " \t\r\n":
        gap -= 1
    if member.comma is not None:
        edits = [(gap, member.comma + 1, "")]
    else:
        edits = [(gap, member.value.end, "")]
        if index > 0 and (comma := members[index - 1].comma) is not None:
            edits.append((comma, comma + 1, ""))
    out = _splice(text, edits)
    if len(members) == 1:
        # The one member gone: an object left holding only whitespace closes up again, the
        # way set_member found it.
        inner_end = parent.close - (len(text) - len(out))
        if out[parent.start + 1 : inner_end].strip() == "":
            out = out[: parent.start + 1] + out[inner_end:]
    return out
