"""A note's Markdown as safe HTML for the document page, with the file's line numbers.

Safe by construction, not by filtering: raw HTML in a note is never parsed as HTML (markdown-it's
``html`` option is off, so ``<script>`` or ``<svg onload=...>`` come out as escaped text); every
attribute value is escaped by the renderer; a link's ``href`` is only ever one this module wrote:
``http``/``https``/``mailto`` as they are (marked external), a target the index resolved as a
``/doc?ref=`` link, anything else (``javascript:``, ``data:``, an unresolved path) as plain
text marked broken; an image is never loaded (no ``<img>``: the page requests nothing the note
names), only named. Each block carries ``data-line``: its first line in the document's own
numbering (the file's for Markdown and text; frontmatter lines keep their numbers), and the block
holding the cited line (``?line=``) gets the id ``cited``. Headings sit one level down (the page's
``h1`` is the note's title).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import escape

#: Frontmatter: a first line ``---`` up to the next ``---`` or ``...`` line.
FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
EXTERNAL_SCHEMES = frozenset({"http", "https", "mailto"})
WIKI = re.compile(r"\[\[([^\[\]\n]{1,300})\]\]")


@dataclass(frozen=True, slots=True)
class Rendered:
    """The page's body: the frontmatter as text (lines 1..n), then the Markdown as HTML."""

    frontmatter: str | None
    frontmatter_lines: int
    html: str


@dataclass(frozen=True, slots=True)
class LinkTarget:
    """What the index says a link in this note points at: the URI of the note it resolves to,
    or ``None`` when it resolves to nothing (a broken link)."""

    uri: str | None


def doc_href(uri: str, line: int | None = None) -> str:
    """The document page of ``uri`` (at ``line``)."""
    href = "/doc?ref=" + quote(uri, safe="/:")
    return href + (f"&line={line}" if line else "")


def render(
    content: str, targets: Mapping[str, LinkTarget], cited_line: int | None = None
) -> Rendered:
    """``content`` (a document's Markdown) as HTML; ``targets`` maps a link's target as written
    (a path, or a wikilink's inner text) to what it resolves to. The last few renderings are
    kept (a long note costs about half a second to parse): a cited line only marks its block."""
    key = tuple(sorted((text, target.uri) for text, target in targets.items()))
    made = _rendered(content, key)
    html = made.html
    serial = _cited_block(made.blocks, cited_line)
    if serial is not None:
        # Each block's ``data-b`` is unique, quotes included: the one replacement is that block.
        html = html.replace(f' data-b="{serial}"', f' data-b="{serial}" id="cited"', 1)
    return Rendered(made.frontmatter, made.frontmatter_lines, html)


@dataclass(frozen=True, slots=True)
class _Made:
    frontmatter: str | None
    frontmatter_lines: int
    html: str
    #: Every numbered block in document order: (first line index, end line index, serial).
    blocks: tuple[tuple[int, int, int], ...]


@lru_cache(maxsize=16)
def _rendered(content: str, targets: tuple[tuple[str, str | None], ...]) -> _Made:
    frontmatter: str | None = None
    body = content
    skipped = 0
    match = FRONTMATTER.match(content)
    if match:
        frontmatter = match.group(0).rstrip("\r\n")
        skipped = frontmatter.count("\n") + 1
        # Blank lines in place of the frontmatter keep every later block on its file line.
        body = "\n" * skipped + content[match.end() :]
    md = _parser()
    env: dict[str, Any] = {"targets": {text: LinkTarget(uri) for text, uri in targets}}
    tokens = md.parse(body, env)
    blocks = _number_blocks(tokens)
    html = md.renderer.render(tokens, md.options, env)
    return _Made(frontmatter, skipped, html, blocks)


def _cited_block(blocks: Sequence[tuple[int, int, int]], line: int | None) -> int | None:
    """The serial of the innermost block holding ``line`` (the last in document order); for a
    line no block holds (a blank line between two), the last block that starts before it."""
    if line is None:
        return None
    found = before = None
    for start, end, serial in blocks:
        if start < line:
            before = serial
            if line <= max(end, start + 1):
                found = serial
    return found if found is not None else before


@cache
def _parser() -> MarkdownIt:
    """One parser for every page: its rules are fixed, and each parse keeps its state (and the
    link targets, in ``env``) to itself."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.inline.ruler.before("link", "wikilink", _wikilink)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    md.add_render_rule("wikilink", _wikilink_html)
    return md


def _number_blocks(tokens: Sequence[Token]) -> tuple[tuple[int, int, int], ...]:
    blocks: list[tuple[int, int, int]] = []
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            # The page's one h1 is the note's title: the note's own headings sit one below it.
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
        if token.map is None or token.nesting == -1 or token.type == "inline" or token.hidden:
            continue  # (a tight list's paragraphs are hidden: not rendered, so not numbered)
        start, end = token.map
        token.attrSet("data-line", str(start + 1))
        token.attrSet("data-b", str(len(blocks)))
        blocks.append((start, end, len(blocks)))
    return tuple(blocks)


def _classify(href: str, targets: Mapping[str, LinkTarget]) -> tuple[str, str | None]:
    """``("external", href)``, ``("doc", /doc href)`` or ``("broken", None)``."""
    parts = urlsplit(href)
    scheme = parts.scheme.lower()
    if scheme:
        return ("external", href) if scheme in EXTERNAL_SCHEMES else ("broken", None)
    if href.startswith("#"):
        return "anchor", href
    raw = unquote(href)
    for key in (raw, raw.split("#", 1)[0]):
        target = targets.get(key)
        if target is not None:
            return ("doc", doc_href(target.uri)) if target.uri else ("broken", None)
    return "broken", None


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    kind, href = _classify(str(token.attrGet("href") or ""), env["targets"])
    token.meta["kind"] = kind
    if href is None:
        return '<span class="link broken" title="broken link">'
    attrs = f' class="link {kind}"'
    if kind == "external":
        attrs += ' rel="noopener noreferrer nofollow"'
    title = token.attrGet("title")
    if title:
        attrs += f' title="{escape(str(title))}"'
    return f'<a href="{escape(href)}"{attrs}>'


def _link_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # The matching opener is the nearest unclosed link_open before this token.
    depth = 0
    for token in reversed(tokens[:idx]):
        if token.type == "link_close":
            depth += 1
        elif token.type == "link_open":
            if depth == 0:
                return "</span>" if token.meta.get("kind") == "broken" else "</a>"
            depth -= 1
    return "</a>"


def _image(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env) or "image"
    return f'<span class="image-ref" title="images are not loaded">[{escape(alt)}]</span>'


def _wikilink(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[[", state.pos):
        return False
    match = WIKI.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        token = state.push("wikilink", "", 0)
        token.content = match.group(1)
    state.pos = match.end()
    return True


def _wikilink_html(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    inner = tokens[idx].content
    targets: Mapping[str, LinkTarget] = env["targets"]
    label = inner
    found: LinkTarget | None = targets.get(inner.strip())
    if "|" in inner:
        left, right = (part.strip() for part in inner.split("|", 1))
        # Both conventions exist: [[target|label]] (Obsidian, Foam) and [[label|target]] (Dendron).
        for target_text, text in ((left, right), (right, left)):
            if targets.get(target_text) is not None:
                found, label = targets[target_text], text
                break
        else:
            label = right
    label = label.split("#", 1)[0] if "#" in label and "|" not in inner else label
    if found is None or found.uri is None:
        return f'<span class="link broken wiki" title="broken link">{escape(label)}</span>'
    return f'<a href="{escape(doc_href(found.uri))}" class="link doc wiki">{escape(label)}</a>'
