"""Blocks of a Markdown mirror for link extraction: which lines are prose (outside fenced and
indented code and ``$$`` math blocks), each with inline code, HTML comments and inline math
masked, and the reference-style definitions (``[label]: dest``) of the document.

Linear on hostile input: each kind of delimiter is searched from where its last search ended,
and a search that fails is not repeated."""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["MASK", "REF_DEF", "escaped", "iter_prose", "normal_label", "prose_lines"]

MASK = "\x00"
_FENCE_OPEN = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
REF_DEF = re.compile(
    r"^ {0,3}\[((?:[^\[\]\\\x00]|\\.){1,999})\]:[ \t]*(<[^<>\n]*>|[^\s\x00]+)"
    r"(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?[ \t]*$"
)
_SPACES = re.compile(r"\s+")


def prose_lines(
    lines: list[str], start: int
) -> tuple[list[tuple[int, str, str]], dict[str, str], set[int]]:
    """(line number, line, masked line) of every line outside code and math blocks that holds a
    ``[`` or ``<``, with inline code, comments and math masked; the reference definitions
    (label -> destination, the first of each label); and the numbers of the definition lines
    (each among the lines, a link to its destination, ``inline.definition_link``)."""
    definitions: dict[str, str] = {}
    defined: set[int] = set()
    return list(iter_prose(lines, start, "[", definitions, defined)), definitions, defined


def iter_prose(
    lines: list[str],
    start: int,
    needle: str,
    definitions: dict[str, str],
    defined: set[int] | None = None,
) -> Iterator[tuple[int, str, str]]:
    """``prose_lines`` one line at a time, for the lines holding ``needle`` or a ``<`` (links
    need a ``[``, inline tags a ``#``), adding the reference definitions met so far to
    ``definitions``: a reader that has seen enough stops early. With ``defined``, definition
    lines are given too, their numbers added to it; without, they are left out."""
    fence: tuple[str, int, int] | None = None  # character, length, indentation
    in_math = in_comment = in_list = False
    prev_blank = prev_code = True
    for index in range(start - 1, len(lines)):
        line = lines[index]
        stripped = line.strip()
        if in_comment:
            masked, in_comment = _mask(line, True)
            yield index + 1, line, masked
            continue
        if fence is not None:
            close = line.lstrip(" \t")
            if (
                len(line) - len(close) <= fence[2] + 3
                and close.startswith(fence[0] * fence[1])
                and not close.strip(fence[0]).strip()
            ):
                fence = None
            continue
        opened = _FENCE_OPEN.match(line) if stripped[:3] in ("```", "~~~") else None
        # Inside a list item a fence is indented like the item's text (Dendron, Obsidian).
        if (
            opened
            and (len(opened.group(1)) <= 3 or in_list)
            and not (opened.group(2)[0] == "`" and "`" in opened.group(3))
        ):
            fence = (opened.group(2)[0], len(opened.group(2)), len(opened.group(1)))
            prev_blank, prev_code = False, False
            continue
        if in_math:
            if stripped.endswith("$$"):
                in_math = False
            continue
        if stripped.startswith("$$") and (stripped == "$$" or not stripped.endswith("$$")):
            in_math = True
            continue
        if not stripped:
            prev_blank = True
            continue
        indented = line.startswith(("    ", "\t"))
        if indented and not in_list and (prev_blank or prev_code):
            prev_blank, prev_code = False, True
            continue
        if stripped[0] in "-*+0123456789" and _LIST_ITEM.match(line):
            in_list = True
        elif not indented:
            in_list = False
        prev_blank = prev_code = False
        if needle not in line and "<" not in line:
            continue  # nothing to find, and no comment can open here
        masked, in_comment = _mask(line, False)
        definition = REF_DEF.match(masked)
        if definition:
            label = normal_label(definition.group(1))
            if label and label not in definitions:
                dest = definition.group(2)
                definitions[label] = dest[1:-1] if dest.startswith("<") else dest
            if defined is not None and label:
                defined.add(index + 1)
                yield index + 1, line, masked
            continue
        yield index + 1, line, masked


def _mask(line: str, in_comment: bool) -> tuple[str, bool]:
    """``line`` with inline code, HTML comments and inline math replaced by NUL characters
    (same length), and whether a comment is still open at its end. Linear: each kind of
    delimiter is searched from where its last search ended, and a search that fails is not
    repeated."""
    n = len(line)
    parts: list[str] = []
    i = 0
    if in_comment:
        end = line.find("-->")
        if end < 0:
            return MASK * n, True
        parts.append(MASK * (end + 3))
        i = end + 3
    if "`" not in line and "<!--" not in line and "$" not in line:
        return "".join(parts) + line[i:], False
    no_closer: set[int] = set()
    no_dollar = False
    next_tick = next_comment = next_dollar = -2
    while i < n:
        if next_tick != -1 and next_tick < i:
            next_tick = line.find("`", i)
        if next_comment != -1 and next_comment < i:
            next_comment = line.find("<!--", i)
        if next_dollar != -1 and next_dollar < i:
            next_dollar = -1 if no_dollar else line.find("$", i)
        found = [p for p in (next_tick, next_comment, next_dollar) if p >= 0]
        if not found:
            break
        j = min(found)
        parts.append(line[i:j])
        if j == next_comment:
            end = line.find("-->", j + 4)
            if end < 0:
                parts.append(MASK * (n - j))
                return "".join(parts), True
            parts.append(MASK * (end + 3 - j))
            i = end + 3
        elif j == next_tick:
            run = j
            while run < n and line[run] == "`":
                run += 1
            size = run - j
            end = -1 if size in no_closer else _closing_ticks(line, run, size)
            if end < 0:
                no_closer.add(size)
                parts.append(line[j:run])
                i = run
            else:
                parts.append(MASK * (end + size - j))
                i = end + size
        else:
            end = -1 if escaped(line, j) else _closing_dollar(line, j)
            if end == -2:
                no_dollar = True
            if end < 0:
                parts.append("$")
                i = j + 1
            else:
                parts.append(MASK * (end + 1 - j))
                i = end + 1
    parts.append(line[i:])
    return "".join(parts), False


def _closing_ticks(line: str, start: int, size: int) -> int:
    ticks = "`" * size
    pos = line.find(ticks, start)
    while pos >= 0:
        end = pos + size
        if end >= len(line) or line[end] != "`":
            return pos
        while end < len(line) and line[end] == "`":
            end += 1
        pos = line.find(ticks, end)
    return -1


def _closing_dollar(line: str, start: int) -> int:
    """End of inline math opened at ``start`` (Pandoc's rule: ``$`` then a non-space, closed by
    a ``$`` after a non-space and not before a digit); -1 when this ``$`` opens nothing, -2
    when no later ``$`` can close anything either."""
    display = line.startswith("$$", start)
    first = start + (2 if display else 1)
    if first >= len(line) or line[first].isspace():
        return -1
    if display:
        end = line.find("$$", first)
        return end + 1 if end >= 0 else -1
    pos = line.find("$", first)
    while pos >= 0:
        if not line[pos - 1].isspace() and not (pos + 1 < len(line) and line[pos + 1].isdigit()):
            return pos
        pos = line.find("$", pos + 1)
    return -2


def escaped(line: str, pos: int) -> bool:
    slashes = 0
    while pos - slashes - 1 >= 0 and line[pos - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def normal_label(raw: str) -> str:
    return _SPACES.sub(" ", raw).strip().casefold()
