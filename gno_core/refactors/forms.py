"""Where a link names a note, and how to name the note's new path in the same style.

A wiki link keeps its form (``[[stem]]`` stays a bare name, ``[[folder/note]]`` a path from the
root, ``[[a.b.c]]`` a Dendron hierarchy name; alias, ``#heading``, ``#^block``, ``!`` embed,
``collection:`` qualifier and the Markdown extension stay as written). A Markdown link keeps
its kind of path (relative stays relative to the linking note's folder, ``/``-rooted stays
rooted), its ``./`` prefix, ``<angle>`` form, percent-encoding, ``#anchor``, ``?query`` and
title. Only the path characters are replaced: every other character of the line is kept."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import quote

from gno_core.links.inline import _DEST
from gno_core.links.names import fold
from gno_core.text.names import strip_markdown_extension

__all__ = [
    "Site",
    "definition_here",
    "definition_site",
    "markdown_sites",
    "relocate_markdown",
    "rename_wiki",
    "wiki_sites",
]

_QUALIFIER = re.compile(r"^(dendron://[^/]*/|[a-z0-9][a-z0-9_-]{0,63}:(?!//))")
_WIKI = re.compile(r"\[\[([^\[\]\n]{1,1000})\]\]")
_DEFINITION = re.compile(r"^( {0,3}\[)((?:[^\[\]\\]|\\.){1,999})(\]:[ \t]*)(<[^<>\n]*>|\S+)")
_SAFE = "/._-~!$&'*+,;=:@"


@dataclass(frozen=True, slots=True)
class Site:
    """The characters of a line that spell a link's target path: 0-based ``start``, exclusive
    ``end``, the text there, and whether it is percent-encoded (Markdown) or bracketed."""

    start: int
    end: int
    text: str
    encoded: bool = False
    angle: bool = False


def wiki_sites(line: str, start: int, end: int, embed: bool) -> list[Site]:
    """The target names of the wiki link spanning ``line[start:end]`` (``[[`` .. ``]]``): the
    part before ``|`` and, for ``[[label|target]]`` (Dendron's order), the part after it, each
    without spaces around, qualifier and ``#anchor``."""
    opener = start + (1 if embed else 0) + 2
    inner = line[opener : end - 2]
    bar = inner.find("|")
    halves = [(0, inner)] if bar < 0 else [(0, inner[:bar]), (bar + 1, inner[bar + 1 :])]
    if bar > 0 and inner[bar - 1] == "\\":
        halves[0] = (0, inner[: bar - 1])
    sites: list[Site] = []
    for offset, half in halves:
        name = half.partition("#")[0]
        lead = len(name) - len(name.lstrip())
        name = name.strip()
        qualifier = _QUALIFIER.match(name)
        if qualifier:
            lead += qualifier.end()
            name = name[qualifier.end() :].strip()
        if name:
            begin = opener + offset + lead
            sites.append(Site(begin, begin + len(name), name))
    return sites


def frontmatter_sites(line: str) -> list[Site]:
    """The wiki target names of a frontmatter line (``key: "[[a]]"``, ``- [[b|c]]``)."""
    sites: list[Site] = []
    for match in _WIKI.finditer(line):
        sites.extend(wiki_sites(line, match.start(), match.end(), False))
    return sites


def markdown_sites(line: str, start: int, end: int) -> list[Site]:
    """The destination path of the inline Markdown link ``line[start:end]`` (``[..](..)``); []
    for a reference-style link (its definition is the site, see ``definition_site``)."""
    if not line[start:end].endswith(")"):
        return []
    pos = line.find("](", start)
    while pos >= 0 and pos < end:
        match = _DEST.match(line, pos + 2)
        if match is not None and match.end() == end:
            angle = match.group(1) is not None
            group = 1 if angle else 2
            return _path_site(line, match.start(group), match.end(group), angle)
        pos = line.find("](", pos + 1)
    return []


def reference_label(line: str, start: int, end: int) -> str:
    """The label a reference-style link ``[text][label]``, ``[label][]`` or ``[label]`` uses."""
    span = line[start:end].lstrip("!")
    cut = span.rfind("][")
    label = (span[cut + 2 : -1] or span[1:cut]) if cut >= 0 else span[1:-1]
    return " ".join(label.split()).casefold()


def definition_site(lines: tuple[str, ...], label: str) -> tuple[int, Site] | None:
    """(0-based line index, site) of the first ``[label]: dest`` definition."""
    for index, line in enumerate(lines):
        match = _DEFINITION.match(line)
        if match and " ".join(match.group(2).split()).casefold() == label:
            found = _definition_dest(line, match)
            return (index, found[0]) if found else None
    return None


def definition_here(line: str, start: int) -> list[Site] | None:
    """The destination path of the definition ``[label]: dest`` whose ``[`` is at ``start``
    of ``line`` (the link a definition makes, ``inline.definition_link``): [] when it names
    no path (a URL); None when no definition opens there."""
    match = _DEFINITION.match(line)
    if match is None or match.end(1) - 1 != start:
        return None
    return _definition_dest(line, match)


def _definition_dest(line: str, match: re.Match[str]) -> list[Site]:
    dest = match.group(4)
    angle = dest.startswith("<")
    begin = match.start(4) + (1 if angle else 0)
    return _path_site(line, begin, match.end(4) - (1 if angle else 0), angle)


def _path_site(line: str, begin: int, finish: int, angle: bool) -> list[Site]:
    dest = line[begin:finish]
    cut = min((i for i in (dest.find("#"), dest.find("?")) if i >= 0), default=len(dest))
    path = dest[:cut]
    if not path or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", path) or path.startswith("//"):
        return []
    return [Site(begin, begin + cut, path, encoded="%" in path, angle=angle)]


def _same(a: str, b: str) -> bool:
    return fold(strip_markdown_extension(a)) == fold(strip_markdown_extension(b))


def _with_ext(bare: str, ext: str, keep: bool) -> str:
    return bare + ext if keep else bare


def _cased(written: str, actual: str, new: str) -> str:
    """``new`` in the letter case ``written`` gave ``actual`` (``[[Changelog]]`` for
    ``changelog.md`` stays capitalised), so a link keeps its resolution rule."""
    if written == actual:
        return new
    for style in (str.upper, str.lower, str.capitalize, str.title):
        if written == style(actual):
            return style(new)
    return new


def rename_wiki(written: str, old: str, new: str) -> str | None:
    """``written`` (a wiki target naming ``old`` by path, file name or Dendron hierarchy) with
    ``new`` spelled the same way; None when it does not name ``old`` so (a title or alias)."""
    rooted = written.startswith("/")
    path = posixpath.normpath(written.lstrip("/")) if written.strip("/") else ""
    if not path or path.startswith(".."):
        return None
    has_ext = strip_markdown_extension(path) != path
    old_bare, new_bare = strip_markdown_extension(old), strip_markdown_extension(new)
    ext = new[len(new_bare) :]
    if "/" in path or rooted:
        if not _same(path, old):
            return None
        bare = strip_markdown_extension(path)
        return ("/" if rooted else "") + _with_ext(_cased(bare, old_bare, new_bare), ext, has_ext)
    bare = strip_markdown_extension(path)
    old_stem, new_stem = posixpath.basename(old_bare), posixpath.basename(new_bare)
    if fold(bare) == fold(old_stem):
        return _with_ext(_cased(bare, old_stem, new_stem), ext, has_ext)
    if "/" in old_bare and fold(path) == fold(old_bare.replace("/", ".")):
        return _cased(path, old_bare.replace("/", "."), new_bare.replace("/", "."))
    return None


def relocate_markdown(
    site: Site, linking_before: str, linking_after: str, old: str, new: str
) -> str | None:
    """The path to write at ``site`` of a Markdown link in the note that was at
    ``linking_before`` and will be at ``linking_after``, once ``old`` is at ``new``: a target
    that was ``old`` becomes ``new``, any other target stays the same file, seen from the new
    folder. None when the written path leaves the collection."""
    from urllib.parse import unquote

    written = unquote(site.text) if site.encoded else site.text
    rooted = written.startswith("/")
    base = "" if rooted else posixpath.dirname(linking_before)
    target = posixpath.normpath(posixpath.join(base, written.lstrip("/")))
    if target in (".", "") or target == ".." or target.startswith("../"):
        return None
    has_ext = strip_markdown_extension(target) != target
    if _same(target, old) and (has_ext or strip_markdown_extension(old) != old):
        new_bare = strip_markdown_extension(new)
        target = _with_ext(new_bare, new[len(new_bare) :], has_ext)
    if rooted:
        result = "/" + target
    else:
        result = posixpath.relpath(target, posixpath.dirname(linking_after) or ".")
        if written.startswith("./") and not result.startswith("../"):
            result = "./" + result
    if result == written:
        return site.text
    if site.encoded or (not site.angle and re.search(r"[\s()<>%]", result)):
        return quote(result, safe=_SAFE)
    return result
