"""REST routes: ``GET /api`` (the routes, from ``gno_adapters.rest.catalogue``),
``GET /api/openapi.json`` (their OpenAPI 3.1 document), ``GET /api/status``, ``POST /api/search``, ``POST /api/query``, ``GET /api/doc``,
``GET /api/links``, ``GET /api/backlinks``, ``GET /api/graph`` (and ``/query``,
``/neighbors``, ``/path``), ``POST /api/context``, ``POST /api/context/verify``
(body ``{"capsule": ...}``), ``POST /api/query/diagnose``, ``POST /api/section``,
``POST /api/ask``, and the write
routes (``POST /api/capture``), which answer 403 ``WRITE_DISABLED`` unless the gateway was
started with write access (``--mcp-enable-write`` / ``gateway.enableWrite``).

Bodies and answers are the contracts the CLI prints with ``--json`` (``status@1.0``,
``search-results@1.0``, ``get@1.0``, ``links@1.0``, ``backlinks@1.0``), camelCase in and out;
the document reads take their request fields from the query string (``?ref=...&type=wiki``);
a document is named ``ref`` everywhere (``/api/doc`` also takes the deprecated ``uri``).
Failures are the ``error@1.0`` envelope with an HTTP status from one table. Facade calls run on the gateway's worker threads;
the boundary (Host, Origin, peer, bearer, size, rate, admission) has already run.
``/api/query`` exists when the facade offers ``query`` (the caller says so in ``capabilities``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from quart import Quart, Response, request

from gno_adapters.mcp.frames import FrameError, decode_frame, json_bytes
from gno_adapters.mcp.tools.schema import model_arguments
from gno_core.surface import OPERATIONS, Facade

if TYPE_CHECKING:
    from gno_adapters.rest.catalogue import RestRoute
    from gno_core.contracts import ResidentStatus, Status

T = TypeVar("T")
#: How much of a refused field's name, and how many refused fields, an error echoes back.
MAX_NAME_CHARS = 200
MAX_REPORTED_FIELDS = 20

#: gno error code -> HTTP status; anything unlisted is a 500.
STATUS_BY_CODE: dict[str, int] = {
    "VALIDATION": 400,
    "INVALID_PATH": 400,
    "NOT_FOUND": 404,
    "PATH_NOT_FOUND": 404,
    "NOT_INITIALIZED": 409,
    "DUPLICATE": 409,
    "CONFLICT": 409,
    "LOCKED": 423,
    "JOB_CONFLICT": 409,
    "WRITE_DISABLED": 403,
    "CANCELLED": 499,
    "MODEL_UNAVAILABLE": 503,
}


class Runner(Protocol):
    """Where REST runs facade calls (``gno_adapters.http.workers.FacadePool``)."""

    def get(self) -> Facade: ...

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T: ...


def register_rest(
    app: Quart,
    runner: Runner,
    capabilities: Iterable[str] = OPERATIONS,
    transport_status: Callable[[], ResidentStatus] | None = None,
    *,
    enable_write: bool = False,
) -> None:
    """Add the REST routes to ``app``; ``/api/query`` exists when ``capabilities`` (the facade
    operations the runner's facades offer) holds ``query``. ``/api/status`` reports the serving
    gateway through ``transport_status``."""

    async def call(
        fn: Callable[[Facade], Any], *, write: bool = False, status: int = 200
    ) -> Response:
        def work() -> Any:
            return fn(runner.get()).wire()

        try:
            return _json(status, await runner.run(work, write=write))
        except Exception as exc:
            return _failure(exc)

    def stamped_status(facade: Facade) -> Status:
        status = facade.status()
        if transport_status is None:
            return status
        return status.model_copy(update={"resident": transport_status()})

    @app.get("/api/status")
    async def status() -> Response:
        if (refused := _refuse_any_query()) is not None:
            return refused
        return await call(stamped_status)

    @app.get("/api")
    async def index() -> Response:
        from gno_core.contracts import ApiIndex, ApiRoute

        if (refused := _refuse_any_query()) is not None:
            return refused
        routes = [ApiRoute(method=m, path=p, summary=r.summary) for (m, p), r in _served(app)]
        return _json(200, ApiIndex(routes=routes, openapi="/api/openapi.json").wire())

    openapi_text: list[bytes] = []

    @app.get("/api/openapi.json")
    async def openapi() -> Response:
        if (refused := _refuse_any_query()) is not None:
            return refused
        if not openapi_text:  # built once, on first ask, from the routes this app has
            from gno_adapters.rest.openapi import openapi_document, render

            document = openapi_document(route for _, route in _served(app))
            openapi_text.append(render(document).encode())
        response = Response(openapi_text[0], status=200, content_type="application/json")
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.post("/api/search")
    async def search() -> Response:
        from gno_core.contracts.requests import SearchRequest

        try:
            body = SearchRequest.model_validate(await _body())
        except Exception as exc:
            return _failure(exc)
        return await call(lambda f: f.search(body))

    if "query" in capabilities:
        from gno_core.contracts import requests as request_models

        query_request: Any = getattr(request_models, "QueryRequest", request_models.SearchRequest)

        @app.post("/api/query")
        async def query() -> Response:
            try:
                body = query_request.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.query(body))

    @app.post("/api/capture")
    async def capture() -> Response:
        from gno_core.contracts.write_requests import CaptureRequest

        try:
            _require_write(enable_write)
            body = CaptureRequest.model_validate(await _body())
        except Exception as exc:
            return _failure(exc)
        return await call(lambda f: f.capture(body), write=True, status=201)

    for verb, operation, model_name in (
        ("rename", "rename_note", "RenameNoteRequest"),
        ("move", "move_note", "MoveNoteRequest"),
        ("duplicate", "duplicate_note", "DuplicateNoteRequest"),
    ):
        if operation in capabilities:
            app.add_url_rule(
                f"/api/docs/{verb}",
                endpoint=f"docs_{verb}",
                view_func=_refactor_view(call, operation, model_name, enable_write),
                methods=["POST"],
            )

    if "context" in capabilities:

        @app.post("/api/context")
        async def context() -> Response:
            from gno_core.contracts.evidence_requests import ContextRequest

            try:
                body = ContextRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.context(body))

    if "query_diagnose" in capabilities:

        @app.post("/api/query/diagnose")
        async def query_diagnose() -> Response:
            from gno_core.contracts.evidence_requests import DiagnoseRequest

            try:
                body = DiagnoseRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.query_diagnose(body))

    if "section" in capabilities:

        @app.post("/api/section")
        async def section() -> Response:
            from gno_core.contracts.evidence_requests import SectionRequest

            try:
                body = SectionRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.section(body))

    if "ask" in capabilities:

        @app.post("/api/ask")
        async def ask() -> Response:
            from gno_core.contracts.evidence_requests import AskRequest

            try:
                body = AskRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.ask(body))

    if "context_verify" in capabilities:

        @app.post("/api/context/verify")
        async def context_verify() -> Response:
            try:
                body = await _body()
                _refuse_unknown(body, ("capsule",), "body field")
                capsule = body.get("capsule")
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.context_verify(capsule))

    @app.get("/api/doc")
    async def doc() -> Response:
        from gno_core.contracts.requests import GetRequest

        args = request.args
        try:
            _refuse_unknown(args, (*_aliases(GetRequest), "uri"), "query parameter")
            # ``uri`` is the deprecated name of ``ref``: either, or both when they agree.
            ref = args.get("ref") or args.get("uri")
            if args.get("uri") and args.get("ref") and args["uri"] != args["ref"]:
                from gno_core.errors import ValidationError

                raise ValidationError(
                    "Give the document once: ?ref= (uri= is its deprecated alias), not both",
                    details={"fields": ["ref", "uri"]},
                )
            if not ref:
                from gno_core.errors import ValidationError

                raise ValidationError("Give the document as ?ref=<gno:// URI, coll/path or #docid>")
            # The query string carries the GetRequest fields by alias; an empty one is absent.
            given = {k: v for k, v in model_arguments(GetRequest, args).items() if v != ""}
            got = GetRequest.model_validate({**given, "ref": ref})
        except Exception as exc:
            return _failure(exc)

        def read(f: Facade) -> Any:
            result = f.get(got.ref, from_line=got.from_line, line_count=got.line_count)
            if got.trace_id is not None:  # continue that trace with the exact span returned
                f.trace_get(got.trace_id, got.ref, result)
            return result

        return await call(read)

    if "links" in capabilities:

        @app.get("/api/links")
        async def links() -> Response:
            from gno_core.contracts.requests import LinksRequest

            try:
                got = LinksRequest.model_validate(_query_fields(LinksRequest))
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.links(got.ref, link_type=got.link_type))

    if "backlinks" in capabilities:

        @app.get("/api/backlinks")
        async def backlinks() -> Response:
            from gno_core.contracts.requests import BacklinksRequest

            try:
                got = BacklinksRequest.model_validate(_query_fields(BacklinksRequest))
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.backlinks_wire(got.ref, collection=got.collection))

    # The graph reads, impact, changes and diff take their fields from the query string, like
    # the document reads; each one's request model is the route table's (``catalogue``).
    graph_routes = (
        # The whole graph is sent in the wire form it is built in (``graph_wire``).
        ("graph", "/api/graph", "graph_wire"),
        ("graph_query", "/api/graph/query", "graph_query"),
        ("graph_neighbors", "/api/graph/neighbors", "graph_neighbors"),
        ("graph_path", "/api/graph/path", "graph_path"),
        ("impact", "/api/impact", "impact"),
        # The page of changes is sent in the wire form it is built in (``changes_wire``).
        ("changes", "/api/changes", "changes_wire"),
        ("diff", "/api/diff", "diff"),
    )
    for operation, path, method in graph_routes:
        if operation in capabilities:
            app.add_url_rule(
                path,
                endpoint=operation,
                view_func=_graph_view(call, method, path),
                methods=["GET"],
            )

    from gno_adapters.rest.trace_routes import Inputs, register_traces

    inputs = Inputs(_query_fields, _body, _require_write, _failure)
    register_traces(app, call, capabilities, inputs, enable_write=enable_write)

    if "audit" in capabilities:

        @app.post("/api/audit")
        async def audit() -> Response:
            from gno_core.contracts.integrity_requests import AuditRequest

            try:
                body = AuditRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            return await call(lambda f: f.audit(body))

    if "recall" in capabilities:

        @app.post("/api/memory/recall")
        async def recall() -> Response:
            from gno_core.contracts.memory_requests import RecallRequest
            from gno_core.facts import MemoryIdentity

            try:
                body = RecallRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            # The session is the boundary's per-caller label (never a credential).
            label = getattr(request.scope.get("gno.caller"), "label", None) or "rest"
            identity = MemoryIdentity(caller="rest", session=label)
            return await call(lambda f: f.recall(body, identity))

    if "remember" in capabilities:

        @app.post("/api/memory/remember")
        async def remember() -> Response:
            from gno_core.contracts.memory_requests import RememberRequest
            from gno_core.facts import MemoryIdentity

            try:
                _require_write(enable_write)
                body = RememberRequest.model_validate(await _body())
            except Exception as exc:
                return _failure(exc)
            label = getattr(request.scope.get("gno.caller"), "label", None) or "rest"
            identity = MemoryIdentity(caller="rest", session=label)
            return await call(lambda f: f.remember(body, identity), write=True)


def _served(app: Quart) -> list[tuple[tuple[str, str], RestRoute]]:
    """The routes of the table that ``app`` registered, by path then method."""
    from gno_adapters.rest.catalogue import BY_ROUTE

    found = {
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
        if (method, rule.rule) in BY_ROUTE
    }
    return [(key, BY_ROUTE[key]) for key in sorted(found, key=lambda k: (k[1], k[0]))]


def _refactor_view(
    call: Callable[..., Awaitable[Response]], operation: str, model_name: str, enable_write: bool
) -> Callable[[], Awaitable[Response]]:
    """``POST /api/docs/rename|move|duplicate``: the MCP tool's arguments as the JSON body
    (preview, or apply with the digest and every confirmation)."""

    async def view() -> Response:
        from gno_core.contracts import refactors

        try:
            _require_write(enable_write)
            body = getattr(refactors, model_name).model_validate(await _body())
        except Exception as exc:
            return _failure(exc)
        return await call(lambda f: getattr(f, operation)(body), write=True)

    return view


def _graph_view(
    call: Callable[[Callable[[Facade], Any]], Awaitable[Response]],
    method: str,
    path: str,
) -> Callable[[], Awaitable[Response]]:
    async def view() -> Response:
        from gno_adapters.rest.catalogue import BY_ROUTE, resolve_model

        model = resolve_model(BY_ROUTE[("GET", path)].request or "")
        try:
            got = model.model_validate(_query_fields(model))
        except Exception as exc:
            return _failure(exc)
        return await call(lambda f: getattr(f, method)(got))

    return view


def _query_fields(model: Any) -> dict[str, Any]:
    """The request fields of ``model`` in the query string, by alias; empty values are absent.
    A parameter that is no field of ``model`` is refused (``VALIDATION``), never ignored."""
    _refuse_unknown(request.args, _aliases(model), "query parameter")
    return {k: v for k, v in model_arguments(model, request.args).items() if v != ""}


def _refuse_any_query() -> Response | None:
    """The refusal of a route that takes no query parameter, when it was given one."""
    try:
        _refuse_unknown(request.args, (), "query parameter")
    except Exception as exc:
        return _failure(exc)
    return None


def _aliases(model: Any) -> tuple[str, ...]:
    return tuple(f.alias or name for name, f in model.model_fields.items())


def _refuse_unknown(given: Iterable[str], known: Iterable[str], what: str) -> None:
    """Closed inputs (issue 23): a misspelled or unsupported field is a ``VALIDATION`` error
    naming it (``details.fields``) before the facade is asked anything."""
    allowed = set(known)
    unknown = sorted({name for name in given if name not in allowed})
    if unknown:
        from gno_core.errors import ValidationError

        names = ", ".join(repr(name[:MAX_NAME_CHARS]) for name in unknown[:8])
        takes = ", ".join(sorted(allowed)) or "none"
        raise ValidationError(
            f"Unknown {what}(s) {names}; this route takes: {takes}",
            details={"fields": [name[:MAX_NAME_CHARS] for name in unknown[:8]]},
        )


def _require_write(enabled: bool) -> None:
    if not enabled:
        from gno_core.errors import WriteDisabledError

        raise WriteDisabledError(
            "Writes are disabled on this server; start it with --mcp-enable-write "
            "(or gateway.enableWrite: true)"
        )


async def _body() -> Any:
    from gno_core.errors import ValidationError

    raw = await request.get_data(cache=False, as_text=False, parse_form_data=False) or b"{}"
    try:
        # The size is the boundary's rule (413); here only the text and its nesting.
        body = decode_frame(raw, max_bytes=len(raw))
    except FrameError as exc:
        raise ValidationError(f"The request body must be JSON: {exc.error.message}") from None
    if not isinstance(body, dict):
        raise ValidationError("The request body must be a JSON object")
    return body


def _failure(exc: Exception) -> Response:
    """One ``error@1.0`` envelope per failure; unexpected exceptions stay in the log."""
    from pydantic import ValidationError as ModelError
    from werkzeug.exceptions import RequestEntityTooLarge

    from gno_core.errors import GnoError, validation_problems

    if isinstance(exc, RequestEntityTooLarge):
        raise exc  # the app's handler answers with the closed 413 body
    if isinstance(exc, GnoError):
        status = exc.http_status or STATUS_BY_CODE.get(exc.code, 500)
        return _json(status, exc.envelope())
    if isinstance(exc, ModelError):
        problems = validation_problems(exc.errors())
        fields = [".".join(str(p) for p in e["loc"]) for e in exc.errors()]
        details = {"fields": [f[:MAX_NAME_CHARS] for f in fields if f][:MAX_REPORTED_FIELDS]}
        envelope = {"error": {"code": "VALIDATION", "message": problems, "details": details}}
        return _json(400, envelope)
    import logging

    logging.getLogger("gno.rest").error("REST call failed", exc_info=exc)
    envelope = {"error": {"code": "RUNTIME", "message": "Internal error", "details": {}}}
    return _json(500, envelope)


def _json(status: int, payload: Any) -> Response:
    response = Response(json_bytes(payload), status=status, content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response
