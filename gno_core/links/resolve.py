"""Link resolution: which documents a link points at, and how sure that is.

Rules, tried in order; the first that finds a document decides (a link never resolves outside
its collection, or the collection it names with ``[[collection:target]]`` / ``gno://``):

1. ``path`` - the target is a document's relative path, exactly, with or without its Markdown
   extension (wiki links from the collection root, Markdown links from the source's folder or,
   with a leading ``/``, from the root): **explicit**.
2. ``name`` - a bare name (no ``/``) equal to a document's file name without extension, as
   Obsidian, Foam and Dendron mean ``[[note]]``: **explicit** when exactly one document has
   that name with the same case, **inferred** when it matches only case-insensitively (NFC).
3. ``path-nocase`` - the path matches case-insensitively: **inferred**.
4. ``dendron`` - ``[[a.b]]`` names ``a/b.md`` (Dendron's dotted hierarchy): **inferred**.
5. ``title`` and 6. ``alias`` - a document's frontmatter/heading title or one of its
   ``aliases``, case-insensitively: **inferred**.

Several documents under the deciding rule: **ambiguous**, all of them kept. A wiki link
``[[a|b]]`` whose ``a`` matches no path or name (rules 1-4) is tried with ``b`` under rules 1-4
before titles and aliases are looked at (Dendron writes the label first, and its labels are
often some other note's title): what that finds is **inferred** at best, its method suffixed
``+label-first``. Nothing found: **unresolved** (kept, listed).
"""

from __future__ import annotations

import posixpath
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
    found = _resolve_text(link, source, link.target_ref, by_name, label_first=False, titles=False)
    if not found and link.link_type != MARKDOWN and link.alias:
        written = label_first_target(link.alias)
        found = _resolve_text(link, source, written, by_name, label_first=True, titles=False)
    if not found:
        found = _resolve_text(
            link, source, link.target_ref, by_name, label_first=False, titles=True
        )
    return found


def _resolve_text(
    link: ExtractedLink,
    source: DocRef,
    written: str,
    by_name: dict[tuple[str, str], list[DocRef]],
    *,
    label_first: bool,
    titles: bool,
) -> tuple[LinkTarget, ...]:
    """Rules 1-4 (``titles`` False) or 5-6 (``titles`` True) for the target ``written``."""
    path = target_path(link, source.rel_path, written)
    if path is None:
        return ()
    bare = strip_markdown_extension(path)
    folded = fold(bare)
    exact = {path, bare, *(bare + ext for ext in MARKDOWN_EXTENSIONS)}
    suffix = "+label-first" if label_first else ""

    def decide(docs: Sequence[DocRef], method: str, sure: bool) -> tuple[LinkTarget, ...]:
        unique = list({(d.collection, d.rel_path): d for d in docs}.values())
        if len(unique) > 1:
            confidence = AMBIGUOUS
        else:
            confidence = EXPLICIT if sure and not label_first else INFERRED
        ordered = sorted(unique, key=lambda d: (d.collection, d.rel_path))
        return tuple(LinkTarget(d, confidence, method + suffix) for d in ordered)

    if titles:
        for kind in ("title", "alias"):
            docs = by_name.get((kind, fold(written)), [])
            if docs:
                return decide(docs, kind, False)
        return ()
    on_path = [d for d in by_name.get(("path", folded), ()) if d.rel_path in exact]
    if on_path:
        return decide(on_path, "path", True)
    if "/" not in bare:
        named = by_name.get(("stem", folded), [])
        if named:
            same_case = [d for d in named if _stem(d.rel_path) == bare]
            if len(same_case) == 1 and len(named) == 1:
                return decide(same_case, "name", True)
            return decide(named, "name", False)
    for kind, method in (("path", "path-nocase"), ("dendron", "dendron")):
        docs = by_name.get((kind, folded), [])
        if docs:
            return decide(docs, method, False)
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
