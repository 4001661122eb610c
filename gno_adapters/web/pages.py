"""The Web UI's pages on ``gno serve``: ``/`` (dashboard), ``/search``, ``/doc``, ``/browse`` and
``/ask``, ``/graph``, ``/static/<name>``; ``/capture`` (a new note) on a server with writes on.

Server-rendered HTML over the facade the REST API drives (the same worker threads, the same
boundary: Host, Origin, peer, size, rate and admission have run before a page is asked for);
the pages hold no domain logic: each is one or a few facade reads laid out by a template
(``gno_adapters.web.views`` shapes the values). A read-only server shows no write control.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from quart import Quart, Response, request

from gno_adapters.web import views
from gno_adapters.web.assets import asset, page, see_other
from gno_adapters.web.markdown import doc_href

if TYPE_CHECKING:
    from gno_adapters.rest.routes import Runner
    from gno_core.surface import Facade

T = TypeVar("T")
SEARCH_MODES = ("keyword", "hybrid", "vector")
MAX_QUERY_CHARS = 2000


def register_web(
    app: Quart, runner: Runner, capabilities: Iterable[str], *, enable_write: bool = False
) -> None:
    """Add the pages to ``app``."""
    offered = frozenset(capabilities)
    base = {"writable": enable_write}

    async def read(fn: Callable[[Facade], T]) -> T:
        return await runner.run(lambda: fn(runner.get()))

    def failed(exc: Exception, **context: Any) -> Response:
        status, code, message = views.failure(exc)
        return page("error.html", status, **base, code=code, message=message, **context)

    @app.get("/", endpoint="web_dashboard")
    async def dashboard() -> Response:
        try:
            names = await read(views.collection_names)
        except Exception as exc:
            return failed(exc, page_name="dashboard")
        return page("dashboard.html", **base, page_name="dashboard", collections=names)

    @app.get("/search", endpoint="web_search")
    async def search() -> Response:
        args = request.args
        text = (args.get("q") or "").strip()[:MAX_QUERY_CHARS]
        mode = args.get("mode") or "keyword"
        mode = mode if mode in SEARCH_MODES else "keyword"
        collection = args.get("collection") or None
        context: dict[str, Any] = {
            **base,
            "page_name": "search",
            "q": text,
            "mode": mode,
            "modes": [m for m in SEARCH_MODES if _offers(offered, m)],
            "collection": collection or "",
            "results": None,
            "meta": None,
            "error": None,
            "explain": [],
            "form": views.search_form(args),
        }
        try:
            context["collections"] = await read(views.collection_names)
            if text:
                form = context["form"]
                found = await read(lambda f: views.run_search(f, mode, text, collection, form))
                context.update(views.search_results(found))
        except Exception as exc:
            _, code, message = views.failure(exc)
            context["error"] = {"code": code, "message": message}
            context.setdefault("collections", [])
        return page("search.html", **context)

    @app.get("/doc", endpoint="web_doc")
    async def doc() -> Response:
        ref = request.args.get("ref") or request.args.get("uri") or ""
        line = views.positive_int(request.args.get("line"))
        try:
            if not ref:
                from gno_core.errors import ValidationError

                raise ValidationError("Give the document as ?ref=<gno:// URI, coll/path or #docid>")
            shown = await read(lambda f: views.document(f, ref, offered))
        except Exception as exc:
            return failed(exc, page_name="doc")
        return page("doc.html", **base, page_name="doc", **views.document_page(shown, line))

    @app.get("/browse", endpoint="web_browse")
    async def browse() -> Response:
        args = request.args
        collection = args.get("collection") or None
        folder = views.clean_folder(args.get("folder") or "")
        number = views.positive_int(args.get("page")) or 1
        try:
            if collection is None:
                names = await read(views.collection_names)
                context = {"collections": names}
            else:
                listing = await read(lambda f: f.ls(collection, folder or None, None))
                context = views.browse(listing, collection, folder, number)
        except Exception as exc:
            return failed(exc, page_name="browse")
        return page("browse.html", **base, page_name="browse", collection=collection, **context)

    @app.get("/ask", endpoint="web_ask")
    async def ask() -> Response:
        """A question answered only when every claim is verified, else an abstention with the
        evidence; each citation opens its lines."""
        if "ask" not in offered:
            from gno_core.errors import NotFoundError

            return failed(NotFoundError("This server offers no ask"), page_name="ask")
        text = (request.args.get("q") or "").strip()[:MAX_QUERY_CHARS]
        collection = request.args.get("collection") or None
        context: dict[str, Any] = {
            **base,
            "page_name": "ask",
            "q": text,
            "collection": collection or "",
            "result": None,
            "error": None,
        }
        try:
            context["collections"] = await read(views.collection_names)
            if text:
                asked = await read(lambda f: views.run_ask(f, text, collection))
                context.update(views.ask_page(asked))
        except Exception as exc:
            _, code, message = views.failure(exc)
            context["error"] = {"code": code, "message": message}
            context.setdefault("collections", [])
        return page("ask.html", **context)

    @app.get("/graph", endpoint="web_graph")
    async def graph() -> Response:
        """The page; the browser fetches the graph itself from ``/api/graph`` (``graph.js``)."""
        if "graph" not in offered:
            from gno_core.errors import NotFoundError

            return failed(NotFoundError("This server offers no graph"), page_name="graph")
        args = request.args
        collection = args.get("collection") or None
        limit = min(views.positive_int(args.get("limit")) or views.GRAPH_LIMIT, 5000)
        similar = args.get("similar") == "1"
        try:
            names = await read(views.collection_names)
        except Exception as exc:
            return failed(exc, page_name="graph")
        return page(
            "graph.html",
            **base,
            page_name="graph",
            collections=names,
            collection=collection or "",
            limit=limit,
            similar=similar,
            source=views.graph_source(collection, limit, similar),
        )

    @app.route("/capture", methods=["GET", "POST"], endpoint="web_capture")
    async def capture() -> Response:
        """A new note (writes on only): the form, and its same-origin POST, which goes through
        the facade's capture (the write lease and gate of every writer), then opens the note."""
        from gno_core.errors import WriteDisabledError

        if not enable_write or "capture" not in offered:
            refused = WriteDisabledError(
                "Writes are disabled on this server; start it with --mcp-enable-write"
            )
            return failed(refused, page_name="capture")
        form: dict[str, str] = {}
        error = None
        status = 200
        if request.method == "POST":
            form = {k: v for k, v in (await request.form).items() if isinstance(v, str)}
            try:
                body = views.capture_request(form)
                receipt = await runner.run(lambda: runner.get().capture(body), write=True)
            except Exception as exc:
                status, code, message = views.failure(exc)
                error = {"code": code, "message": message}
            else:
                return see_other(doc_href(receipt.uri))
        try:
            names = await read(views.collection_names)
        except Exception as exc:
            return failed(exc, page_name="capture")
        return page(
            "capture.html",
            status,
            **base,
            page_name="capture",
            collections=names,
            form=form,
            error=error,
        )

    @app.get("/static/<name>", endpoint="web_static")
    async def static(name: str) -> Response:
        return asset(name, request.args.get("v"))


def _offers(offered: frozenset[str], mode: str) -> bool:
    return {"keyword": "search", "hybrid": "query", "vector": "vsearch"}[mode] in offered
