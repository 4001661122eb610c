"""The Quart app of a gateway, wrapped in its boundary middleware.

Routes: ``/mcp`` (GET, POST, DELETE), ``GET /api/health`` and ``GET /api/resident/status`` on
both ``serve`` and ``daemon``; the REST API (``gno_adapters.rest``) and the Web UI's pages
(``gno_adapters.web``: ``/``, ``/search``, ``/doc``, ``/browse``, ``/static/*``) on ``serve``
only. Every
framework error comes back as JSON, never HTML: a body over the limit as the closed
``mcp-http-error`` body (413), anything else as the ``error@1.0`` envelope.
"""

from __future__ import annotations

from typing import Any, cast

from quart import Quart, Response
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from gno_adapters.http.boundary import ASGIApp, BoundaryMiddleware
from gno_adapters.http.gateway import Gateway
from gno_adapters.http.refusals import Refusal
from gno_adapters.http.transport import McpTransport, refusal_response

#: Answered from memory on the event loop: no admission slot, so never behind ``/mcp`` work.
UNMETERED = frozenset({"/api/health", "/api/resident/status"})
HTTP_CODES = {400: "VALIDATION", 404: "NOT_FOUND", 405: "VALIDATION", 409: "CONFLICT"}


def create_app(gateway: Gateway) -> BoundaryMiddleware:
    """The ASGI app to serve: the boundary, then Quart."""
    app = Quart("gno")
    app.config["MAX_CONTENT_LENGTH"] = gateway.settings.max_body_bytes
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    transport = McpTransport(gateway)

    @app.route("/mcp", methods=["GET", "POST", "DELETE"])
    async def mcp() -> Response:
        return await transport.handle()

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/api/resident/status")
    async def resident_status() -> dict[str, Any]:
        return gateway.resident_status().wire()

    if gateway.settings.mode == "serve":
        from gno_adapters.rest import register_rest

        register_rest(
            app,
            gateway.pool,
            gateway.capabilities,
            gateway.resident_status,
            enable_write=gateway.settings.enable_write,
        )
        from gno_adapters.web import register_web

        register_web(
            app,
            gateway.pool,
            gateway.capabilities,
            enable_write=gateway.settings.enable_write,
        )
        from gno_adapters.rest.egress import register_rest_egress

        def book_of(facade: Any) -> Any:  # read at each request: a test may swap the book
            return gateway.egress_book(facade)

        register_rest_egress(app, gateway.pool, book_of)

    @app.errorhandler(RequestEntityTooLarge)
    async def too_large(_: RequestEntityTooLarge) -> Response:
        return refusal_response(Refusal(413, "body_too_large", close=True))

    @app.errorhandler(HTTPException)
    async def http_error(exc: HTTPException) -> tuple[dict[str, Any], int]:
        status = exc.code or 500
        code = HTTP_CODES.get(status, "RUNTIME")
        return {"error": {"code": code, "message": exc.name, "details": {}}}, status

    @app.before_serving
    async def started() -> None:
        await gateway.start()

    return BoundaryMiddleware(
        cast("ASGIApp", app),
        gateway.policy,
        gateway.admission,
        gateway.peers,
        body_timeout=gateway.settings.body_timeout_seconds,
        unmetered=UNMETERED,
    )
