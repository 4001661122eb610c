"""Link extraction from a canonical Markdown mirror: a pure, linear-time parser.

Body forms: ``[[target]]``, ``[[target|alias]]``, ``[[target#heading]]``, ``[[target#^block]]``,
embeds ``![[x]]``, ``[[collection:target]]``, inline links and images ``[text](dest)`` /
``![alt](dest)`` (relative or root-relative, ``#anchor``, percent-encoded and ``<angle>`` forms,
optional title), reference-style ``[text][label]``, ``[label][]`` and ``[label]`` with their
``[label]: dest`` definitions, and autolinks ``<scheme:...>``. Nothing is taken from fenced or
indented code, inline code, HTML comments or math (``$...$``, ``$$`` blocks); links to another
part of the same document (``[[#h]]``, ``(#h)``) are not links between documents and are left
out. Destinations with a scheme (``http:``, ``mailto:`` ...) are kept as external.
Frontmatter gives typed edges: ``relations: {works_at: "[[Acme]]"}`` (or a list of
``{type, target}``) and any other key whose value holds ``[[wiki links]]``; the key, in
``snake_case``, is the edge type.

Bounded on hostile input: every search for a closing delimiter is cached or stops at the end of
its line, so an unclosed ``[[`` or 10,000 links on one line cost time linear in the line;
at most ``MAX_LINKS`` links are kept per document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import unquote

from gno_core.domain import (
    EMBEDS,
    FRONTMATTER_RELATION,
    LINKS_TO,
    MARKDOWN,
    MARKDOWN_LINK,
    WIKI,
    WIKILINK,
    ExtractedLink,
)
from gno_core.links.names import label_first_target, link_keys

__all__ = ["MAX_LINKS", "extract_links", "snake_case"]

#: Links kept per document; the rest of a hostile file is ignored.
MAX_LINKS = 20_000
#: Characters of the source line kept around a link as its context.
CONTEXT_CHARS = 160

_MASK = "\x00"
_FENCE_OPEN = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_REF_DEF = re.compile(
    r"^ {0,3}\[((?:[^\[\]\\\x00]|\\.){1,999})\]:[ \t]*(<[^<>\n]*>|[^\s\x00]+)"
    r"(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?[ \t]*$"
)
_DEST = re.compile(
    r"[ \t]*(?:<([^<>\n\x00]*)>|((?:[^\s()\\\x00]|\\.|\((?:[^\s()\\\x00]|\\.)*\))*))"
    r"(?:[ \t]+(?:\"[^\"\n\x00]*\"|'[^'\n\x00]*'|\([^()\n\x00]*\)))?[ \t]*\)"
)
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00]*)>")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]{1,31}):")
_QUALIFIED = re.compile(r"^([a-z0-9][a-z0-9_-]{0,63}):(?!//)(.+)$")
_DENDRON_URI = re.compile(r"^dendron://[^/]*/(.*)$")
_GNO_URI = re.compile(r"^gno://([^/?#]+)/([^?#]*)")
_WIKI_IN_TEXT = re.compile(r"\[\[([^\[\]\n]{1,1000})\]\]")
_SPACES = re.compile(r"\s+")
_BRACKET = re.compile(r"[\[\]]")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[\W_]+")
#: Frontmatter keys that are never edges, even when their value holds ``[[...]]``.
_META_KEYS = frozenset({"title", "aliases", "alias", "tags", "tag", "id", "desc", "description"})


def snake_case(key: str) -> str | None:
    """``worksAt``, ``works-at`` and ``Works At`` are all ``works_at``; None when empty."""
    text = _NON_WORD.sub("_", _CAMEL.sub(r"\1_\2", key)).strip("_").lower()
    return text or None


def extract_links(
    markdown: str,
    source_rel_path: str,
    front: Mapping[str, Any] | None = None,
    body_start_line: int = 1,
) -> tuple[ExtractedLink, ...]:
    """Every link of the mirror ``markdown`` of the document at ``source_rel_path``, in order
    (frontmatter edges first), each with its lookup keys. ``body_start_line`` is the first line
    after the frontmatter block (1 without one); ``front`` the parsed frontmatter."""
    text = markdown.replace(_MASK, "\ufffd") if _MASK in markdown else markdown
    if not front and "[" not in text and "<" not in text:
        return ()  # no link syntax at all: most of a large vault of prose
    lines = text.split("\n")
    out: list[ExtractedLink] = []
    if front:
        out.extend(_frontmatter_links(front, lines[: body_start_line - 1]))
    prose, definitions = _prose_lines(lines, body_start_line)
    for lineno, line, masked in prose:
        for link in _line_links(lineno, line, masked, definitions):
            out.append(link)
            if len(out) >= MAX_LINKS:
                break
        if len(out) >= MAX_LINKS:
            break
    return tuple(
        _numbered(link, seq, link_keys(link, source_rel_path))
        for seq, link in enumerate(out[:MAX_LINKS])
    )


def _numbered(k: ExtractedLink, seq: int, keys: tuple[str, ...]) -> ExtractedLink:
    # Spelled out: ``dataclasses.replace`` costs twice as much, once per link of a vault.
    return ExtractedLink(
        seq,
        k.link_type,
        k.edge_source,
        k.relation,
        k.target_ref,
        k.target_anchor,
        k.target_collection,
        k.link_text,
        k.start_line,
        k.start_col,
        k.end_line,
        k.end_col,
        k.alias,
        k.external,
        k.embed,
        k.context,
        keys,
    )


# -- blocks ---------------------------------------------------------------------------------


def _prose_lines(lines: list[str], start: int) -> tuple[list[tuple[int, str, str]], dict[str, str]]:
    """(line number, line, masked line) of every line outside code and math blocks, with inline
    code, comments and math masked; and the reference definitions (label -> destination)."""
    prose: list[tuple[int, str, str]] = []
    definitions: dict[str, str] = {}
    fence: tuple[str, int, int] | None = None  # character, length, indentation
    in_math = in_comment = in_list = False
    prev_blank = prev_code = True
    for index in range(start - 1, len(lines)):
        line = lines[index]
        stripped = line.strip()
        if in_comment:
            masked, in_comment = _mask(line, True)
            prose.append((index + 1, line, masked))
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
        if "[" not in line and "<" not in line:
            continue  # nothing to find, and no comment can open here
        masked, in_comment = _mask(line, False)
        definition = _REF_DEF.match(masked)
        if definition:
            label = _label(definition.group(1))
            if label and label not in definitions:
                dest = definition.group(2)
                definitions[label] = dest[1:-1] if dest.startswith("<") else dest
            continue
        prose.append((index + 1, line, masked))
    return prose, definitions


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
            return _MASK * n, True
        parts.append(_MASK * (end + 3))
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
                parts.append(_MASK * (n - j))
                return "".join(parts), True
            parts.append(_MASK * (end + 3 - j))
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
                parts.append(_MASK * (end + size - j))
                i = end + size
        else:
            end = -1 if _escaped(line, j) else _closing_dollar(line, j)
            if end == -2:
                no_dollar = True
            if end < 0:
                parts.append("$")
                i = j + 1
            else:
                parts.append(_MASK * (end + 1 - j))
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


def _escaped(line: str, pos: int) -> bool:
    slashes = 0
    while pos - slashes - 1 >= 0 and line[pos - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _label(raw: str) -> str:
    return _SPACES.sub(" ", raw).strip().casefold()


# -- inline ---------------------------------------------------------------------------------


def _line_links(
    lineno: int, line: str, masked: str, definitions: dict[str, str]
) -> Iterator[ExtractedLink]:
    found: list[tuple[int, ExtractedLink]] = []
    if "[[" in masked:
        masked = _wiki_links(lineno, line, masked, found)
    if "[" in masked:
        _markdown_links(lineno, line, masked, definitions, found)
    if "<" in masked and ":" in masked:
        for match in _AUTOLINK.finditer(masked):
            dest = match.group(1)
            found.append(
                (
                    match.start(),
                    _link(
                        lineno,
                        line,
                        match.start(),
                        match.end() - 1,
                        MARKDOWN,
                        dest,
                        None,
                        None,
                        dest,
                        external=True,
                    ),
                )
            )
    found.sort(key=lambda item: item[0])
    for _, link in found:
        yield link


def _wiki_links(lineno: int, line: str, masked: str, found: list[tuple[int, ExtractedLink]]) -> str:
    """Append the wiki links of ``masked``; returns it with their spans masked too."""
    spans: list[tuple[int, int]] = []
    close = -2
    i = masked.find("[[")
    while i >= 0:
        if close < i + 2:
            close = masked.find("]]", i + 2)
            if close < 0:
                break
        # ``[[a [[b]]``: the innermost opener starts the link
        i = max(i, masked.rfind("[[", i + 2, close))
        inner = masked[i + 2 : close]
        # Inline code inside the brackets is part of the label (``[[`cmd`|note]]``).
        if _escaped(masked, i) or not inner.strip():
            i = masked.find("[[", i + 2)
            continue
        embed = i > 0 and masked[i - 1] == "!" and not _escaped(masked, i - 1)
        start = i - 1 if embed else i
        link = _wiki(lineno, line, start, close + 1, line[i + 2 : close], embed)
        if link is not None:
            found.append((start, link))
        spans.append((start, close + 2))
        i = masked.find("[[", close + 2)
    if not spans:
        return masked
    parts: list[str] = []
    last = 0
    for begin, end in spans:
        parts.append(masked[last:begin])
        parts.append(_MASK * (end - begin))
        last = end
    parts.append(masked[last:])
    return "".join(parts)


def _wiki(
    lineno: int, line: str, start: int, end: int, inner: str, embed: bool
) -> ExtractedLink | None:
    inner = inner.replace("\\|", "|")  # inside Markdown tables the pipe is escaped
    target, bar, alias = inner.partition("|")
    target, _, anchor = target.partition("#")
    target = target.strip()
    collection: str | None = None
    external = False
    dendron = _DENDRON_URI.match(target)
    if dendron:
        target = dendron.group(1)
    elif _SCHEME.match(target) and (
        "://" in target or target.lower().startswith(("mailto:", "tel:"))
    ):
        external = True
    else:
        qualified = _QUALIFIED.match(target)
        if qualified:
            collection, target = qualified.group(1), qualified.group(2).strip()
    if not target and not (bar and label_first_target(alias)):
        return None  # ``[[#heading]]``: a place in this document
    if bar and alias.strip().startswith("#") and not target.startswith("#"):
        return None  # ``[[label|#heading]]``, Dendron's order: a place in this document
    return _link(
        lineno,
        line,
        start,
        end,
        WIKI,
        target,
        anchor.strip() or None,
        collection,
        (alias.strip() if bar else inner.strip()) or None,
        alias=alias.strip() or None if bar else None,
        external=external,
        embed=embed,
    )


def _brackets(masked: str) -> dict[int, int]:
    """Matching ``]`` of each unescaped ``[`` on the line, in one pass with a stack."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for found in _BRACKET.finditer(masked):
        pos = found.start()
        ch = masked[pos]
        if ch == "[":
            if not _escaped(masked, pos):
                stack.append(pos)
        elif ch == "]" and stack and not _escaped(masked, pos):
            pairs[stack.pop()] = pos
    return pairs


def _markdown_links(
    lineno: int,
    line: str,
    masked: str,
    definitions: dict[str, str],
    found: list[tuple[int, ExtractedLink]],
) -> None:
    pairs = _brackets(masked)
    dest_start = dest_end = -1
    consumed_labels: set[int] = set()
    for open_at in sorted(pairs):
        close = pairs[open_at]
        if dest_start <= open_at <= dest_end or open_at in consumed_labels:
            continue
        image = open_at > 0 and masked[open_at - 1] == "!" and not _escaped(masked, open_at - 1)
        start = open_at - 1 if image else open_at
        text = line[open_at + 1 : close].strip() or None
        after = close + 1
        dest: str | None = None
        end = close
        if after < len(masked) and masked[after] == "(":
            match = _DEST.match(masked, after + 1)
            if match is None:
                continue
            raw = match.group(1) if match.group(1) is not None else match.group(2)
            dest = line[match.start(1) : match.end(1)] if match.group(1) is not None else raw
            end = match.end() - 1
            dest_start, dest_end = after, end
        else:
            label: str | None = None
            if after < len(masked) and masked[after] == "[" and after in pairs:
                label = _label(masked[after + 1 : pairs[after]]) or _label(text or "")
                consumed_labels.add(after)
                end = pairs[after]
            elif "[" not in masked[open_at + 1 : close]:
                label = _label(masked[open_at + 1 : close])
            if not label or label not in definitions:
                continue
            dest = definitions[label]
        link = _markdown(lineno, line, start, end, dest, text, image)
        if link is not None:
            found.append((start, link))


def _markdown(
    lineno: int, line: str, start: int, end: int, dest: str, text: str | None, image: bool
) -> ExtractedLink | None:
    dest = _unescape(dest.strip())
    if not dest:
        return None
    scheme = _SCHEME.match(dest)
    collection: str | None = None
    if scheme:
        gno = _GNO_URI.match(dest)
        if gno is None:
            return _link(lineno, line, start, end, MARKDOWN, dest, None, None, text, external=True)
        collection = unquote(gno.group(1)).lower()
        dest = "/" + gno.group(2) + dest[gno.end() :]
    elif dest.startswith("//"):
        return _link(lineno, line, start, end, MARKDOWN, dest, None, None, text, external=True)
    path, _, anchor = dest.partition("#")
    path = path.partition("?")[0]
    if not path:
        return None  # ``(#heading)``: a place in this document
    return _link(
        lineno,
        line,
        start,
        end,
        MARKDOWN,
        unquote(path),
        unquote(anchor) or None,
        collection,
        text,
        embed=image,
    )


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def _link(
    lineno: int,
    line: str,
    start: int,
    end: int,
    link_type: str,
    target: str,
    anchor: str | None,
    collection: str | None,
    text: str | None,
    *,
    alias: str | None = None,
    external: bool = False,
    embed: bool = False,
) -> ExtractedLink:
    return ExtractedLink(
        seq=0,
        link_type=link_type,
        edge_source=WIKILINK if link_type == WIKI else MARKDOWN_LINK,
        relation=EMBEDS if embed else LINKS_TO,
        target_ref=target,
        target_anchor=anchor,
        target_collection=collection,
        link_text=text,
        start_line=lineno,
        start_col=start + 1,
        end_line=lineno,
        end_col=end + 1,
        alias=alias,
        external=external,
        embed=embed,
        context=_context(line, start, end),
    )


def _context(line: str, start: int, end: int) -> str:
    if len(line) <= CONTEXT_CHARS:
        return line.strip()
    middle = (start + end) // 2
    left = max(0, min(middle - CONTEXT_CHARS // 2, len(line) - CONTEXT_CHARS))
    snippet = line[left : left + CONTEXT_CHARS].strip()
    return ("…" if left else "") + snippet + ("…" if left + CONTEXT_CHARS < len(line) else "")


# -- frontmatter ----------------------------------------------------------------------------


def _frontmatter_links(front: Mapping[str, Any], head: list[str]) -> Iterator[ExtractedLink]:
    relations = front.get("relations")
    if isinstance(relations, Mapping):
        for key, value in relations.items():
            relation = snake_case(str(key))
            if relation:
                for target in _targets(value, bare=True):
                    yield _typed(relation, target, head, str(key), "relations")
    elif isinstance(relations, list):
        for item in relations:
            if not isinstance(item, Mapping):
                continue
            kind = item.get("type", item.get("relation"))
            relation = snake_case(str(kind)) if kind is not None else None
            value = item.get("target", item.get("to"))
            if relation and value is not None:
                for target in _targets(value, bare=True):
                    yield _typed(relation, target, head, "relations", None)
    for key, value in front.items():
        if key == "relations" or str(key).lower() in _META_KEYS:
            continue
        relation = snake_case(str(key))
        if relation:
            for target in _targets(value, bare=False):
                yield _typed(relation, target, head, str(key), None)


def _targets(value: object, *, bare: bool) -> Iterator[str]:
    """Wiki targets in a frontmatter value: ``[[x]]`` inside strings, unquoted ``[[x]]`` (which
    YAML reads as a list in a list) and, when ``bare``, plain names."""
    if isinstance(value, str):
        matches = _WIKI_IN_TEXT.findall(value)
        if matches:
            yield from matches
        elif bare and value.strip():
            yield value.strip()
    elif isinstance(value, list):
        for item in value[:1000]:
            if isinstance(item, list) and len(item) == 1 and isinstance(item[0], str):
                yield item[0]
            elif isinstance(item, str | list):
                yield from _targets(item, bare=bare)


def _typed(
    relation: str, inner: str, head: list[str], key: str, parent: str | None
) -> ExtractedLink:
    lineno = _key_line(head, key, parent)
    gno = _GNO_URI.match(inner.strip())
    link: ExtractedLink | None
    if gno is not None:
        # A ``gno://collection/path`` value (memory facts name what they supersede so) is an
        # exact path in that collection, not an external link.
        path, _, anchor = unquote(gno.group(2)).partition("#")
        collection = unquote(gno.group(1)).lower()
        link = _link(lineno, "", 0, 0, WIKI, "/" + path, anchor or None, collection, inner)
    else:
        link = _wiki(lineno, head[lineno - 1] if lineno <= len(head) else "", 0, 0, inner, False)
    target = link or _link(lineno, "", 0, 0, WIKI, inner, None, None, inner)
    line = head[lineno - 1] if 0 < lineno <= len(head) else ""
    return replace(
        target,
        edge_source=FRONTMATTER_RELATION,
        relation=relation,
        start_col=1,
        end_col=max(1, len(line)),
        context=line.strip()[:CONTEXT_CHARS],
    )


def _key_line(head: list[str], key: str, parent: str | None) -> int:
    """1-based line of ``key:`` in the frontmatter (under ``parent:`` when given)."""
    begin = 0
    if parent is not None:
        begin = next((i + 1 for i, line in enumerate(head) if line.startswith(parent + ":")), 0)
    for i in range(begin, len(head)):
        if head[i].lstrip().startswith((key + ":", f'"{key}":', f"'{key}':")):
            return i + 1
    return max(1, begin)
