"""Names on both ends of a link: the names a document can be linked by (``document_names``),
the collection path a link points at (``target_path``) and the lookup keys of a link
(``link_keys``). Keys are NFC and casefolded, so ``[[Café]]`` finds ``café.md`` whichever way
either was typed or composed."""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from gno_core.domain import MARKDOWN, ExtractedLink, NameKey
from gno_core.text.names import strip_markdown_extension

__all__ = [
    "collection_path",
    "document_names",
    "fold",
    "label_first_target",
    "link_keys",
    "target_path",
]

#: Link keys remembered by what they depend on (a few MB at most).
KEYS_CACHED = 1 << 15


def fold(text: str) -> str:
    if text.isascii():
        return text.lower().strip()  # same result, a fraction of the cost (once per link key)
    return unicodedata.normalize("NFC", text).casefold().strip()


def document_names(rel_path: str, title: str | None, aliases: Iterable[str]) -> tuple[NameKey, ...]:
    """Every name of the document at ``rel_path``: its path and file name without the Markdown
    extension, the Dendron form of its path (``a/b.md`` is ``a.b``), its title and aliases."""
    bare = strip_markdown_extension(rel_path)
    names = [NameKey("path", fold(bare)), NameKey("stem", fold(posixpath.basename(bare)))]
    if "/" in bare:
        names.append(NameKey("dendron", fold(bare.replace("/", "."))))
    if title and title.strip():
        names.append(NameKey("title", fold(title)))
    names.extend(NameKey("alias", fold(a)) for a in aliases if a and a.strip())
    return tuple(dict.fromkeys(n for n in names if n.key))


def target_path(
    link: ExtractedLink, source_rel_path: str, written: str | None = None
) -> str | None:
    """The collection-relative path ``written`` (default: the link's target) points at, or None
    when it is empty or leaves the collection (``../../etc/passwd``). Markdown links are
    relative to the source's folder unless they start with ``/``; wiki links are relative to
    the collection root."""
    raw = link.target_ref if written is None else written
    relative = link.link_type == MARKDOWN and link.target_collection is None
    return collection_path(raw, posixpath.dirname(source_rel_path) if relative else None)


@lru_cache(maxsize=KEYS_CACHED)
def collection_path(written: str, folder: str | None) -> str | None:
    """``target_path`` of ``written``, relative to ``folder`` (None: the collection root);
    remembered, as the same target is written in many notes of a folder."""
    raw = written.strip()
    if not raw or "\x00" in raw:
        return None
    if folder is not None and not raw.startswith("/"):
        raw = posixpath.join(folder, raw)
    path = posixpath.normpath(raw.lstrip("/"))
    if path in {".", ""} or path == ".." or path.startswith("../"):
        return None
    return path


def label_first_target(alias: str) -> str:
    """The target in the second half of ``[[label|target#anchor]]`` (Dendron's order), without
    its anchor or ``dendron://vault/`` prefix."""
    target = alias.partition("#")[0].strip()
    if target.startswith("dendron://"):
        target = target[len("dendron://") :].partition("/")[2]
    return target


def link_keys(link: ExtractedLink, source_rel_path: str) -> tuple[str, ...]:
    """The names of the documents ``link`` could resolve to (see ``resolve``): the target's
    path and file name without extension and, for a wiki link, its text as written and the
    same for the other half of ``[[a|b]]`` (Dendron writes the target second)."""
    if link.external:
        return ()
    markdown = link.link_type == MARKDOWN
    target = link.target_ref
    if (
        not markdown
        and not link.alias
        and target.isascii()
        and "/" not in target
        and "." not in target
        and "\x00" not in target
        and target
        and target == target.strip()
    ):
        # ``[[Some Note]]``, most wiki links: its path, name and text are all the target, and
        # folding ASCII is lowercasing (what ``_keys`` gives, without its cache at stake).
        return (target.lower(),)
    relative = markdown and link.target_collection is None
    folder = posixpath.dirname(source_rel_path) if relative else None
    alias = None if markdown else link.alias
    return _keys(markdown, target, alias or None, folder)


@lru_cache(maxsize=KEYS_CACHED)
def _keys(markdown: bool, target: str, alias: str | None, folder: str | None) -> tuple[str, ...]:
    """``link_keys`` of a link by what they depend on (the same target is linked from many
    notes, and the same note is read again by a refactor and the sync after it)."""
    keys: list[str] = []
    written = [target] if alias is None else [target, label_first_target(alias)]
    for text in written:
        path = collection_path(text, folder)
        if path is None:
            continue
        bare = strip_markdown_extension(path)
        keys.extend((fold(path), fold(posixpath.basename(path))))
        keys.extend((fold(bare), fold(posixpath.basename(bare))))
        if not markdown:
            keys.append(fold(text))
    return tuple(dict.fromkeys(k for k in keys if k))
