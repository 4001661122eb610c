"""The values the page templates show, shaped from the facade's contracts (result links with
their line, a document's links, a folder level of a listing, one page of 25).
Nothing here decides what the index holds: every number is a facade answer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlencode

from markupsafe import Markup

from gno_adapters.web.markdown import LinkTarget, doc_href, render

if TYPE_CHECKING:
    from gno_core import contracts as wire
    from gno_core.surface import Facade

PAGE_SIZE = 25
#: The graph page's default node limit (the REST default); beyond it the graph is truncated to
#: the highest-degree notes and the page says so.
GRAPH_LIMIT = 2000
GRAPH_EDGE_LIMIT = 20_000
#: The sidebar lists at most this many outgoing links and backlinks (and says how many more).
SIDE_LIMIT = 200


def failure(exc: Exception) -> tuple[int, str, str]:
    """``(status, code, message)`` of a failed read, with REST's status for each gno code; an
    unexpected one is logged, not shown."""
    from pydantic import ValidationError as ModelError

    from gno_adapters.rest.routes import STATUS_BY_CODE
    from gno_core.errors import GnoError, validation_problems

    if isinstance(exc, GnoError):
        return exc.http_status or STATUS_BY_CODE.get(exc.code, 500), exc.code, exc.message
    if isinstance(exc, ModelError):
        return 400, "VALIDATION", validation_problems(exc.errors())
    import logging

    logging.getLogger("gno.web").error("page failed", exc_info=exc)
    return 500, "RUNTIME", "Internal error"


def positive_int(text: str | None) -> int | None:
    try:
        value = int(text or "")
    except ValueError:
        return None
    return value if value >= 1 else None


def clean_folder(text: str) -> str:
    """A folder path as ``a/b`` (no leading, trailing or doubled slash, no ``.``/``..``)."""
    return "/".join(part for part in text.split("/") if part not in ("", ".", ".."))


def graph_source(collection: str | None, limit: int, similar: bool) -> str:
    """The REST call the graph page's script makes (``GET /api/graph``)."""
    query = {"limit": str(limit), "edgeLimit": str(GRAPH_EDGE_LIMIT)}
    if collection:
        query["collection"] = collection
    if similar:
        query["includeSimilar"] = "true"
    return "/api/graph?" + urlencode(query)


def collection_names(facade: Facade) -> list[str]:
    return [c.name for c in facade.list_collections().collections]


#: The search page's advanced fields: form name -> request field (lists are comma separated).
FILTER_FIELDS = {
    "tags_any": "tagsAny",
    "tags_all": "tagsAll",
    "since": "since",
    "until": "until",
    "author": "author",
    "exclude": "exclude",
}
LIST_FIELDS = frozenset({"tags_any", "tags_all", "exclude"})


def search_form(args: Mapping[str, str]) -> dict[str, str]:
    """The advanced fields the page was given (for the form and the request)."""
    names = (*FILTER_FIELDS, "filter", "explain")
    return {name: args.get(name, "").strip()[:2000] for name in names if args.get(name)}


def run_search(
    facade: Facade, mode: str, text: str, collection: str | None, form: Mapping[str, str]
) -> wire.SearchResults:
    """One search as the form asks it, validated by the facade's own request models (a bad
    date or filter is their ``VALIDATION`` error, shown on the page)."""
    import json

    from gno_core.contracts.requests import QueryRequest, SearchRequest
    from gno_core.errors import ValidationError

    fields: dict[str, Any] = {"query": text, "limit": 20}
    if collection:
        fields["collection"] = collection
    for name, field in FILTER_FIELDS.items():
        if form.get(name):
            value = form[name]
            fields[field] = (
                [v.strip() for v in value.split(",") if v.strip()] if name in LIST_FIELDS else value
            )
    if form.get("filter"):
        try:
            fields["filter"] = json.loads(form["filter"])
        except json.JSONDecodeError as exc:
            raise ValidationError(f"filter: not JSON ({exc.msg})") from None
    if mode == "hybrid":
        fields["explain"] = form.get("explain") == "1"
        return facade.query(QueryRequest.model_validate(fields))
    if mode == "vector":
        return facade.vsearch(SearchRequest.model_validate(fields))
    return facade.search(SearchRequest.model_validate(fields))


def search_results(found: wire.SearchResults) -> dict[str, Any]:
    results = [
        {
            "title": r.title or r.source.rel_path,
            "uri": r.uri,
            "path": r.source.rel_path,
            "href": doc_href(r.uri, r.line),
            "line": r.line,
            "score": f"{r.score:.3f}",
            "snippet": r.snippet,
        }
        for r in found.results
    ]
    meta = found.meta
    notes = [
        note.message
        for note in (meta.vector_coverage, meta.metadata_coverage)
        if note is not None and note.message
    ]
    explain = [
        {"stage": line.stage, "message": line.message, "rank": line.rank}
        for line in meta.explain or []
    ]
    return {"results": results, "meta": meta, "notes": notes, "explain": explain}


def run_ask(facade: Facade, text: str, collection: str | None) -> wire.AskResult:
    from gno_core.contracts.evidence_requests import AskRequest

    fields: dict[str, Any] = {"query": text, "verify": True}
    if collection:
        fields["collection"] = collection
    return facade.ask(AskRequest.model_validate(fields))


