"""Link resolution: which documents a link points at, and how sure that is.

Rules, tried in order; the first that finds a document decides (a link never resolves outside
its collection, or the collection it names with ``[[collection:target]]`` / ``gno://``):

1. ``path`` - the target is a document's relative path, exactly, as written or with a Markdown
   extension added (wiki links from the collection root, Markdown links from the source's
   folder or, with a leading ``/``, from the root): **explicit**.
2. ``name`` - a bare name (no ``/``) equal to a document's file name without extension, with
   the same case, as Obsidian, Foam and Dendron mean ``[[note]]``: **explicit**.
3. ``name`` again, case-insensitively (NFC), then ``path-nocase`` (the path,
   case-insensitively) and ``dendron`` (``[[a.b]]`` names ``a/b.md``, Dendron's dotted
   hierarchy): **inferred**.
4. ``title`` and ``alias`` - a document's title or one of its frontmatter ``aliases``,
   case-insensitively: **inferred**. Titles only for a link without ``|``.

Several documents under the deciding rule: **ambiguous**, all of them kept. In a wiki link
``[[a|b]]`` either half can be the target (Obsidian writes the target first, Dendron second):
rules 1-2 are tried on ``a`` then ``b``, then rule 3 on ``a`` then ``b`` (``b`` first when it
can only be a target: a ``dendron://`` reference, one with an ``#anchor`` or a dotted
hierarchy name); what ``b`` finds
is **inferred** at best, its method suffixed ``+label-first``. Nothing found: **unresolved**
(kept, listed).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from gno_core.domain import (
    AMBIGUOUS,
    EXPLICIT,
    INFERRED,
    MARKDOWN,
    DocRef,
    ExtractedLink,
    LinkTarget,
    NameHit,
)
from gno_core.links.names import (
    MARKDOWN_EXTENSIONS,
    fold,
    label_first_target,
    strip_markdown_extension,
    target_path,
)
from gno_core.ports.links import LinkStore

__all__ = ["RESOLVE_BATCH", "resolve_link", "resolve_pending"]

_HIERARCHY = re.compile(r"[\w-]+(?:\.[\w-]+)+")
#: Pending links resolved per store round trip.
RESOLVE_BATCH = 5000


def resolve_link(
    link: ExtractedLink, source: DocRef, hits: Iterable[NameHit]
) -> tuple[LinkTarget, ...]:
    """The targets of ``link`` written in ``source``, among ``hits``: the documents of the
    link's collection carrying one of its keys (``ExtractedLink.keys``)."""
    if link.external:
        return ()
    by_name: dict[tuple[str, str], list[DocRef]] = defaultdict(list)
    for hit in hits:
        by_name[(hit.kind, hit.key)].append(hit.document)
    halves = [(link.target_ref, False)]
    if link.link_type != MARKDOWN and link.alias:
        halves.append((label_first_target(link.alias), True))
        if _names_a_target(link.alias):
            halves.reverse()
    paths = [
        (path, label_first)
        for written, label_first in halves
        if (path := target_path(link, source.rel_path, written)) is not None
    ]
    for strict in (True, False):
        for path, label_first in paths:
            found = _structural(path, by_name, strict=strict, label_first=label_first)
            if found:
                return found
    # Titles only for a bare ``[[Title]]``: in ``[[a|b]]`` one half is a label, and labels are
    # often some other note's title.
    kinds = ("alias",) if link.alias else ("title", "alias")
    if link.link_type != MARKDOWN:
        for kind in kinds:
            docs = by_name.get((kind, fold(link.target_ref)), [])
            if docs:
                return _decide(docs, kind, sure=False, label_first=False)
    return ()


def _names_a_target(half: str) -> bool:
    """A second half that can only be a target: a ``dendron://`` reference, one carrying an
    ``#anchor`` (labels do not) or a dotted hierarchy name (``dendron.topic.tags``)."""
    return (
        half.startswith("dendron://")
        or ("#" in half and not half.startswith("#"))
        or _HIERARCHY.fullmatch(half) is not None
    )


