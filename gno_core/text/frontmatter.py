"""Frontmatter: split a leading ``---`` YAML block off a mirror, and read ``DocumentMeta`` from it.

Parsing the YAML itself is the ``FrontmatterParser`` port's job; this module only sees the
resulting mapping of plain values and normalizes what gno understands: title, tags, content
type, categories, author, date and language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any

from gno_core.domain import DocumentMeta

__all__ = [
    "aliases",
    "document_meta",
    "first_heading",
    "normalize_date",
    "normalize_tag",
    "split_frontmatter",
]

TAG_KEYS = ("tags", "tag", "keywords")
CATEGORY_KEYS = ("categories", "category")
AUTHOR_KEYS = ("author", "authors", "by", "owner", "creator")
DATE_KEYS = (
    "date",
    "published",
    "publishDate",
    "publish_date",
    "published_at",
    "publishedAt",
    "pubDate",
    "created",
    "created_at",
    "createdAt",
    "updated",
    "updated_at",
    "updatedAt",
    "lastmod",
    "lastModified",
    "modified",
)
LANGUAGE_KEYS = ("lang", "language")
ALIAS_KEYS = ("aliases", "alias")

_BLOCK = re.compile(r"\A---\n(.*?)^(?:---|\.\.\.)$\n?", re.MULTILINE | re.DOTALL)
# A block counts as frontmatter only if it is empty or has a ``key:`` line; otherwise the leading
# ``---`` is a thematic break and the document has no frontmatter.
_KEY_LINE = re.compile(r"^[^\s#\-][^\n]*?:(?:[ \t]|$)", re.MULTILINE)
_HEADING = re.compile(r"^#{1,2}[ \t]+(.+?)(?:[ \t]+#+)?$", re.MULTILINE)
_FENCE = re.compile(r"^ {0,3}(?:```|~~~)", re.MULTILINE)
_TAG_SPACES = re.compile(r"[\s_]+")
_TAG_ASCII_DROP = re.compile(r"[^a-z0-9\-./]")
_TAG_SLASHES = re.compile(r"/{2,}")
_LANG_CODE = re.compile(r"^([a-z]{2,3})(?:[-_][a-z0-9]+)*$")
_SKIPPED_HEADINGS = frozenset({"notes"})
_DATE_FORMATS = (
    "%Y-%m-%d %H:%M",
    "%Y/%m/%d",
    "%Y/%m/%d %H:%M",
    "%Y/%m/%d %H:%M:%S",
    "%d %B %Y",
    "%d %b %Y",
    "%B %d, %Y",
    "%b %d, %Y",
    "%a, %d %b %Y %H:%M:%S %z",
)


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """``(yaml, body)`` for a canonical mirror: ``yaml`` is the text between the opening ``---``
    line and the closing ``---`` (or ``...``) line, None when the document has no frontmatter."""
    if not text.startswith("---\n"):
        return None, text
    match = _BLOCK.match(text)
    if match is None:
        return None, text
    block = match.group(1)
    if block.strip() and _KEY_LINE.search(block) is None:
        return None, text
    return block, text[match.end() :]


def document_meta(
    front: Mapping[str, Any], body: str, fallback_title: str, language: str | None = None
) -> DocumentMeta:
    """The metadata of a Markdown document from its parsed frontmatter and body.

    Title: frontmatter ``title``, else the first ``#``/``##`` heading outside code fences, else
    ``fallback_title``. Language: frontmatter ``lang``/``language`` (primary subtag), else
    ``language``.
    """
    if not front:
        return DocumentMeta(title=first_heading(body) or fallback_title, language=language)
    title = _text(front.get("title")) or first_heading(body) or fallback_title
    return DocumentMeta(
        title=title,
        tags=_unique(t for t in map(normalize_tag, _items(front, TAG_KEYS)) if t),
        content_type=_text(front.get("type")),
        categories=_unique(_items(front, CATEGORY_KEYS), casefold=True),
        author=_author(front),
        date=next(
            (d for k in DATE_KEYS if k in front for d in [normalize_date(front[k])] if d), None
        ),
        language=_language(front) or language,
    )


def aliases(front: Mapping[str, Any]) -> tuple[str, ...]:
    """The other names a note gives itself (``aliases``/``alias``, list or comma-separated)."""
    return _unique(_items(front, ALIAS_KEYS)) if front else ()


def first_heading(body: str) -> str | None:
    """Text of the first ATX ``#`` or ``##`` heading that is not inside a fenced code block."""
    for match in _HEADING.finditer(body):
        title = match.group(1).strip()
        if not title or title.lower() in _SKIPPED_HEADINGS:
            continue
        before = body[: match.start()]
        if ("```" in before or "~~~" in before) and len(_FENCE.findall(before)) % 2:
            continue
        return title
    return None