def ask_page(result: wire.AskResult) -> dict[str, Any]:
    titles = {s.uri: s.title for s in result.results}
    citations = [
        {
            "uri": c.uri,
            "href": doc_href(c.uri, c.start_line),
            "start": c.start_line,
            "end": c.end_line,
        }
        for c in result.citations
    ]
    spans = result.abstention.evidence if result.abstention else []
    evidence = [
        {
            "uri": e.uri,
            "title": titles.get(e.uri) or e.uri,
            "href": doc_href(e.uri, e.start_line),
            "start": e.start_line,
            "end": e.end_line,
        }
        for e in spans
    ]
    return {"result": result, "citations": citations, "evidence": evidence}


def capture_request(form: dict[str, str]) -> Any:
    """The capture form's fields as the facade's ``CaptureRequest`` (validated there)."""
    from gno_core.contracts.write_requests import CaptureRequest

    tags = [t.strip() for t in form.get("tags", "").split(",") if t.strip()]
    fields: dict[str, Any] = {
        "collection": form.get("collection", ""),
        "content": form.get("content", ""),
        "tags": tags,
    }
    if form.get("title", "").strip():
        fields["title"] = form["title"].strip()
    if form.get("folder", "").strip():
        fields["folderPath"] = clean_folder(form["folder"])
    return CaptureRequest.model_validate(fields)


@dataclass(frozen=True, slots=True)
class Shown:
    """One document with what its page shows beside it."""

    got: wire.GetResult
    links: wire.LinksResult | None
    backlinks: wire.BacklinksResult | None


def document(facade: Facade, ref: str, offered: frozenset[str]) -> Shown:
    got = facade.get(ref)
    links = facade.links(got.uri) if "links" in offered else None
    backlinks = facade.backlinks(got.uri) if "backlinks" in offered else None
    return Shown(got, links, backlinks)


def document_page(shown: Shown, line: int | None) -> dict[str, Any]:
    got = shown.got
    targets: dict[str, LinkTarget] = {}
    outgoing: list[dict[str, Any]] = []
    for link in shown.links.links if shown.links else []:
        uri = link.targets[0].uri if link.resolution == "resolved" and link.targets else None
        if not link.external:
            # A target written twice resolves once: the first resolution wins.
            targets.setdefault(link.target_ref, LinkTarget(uri))
        outgoing.append(
            {
                "text": link.link_text or link.target_ref,
                "target": link.target_ref,
                "href": doc_href(uri) if uri else None,
                "title": link.targets[0].title if uri and link.targets else None,
                "external": link.external,
                "broken": link.resolution in ("unresolved", "ambiguous") and not link.external,
                "line": link.position.start_line,
                "type": link.link_type,
            }
        )
    backlinks = [
        {
            "title": b.source_doc_title or b.source_doc_uri,
            "href": doc_href(b.source_doc_uri, b.position.start_line),
            "line": b.position.start_line,
            "context": b.context,
        }
        for b in (shown.backlinks.backlinks if shown.backlinks else [])
    ]
    rendered = render(got.content, targets, line)
    return {
        "doc": got,
        "title": got.title or got.source.rel_path,
        "frontmatter": rendered.frontmatter,
        "frontmatter_lines": rendered.frontmatter_lines,
        # The renderer escapes all text and writes every tag and attribute itself.
        "body": Markup(rendered.html),
        "cited_line": line,
        "outgoing": outgoing[:SIDE_LIMIT],
        "outgoing_total": len(outgoing),
        "broken_count": sum(1 for o in outgoing if o["broken"]),
        "backlinks": backlinks[:SIDE_LIMIT],
        "backlinks_total": len(backlinks),
    }


def browse(listing: wire.DocumentList, collection: str, folder: str, number: int) -> dict[str, Any]:
    """One folder level of ``collection``: its subfolders (with document counts), then its
    documents, 25 to a page."""
    prefix = f"gno://{collection}/"
    inside = f"{folder}/" if folder else ""
    folders: dict[str, int] = {}
    documents: list[dict[str, Any]] = []
    for d in listing.documents:
        rel = unquote(d.uri.removeprefix(prefix))
        if not rel.startswith(inside):
            continue  # ``ls`` matches a prefix of the path: ``a/bc`` is not in folder ``a/b``
        rest = rel[len(inside) :]
        if "/" in rest:
            name = rest.split("/", 1)[0]
            folders[name] = folders.get(name, 0) + 1
        else:
            documents.append({"title": d.title or rest, "name": rest, "href": doc_href(d.uri)})
    pages = max(1, -(-len(documents) // PAGE_SIZE))
    number = min(number, pages)
    start = (number - 1) * PAGE_SIZE
    crumbs = []
    parts = folder.split("/") if folder else []
    for i, part in enumerate(parts):
        crumbs.append({"name": part, "folder": "/".join(parts[: i + 1])})
    return {
        "folder": folder,
        "crumbs": crumbs,
        "folders": [
            {"name": n, "folder": f"{inside}{n}", "count": c} for n, c in sorted(folders.items())
        ],
        "documents": documents[start : start + PAGE_SIZE],
        "total_documents": len(documents),
        "page": number,
        "pages": pages,
    }