def _decide(
    docs: Sequence[DocRef], method: str, *, sure: bool, label_first: bool
) -> tuple[LinkTarget, ...]:
    if len(docs) == 1:  # most links: no duplicates to drop, nothing to sort
        method = method + "+label-first" if label_first else method
        return (LinkTarget(docs[0], EXPLICIT if sure and not label_first else INFERRED, method),)
    unique = list({(d.collection, d.rel_path): d for d in docs}.values())
    if len(unique) > 1:
        confidence = AMBIGUOUS
    else:
        confidence = EXPLICIT if sure and not label_first else INFERRED
    ordered = sorted(unique, key=lambda d: (d.collection, d.rel_path))
    suffix = "+label-first" if label_first else ""
    return tuple(LinkTarget(d, confidence, method + suffix) for d in ordered)


def _structural(
    path: str,
    by_name: dict[tuple[str, str], list[DocRef]],
    *,
    strict: bool,
    label_first: bool,
) -> tuple[LinkTarget, ...]:
    """Rules 1-2 (``strict``: exact path, same-case name) or 3-4 (case-insensitive name and
    path, Dendron hierarchy) for the collection path ``path``. The path as written is tried
    before the path without its Markdown extension (``[[a.markdown]]`` is a note called
    ``a.markdown`` before it is ``a``)."""
    bare = strip_markdown_extension(path)
    variants = [path] if bare == path else [path, bare]
    if strict:
        exact = {path, *(path + ext for ext in MARKDOWN_EXTENSIONS)}
        on_path = [
            d
            for key in {fold(path), fold(bare)}
            for d in by_name.get(("path", key), ())
            if d.rel_path in exact
        ]
        if on_path:
            return _decide(on_path, "path", sure=True, label_first=label_first)
    for variant in variants:
        if "/" in variant:
            continue
        named = by_name.get(("stem", fold(variant)), [])
        same_case = [d for d in named if _stem(d.rel_path) == variant]
        if strict and same_case:
            return _decide(same_case, "name", sure=True, label_first=label_first)
        if not strict and named:
            return _decide(named, "name", sure=False, label_first=label_first)
    if strict:
        return ()
    for variant in variants:
        for kind, method in (("path", "path-nocase"), ("dendron", "dendron")):
            docs = by_name.get((kind, fold(variant)), [])
            if docs:
                return _decide(docs, method, sure=False, label_first=label_first)
    return ()


def _stem(rel_path: str) -> str:
    return posixpath.basename(strip_markdown_extension(rel_path))


def resolve_pending(store: LinkStore) -> int:
    """Resolve every pending link of the store (new links, and links whose candidate targets
    appeared, changed or went since); returns how many were resolved. Reads no document text:
    only the links' own fields and the names of candidate documents."""
    done = 0
    while True:
        pending = store.pending(RESOLVE_BATCH)
        if not pending:
            return done
        by_collection: dict[str, set[str]] = defaultdict(set)
        for item in pending:
            scope = item.link.target_collection or item.source.collection
            by_collection[scope].update(item.link.keys)
        hits: dict[str, dict[str, list[NameHit]]] = {}
        for collection, keys in by_collection.items():
            per_key: dict[str, list[NameHit]] = defaultdict(list)
            for hit in store.candidates(collection, sorted(keys)):
                per_key[hit.key].append(hit)
            hits[collection] = per_key
        results: list[tuple[int, tuple[LinkTarget, ...]]] = []
        for item in pending:
            scope = item.link.target_collection or item.source.collection
            per_key = hits.get(scope, {})
            candidates = [h for key in item.link.keys for h in per_key.get(key, ())]
            results.append((item.link_id, resolve_link(item.link, item.source, candidates)))
        store.record_resolutions(results)
        done += len(results)
