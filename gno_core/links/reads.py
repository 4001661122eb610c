"""Reading links: a document's outgoing links (``links``), the links to it (``backlinks``) and
the index's link totals (``totals``, for status). Everything comes from what sync stored:
no document is re-read or re-parsed here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_core.contracts import links as links_contract
from gno_core.contracts.base import Prebuilt
from gno_core.domain import AMBIGUOUS, MARKDOWN, WIKI, ExtractedLink, LinkCounts, Mention
from gno_core.errors import ValidationError
from gno_core.gc_pause import collector_paused
from gno_core.identity import make_docid, make_uri, plain_rel_path, uri_suffix
from gno_core.index_handle import IndexHandle, require_collection

if TYPE_CHECKING:
    from gno_core.contracts.links import Confidence, EdgeSource, LinkType, Resolution
    from gno_core.documents import Documents

__all__ = ["LINK_TYPES", "Links", "link_totals"]

LINK_TYPES = (WIKI, MARKDOWN)


class Links:
    """The links capability of one index."""

    def __init__(self, handle: IndexHandle, documents: Callable[[], Documents]) -> None:
        self.handle = handle
        self._documents = documents

    def links(self, ref: str, link_type: str | None = None) -> links_contract.LinksResult:
        """Outgoing links of ``ref`` in document order, optionally of one ``link_type``."""
        if link_type is not None and link_type not in LINK_TYPES:
            raise ValidationError(
                f"Invalid link type {link_type!r}: use wiki or markdown",
                details={"type": link_type},
            )
        with self._documents().resolved(ref) as resolved:
            handle, doc = resolved.handle, resolved.document
            records = handle.index.links.outgoing(doc.collection, doc.rel_path)
            links = [
                links_contract.OutgoingLink(
                    target_ref=r.link.target_ref,
                    target_anchor=r.link.target_anchor,
                    target_collection=r.link.target_collection,
                    link_type=_link_type(r.link.link_type),
                    link_text=r.link.link_text,
                    position=_position(r.link),
                    edge_source=_edge_source(r.link),
                    relation=r.link.relation,
                    embed=r.link.embed,
                    external=r.link.external,
                    resolution=_resolution(r.state),
                    confidence=_confidence(r.targets[0].confidence) if r.targets else None,
                    targets=[
                        links_contract.LinkedDocument(
                            docid=make_docid(t.document.source_hash),
                            uri=make_uri(t.document.collection, t.document.rel_path, handle.name),
                            title=t.document.title,
                            confidence=_confidence(t.confidence),
                            method=t.method,
                        )
                        for t in r.targets
                    ],
                )
                for r in records
                if link_type is None or r.link.link_type == link_type
            ]
            return links_contract.LinksResult(
                links=links,
                meta=links_contract.LinksMeta(
                    docid=doc.docid,
                    uri=handle.uri(doc),
                    title=doc.meta.title,
                    total_links=len(links),
                    filter_type=None if link_type is None else _link_type(link_type),
                    unresolved_links=sum(1 for k in links if k.resolution == "unresolved"),
                ),
            )

    def backlinks(self, ref: str, collection: str | None = None) -> links_contract.BacklinksResult:
        """``backlinks_wire`` validated into the contract model (the Python API's answer)."""
        return self.backlinks_wire(ref, collection).model()

    def backlinks_wire(
        self, ref: str, collection: str | None = None
    ) -> Prebuilt[links_contract.BacklinksResult]:
        """Links of active documents to ``ref`` (from ``collection`` only when given), ordered
        by source collection, path and position, built straight in the ``backlinks@1.0`` wire
        form: a hub has thousands, and a model per backlink (built, validated, serialised)
        cost several times the read."""
        with self._documents().resolved(ref) as resolved:
            handle, doc = resolved.handle, resolved.document
            source_collection = None
            if collection is not None:
                source_collection = require_collection(handle.load_config(), collection).name
            with collector_paused():
                found = handle.index.links.mentions(doc.collection, doc.rel_path, source_collection)
                backlinks = _wire_backlinks(found, handle.name)
            meta = links_contract.BacklinksMeta(
                docid=doc.docid,
                uri=handle.uri(doc),
                title=doc.meta.title,
                total_backlinks=len(backlinks),
                filter_collection=source_collection,
            )
            return Prebuilt(
                links_contract.BacklinksResult, {"backlinks": backlinks, "meta": meta.wire()}
            )

    def totals(self) -> links_contract.LinkTotals:
        return link_totals(self.handle.index.links.counts())


def _wire_backlinks(found: list[Mention], index: str) -> list[dict[str, object]]:
    """``backlinks@1.0`` items of ``found``: keys in the contract's field order, ``None``
    fields left out (what ``Backlink.wire()`` gives, without a model per item). The usual
    item (a title, a link text, no anchor, a path with nothing to percent-encode) is one
    dict display, about half the time of a key set at a time: a hub has thousands."""
    out: list[dict[str, object]] = []
    add = out.append
    suffix = uri_suffix(index)
    plain = plain_rel_path
    for c, path, title, source, text, kind, edge, rel, anchor, sl, sc, el, ec, conf, ctx in found:
        uri = f"gno://{c}/{path}{suffix}" if plain(path) else make_uri(c, path, index)
        position = {"startLine": sl, "startCol": sc, "endLine": el, "endCol": ec}
        if title is not None and text is not None and anchor is None:
            add(
                {
                    "sourceDocUri": uri,
                    "sourceDocid": "#" + source[:8],
                    "sourceDocTitle": title,
                    "linkText": text,
                    "linkType": kind,
                    "edgeSource": edge,
                    "relation": rel,
                    "position": position,
                    "confidence": conf,
                    "context": ctx,
                }
            )
            continue
        item: dict[str, object] = {"sourceDocUri": uri, "sourceDocid": make_docid(source)}
        if title is not None:
            item["sourceDocTitle"] = title
        if text is not None:
            item["linkText"] = text
        item["linkType"] = kind
        item["edgeSource"] = edge
        item["relation"] = rel
        if anchor is not None:
            item["targetAnchor"] = anchor
        item["position"] = position
        item["confidence"] = conf
        item["context"] = ctx
        add(item)
    return out


def link_totals(counts: LinkCounts) -> links_contract.LinkTotals:
    return links_contract.LinkTotals(
        total=counts.links,
        resolved=counts.resolved,
        ambiguous=counts.ambiguous,
        unresolved=counts.unresolved,
        external=counts.external,
        pending=counts.pending,
        edge_types=dict(counts.edge_types),
        confidence=dict(counts.confidence),
    )


def _position(link: ExtractedLink) -> links_contract.LinkPosition:
    return links_contract.LinkPosition(
        start_line=link.start_line,
        start_col=link.start_col,
        end_line=link.end_line,
        end_col=link.end_col,
    )


# The store holds these as plain strings; the contracts name the closed sets.
def _link_type(value: str) -> LinkType:
    return "markdown" if value == MARKDOWN else "wiki"


def _edge_source(link: ExtractedLink) -> EdgeSource:
    if link.edge_source == "frontmatter-relation":
        return "frontmatter-relation"
    return "markdown-link" if link.edge_source == "markdown-link" else "wikilink"


def _confidence(value: str) -> Confidence:
    if value == AMBIGUOUS:
        return "ambiguous"
    return "explicit" if value == "explicit" else "inferred"


_RESOLUTIONS: dict[str, Resolution] = {
    "resolved": "resolved",
    "ambiguous": "ambiguous",
    "unresolved": "unresolved",
    "external": "external",
}


def _resolution(state: str) -> Resolution:
    return _RESOLUTIONS.get(state, "pending")
