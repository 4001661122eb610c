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
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

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
from gno_core.links.names import collection_path, fold, label_first_target
from gno_core.ports.links import LinkStore, NamedDoc, NameRow, PendingRow, Resolution
from gno_core.text.names import MARKDOWN_EXTENSIONS, strip_markdown_extension

__all__ = ["RESOLVE_BATCH", "resolve_batch", "resolve_link", "resolve_pending"]

_HIERARCHY = re.compile(r"[\w-]+(?:\.[\w-]+)+")
#: Pending links resolved per store round trip.
RESOLVE_BATCH = 5000


class _Named(Protocol):
    """A candidate document, as the rules see it (``DocRef``, ``NamedDoc``)."""

    @property
    def collection(self) -> str: ...

    @property
    def rel_path(self) -> str: ...


D = TypeVar("D", bound=_Named)
#: ``(document, confidence, method)`` of one target.
Found = tuple[D, str, str]


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
    found = _resolve(
        link.link_type,
        link.target_ref,
        link.alias,
        link.target_collection,
        source.rel_path,
        by_name,
    )
    return tuple(LinkTarget(doc, confidence, method) for doc, confidence, method in found)


def _resolve(
    link_type: str,
    target_ref: str,
    alias: str | None,
    target_collection: str | None,
    source_rel_path: str,
    by_name: Mapping[tuple[str, str], Sequence[D]],
) -> tuple[Found[D], ...]:
    """The rules for a link of these fields written at ``source_rel_path``, over ``by_name``:
    the documents carrying each ``(kind, key)`` name, for the keys of the link only."""
    halves = [(target_ref, False)]
    if link_type != MARKDOWN and alias:
        halves.append((label_first_target(alias), True))
        if _names_a_target(alias):
            halves.reverse()
    # Markdown links are relative to the source's folder; wiki links to the collection root.
    relative = link_type == MARKDOWN and target_collection is None
    folder = posixpath.dirname(source_rel_path) if relative else None
    paths = [
        (path, label_first)
        for written, label_first in halves
        if (path := collection_path(written, folder)) is not None
    ]
    for strict in (True, False):
        for path, label_first in paths:
            found = _structural(path, by_name, strict=strict, label_first=label_first)
            if found:
                return found
    # Titles only for a bare ``[[Title]]``: in ``[[a|b]]`` one half is a label, and labels are
    # often some other note's title.
    kinds = ("alias",) if alias else ("title", "alias")
    if link_type != MARKDOWN:
        for kind in kinds:
            docs = by_name.get((kind, fold(target_ref)), [])
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
    docs: Sequence[D], method: str, *, sure: bool, label_first: bool
) -> tuple[Found[D], ...]:
    if len(docs) == 1:  # most links: no duplicates to drop, nothing to sort
        method = method + "+label-first" if label_first else method
        return ((docs[0], EXPLICIT if sure and not label_first else INFERRED, method),)
    unique = list({(d.collection, d.rel_path): d for d in docs}.values())
    if len(unique) > 1:
        confidence = AMBIGUOUS
    else:
        confidence = EXPLICIT if sure and not label_first else INFERRED
    ordered = sorted(unique, key=lambda d: (d.collection, d.rel_path))
    suffix = "+label-first" if label_first else ""
    return tuple((d, confidence, method + suffix) for d in ordered)


def _structural(
    path: str,
    by_name: Mapping[tuple[str, str], Sequence[D]],
    *,
    strict: bool,
    label_first: bool,
) -> tuple[Found[D], ...]:
    """Rules 1-2 (``strict``: exact path, same-case name) or 3-4 (case-insensitive name and
    path, Dendron hierarchy) for the collection path ``path``. The path as written is tried
    before the path without its Markdown extension (``[[a.markdown]]`` is a note called
    ``a.markdown`` before it is ``a``)."""
    bare = strip_markdown_extension(path)
    # (variant, its key): the path as written, then without its extension.
    variants = [(path, fold(path))]
    if bare != path:
        variants.append((bare, fold(bare)))
    if strict:
        on_path: list[D] = []
        for key in {key for _, key in variants}:
            on_path.extend(by_name.get(("path", key), ()))
        if on_path:
            exact = {path, *(path + ext for ext in MARKDOWN_EXTENSIONS)}
            on_path = [d for d in on_path if d.rel_path in exact]
            if on_path:
                return _decide(on_path, "path", sure=True, label_first=label_first)
    for variant, key in variants:
        if "/" in variant:
            continue
        named = by_name.get(("stem", key), ())
        if not named:
            continue
        if not strict:
            return _decide(named, "name", sure=False, label_first=label_first)
        same_case = [d for d in named if _stem(d.rel_path) == variant]
        if same_case:
            return _decide(same_case, "name", sure=True, label_first=label_first)
    if strict:
        return ()
    for _, key in variants:
        for kind, method in (("path", "path-nocase"), ("dendron", "dendron")):
            docs = by_name.get((kind, key), ())
            if docs:
                return _decide(docs, method, sure=False, label_first=label_first)
    return ()


def _stem(rel_path: str) -> str:
    return posixpath.basename(strip_markdown_extension(rel_path))


def resolve_pending(store: LinkStore) -> int:
    """Resolve every pending link of the store (new links, and links whose candidate targets
    appeared, changed or went since); returns how many were resolved. Reads no document text:
    the store hands ``resolve_batch`` the links' own fields and the names of candidate
    documents, as plain rows (a first sync resolves every link of the vault)."""
    return store.resolve_pending(resolve_batch, RESOLVE_BATCH)


def resolve_batch(pending: Sequence[PendingRow], names: Iterable[NameRow]) -> list[Resolution]:
    """The rules over a batch, set-based: what each of the ``pending`` links resolves to among
    ``names``, the rows of the documents carrying its keys in its scope (each link sees its
    own keys only, as ``resolve_link``; rows of other keys or scopes are not looked at)."""
    # Per scope and key, the documents carrying it under each kind: ``{(kind, key): docs}``,
    # built once per batch.
    by_scope: dict[str, dict[str, dict[tuple[str, str], list[NamedDoc]]]] = {}
    for kind, key, doc in names:
        per_key = by_scope.get(doc.collection)
        if per_key is None:
            per_key = by_scope[doc.collection] = {}
        per_key.setdefault(key, {}).setdefault((kind, key), []).append(doc)
    nothing: dict[str, dict[tuple[str, str], list[NamedDoc]]] = {}
    results: list[Resolution] = []
    for link_id, coll, rel_path, link_type, target_ref, alias, target_coll, keys in pending:
        per_key = by_scope.get(target_coll or coll, nothing)
        found = [k for key in keys if (k := per_key.get(key)) is not None]
        targets: tuple[tuple[int, str, str], ...] = ()
        # No document carries one of its names: nothing to try (every rule looks one up).
        if found:
            by_name = found[0] if len(found) == 1 else {n: d for k in found for n, d in k.items()}
            targets = tuple(
                (doc.doc_id, confidence, method)
                for doc, confidence, method in _resolve(
                    link_type, target_ref, alias, target_coll, rel_path, by_name
                )
            )
        results.append((link_id, targets))
    return results