def normalize_tag(raw: object) -> str | None:
    """Lowercase tag of letters, digits and ``- . /`` (``/`` separating hierarchy levels), a
    leading ``#`` dropped and inner whitespace or ``_`` turned into ``-``; None when empty."""
    if raw is None or isinstance(raw, bool | dict | list):
        return None
    tag = str(raw).strip().lstrip("#").strip().lower()
    tag = _TAG_SPACES.sub("-", tag)
    if tag.isascii():
        tag = _TAG_ASCII_DROP.sub("", tag)
    else:
        tag = "".join(
            ch
            for ch in unicodedata.normalize("NFC", tag)
            if ch in "-./"
            or (ch.isalnum() if not ch.isascii() else ch.isdigit() or "a" <= ch <= "z")
            or unicodedata.category(ch).startswith("M")
        )
    tag = _TAG_SLASHES.sub("/", tag).strip("/")
    return tag or None


def normalize_date(value: object) -> str | None:
    """ISO 8601 for a date-like value: ``YYYY-MM-DD`` for dates, ``datetime.isoformat()`` for
    times (offset kept when given), epoch seconds or milliseconds as UTC; None when not a date."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int | float):
        return _from_number(float(value))
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text:
        return None
    if text.isdigit():
        return _from_number(float(text))
    if len(text) == 10 and text[4] == "-":
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            return None
    try:
        return datetime.fromisoformat(text).isoformat()
    except ValueError:
        pass
    for fmt in _DATE_FORMATS:
        try:
            parsed = datetime.strptime(text, fmt)
        except ValueError:
            continue
        if "%H" in fmt or parsed.tzinfo is not None:
            return parsed.isoformat()
        return parsed.date().isoformat()
    return None


def _from_number(number: float) -> str | None:
    if 1000 <= number <= 9999 and number.is_integer():
        return f"{int(number):04d}-01-01"
    if 1e11 <= abs(number) < 1e14:
        number /= 1000  # epoch milliseconds (JavaScript, Dendron)
    elif not 1e8 <= abs(number) < 1e11:
        return None
    try:
        return datetime.fromtimestamp(number, tz=UTC).isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return value.strip() or None
    if value is None or isinstance(value, bool | dict | list):
        return None
    text = str(value).strip()
    return text or None


def _items(front: Mapping[str, Any], keys: Iterable[str]) -> list[str]:
    """Every string item under ``keys``: lists flattened one level, strings split at commas."""
    out: list[str] = []
    for key in keys:
        value = front.get(key)
        if value is None:
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, list):
                out.extend(s for s in map(_text, item) if s)
                continue
            text = _text(item)
            if text:
                out.extend(part.strip() for part in text.split(",") if part.strip())
    return out


def _unique(values: Iterable[str], *, casefold: bool = False) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in values:
        seen.setdefault(value.casefold() if casefold else value, value)
    return tuple(seen.values())


def _author(front: Mapping[str, Any]) -> str | None:
    for key in AUTHOR_KEYS:
        value = front.get(key)
        if value is None:
            continue
        names = [_name(v) for v in value] if isinstance(value, list) else [_name(value)]
        joined = ", ".join(n for n in names if n)
        if joined:
            return joined
    return None


def _name(value: object) -> str | None:
    if isinstance(value, dict):
        return _text(value.get("name")) or _text(value.get("title"))
    return _text(value)


def _language(front: Mapping[str, Any]) -> str | None:
    for key in LANGUAGE_KEYS:
        text = _text(front.get(key))
        if text:
            match = _LANG_CODE.match(text.lower())
            if match:
                return match.group(1)
    return None
