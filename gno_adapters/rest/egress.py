"""Collection egress policy on the REST routes and the Web UI's pages: the same gate as
``/mcp`` (``gno_adapters.http.egress``), around every route of ``gno serve`` that serves index
content (every ``/api/*`` route but the gateway's own state and route list; every page but its
static assets).

``gno serve`` listens on loopback only, so its REST callers are local, and a local caller is
never held (nothing is looked up for it). A caller that is not local reaches REST only through a
same-host reverse proxy (a request that carries forwarding headers, with the bearer token): its
zone is ``remote``. For such a caller, before the route runs, the collections the request names
(``collection``, ``collections``, any ``gno://`` reference in its query string or body), or every
configured collection when it names none, are judged: a collection that may not go refuses the
request whole (403 ``EGRESS_DENIED`` in the ``error@1.0`` envelope, its details the redacted
audit). REST answers are closed contracts, so they are never split per collection: an unnamed
scope that only partly may go is refused, naming the omitted collections (the remediation: name
the collections that may). After the route, on a worker, the answer is checked like an MCP
answer: an older policy epoch gives the content-free 409 ``EGRESS_POLICY_CHANGED``, and an
answer that names a collection that may not go is refused.
"""

from __future__ import annotations

import json
from typing import Any

from quart import Quart, Response, g, request

from gno_adapters.http.boundary import CALLER_KEY, Caller
from gno_adapters.http.egress import EgressBookOf, EgressGate, EgressRefusal, Ticket
from gno_adapters.http.workers import FacadePool

#: REST routes answering about the documents they name: held like the MCP tool of that name.
SUBJECTS = {
    "/api/doc": "gno_get",
    "/api/links": "gno_links",
    "/api/backlinks": "gno_backlinks",
    "/api/section": "gno_section",
    "/api/diff": "gno_diff",
    "/doc": "gno_get",
}
#: Routes that serve no collection's content (the gateway's own state and route list); ``/mcp``
#: has its own check (``gno_adapters.http.transport``).
EXEMPT = frozenset({"/mcp", "/api", "/api/openapi.json", "/api/health", "/api/resident/status"})
TICKET = "gno_egress_ticket"


def register_rest_egress(app: Quart, pool: FacadePool, book_of: EgressBookOf) -> None:
    """Hold every content route of ``app`` to the egress policy for non-local callers."""
    gate = EgressGate()

    def book() -> Any:
        return book_of(pool.get())

    @app.before_request
    async def admit() -> Response | None:
        path = request.path
        found = request.scope.get(CALLER_KEY)
        caller = found if isinstance(found, Caller) else None
        if caller is None or path in EXEMPT or path.startswith("/static/"):
            return None
        if caller.zone == "loopback" and not caller.proxied:
            return None
        arguments: dict[str, Any] = {k: request.args.getlist(k) for k in request.args}
        if request.method == "POST":
            try:
                body = json.loads(await request.get_data(cache=True, as_text=False) or b"{}")
            except ValueError:
                body = None  # the route refuses it (400) before anything is read
            if isinstance(body, dict):
                arguments.update(body)
        subject = SUBJECTS.get(path) or (
            path.lstrip("/") if path.startswith("/api/") else "web/" + (path.strip("/") or "home")
        )
        message = {"method": "tools/call", "params": {"name": subject, "arguments": arguments}}

        def run() -> Ticket | None:
            return gate.admit(
                message,
                peer=caller.peer,
                proxied=caller.proxied,
                authenticated=caller.authenticated,
                book=book,
            )

        try:
            setattr(g, TICKET, await pool.run(run))
        except EgressRefusal as refusal:
            return refused(refusal)
        return None

    @app.after_request
    async def release(response: Response) -> Response:
        ticket: Ticket | None = getattr(g, TICKET, None)
        if ticket is None or ticket.local:
            return response
        raw = await response.get_data(as_text=False)
        answer: Any
        try:
            answer, rendered = json.loads(raw or b"null"), False
        except ValueError:  # a page: its references are only known from its text
            answer, rendered = raw.decode("utf-8", "replace"), True
        key = "result" if response.status_code < 400 else "error"
        try:
            await pool.run(lambda: ticket.release({key: answer}, book(), rendered=rendered))
        except EgressRefusal as refusal:
            return refused(refusal)
        return response


def refused(refusal: EgressRefusal) -> Response:
    """The ``error@1.0`` envelope of an egress refusal (403, or the 409 retry)."""
    egress = refusal.egress
    message = (
        "The egress policy changed after this request was admitted: retry it"
        if refusal.status == 409
        else "Operation blocked by collection egress policy"
    )
    body = {"error": {"code": egress["code"], "message": message, "details": egress}}
    response = Response(json.dumps(body), status=refusal.status, content_type="application/json")
    for name, value in refusal.headers():
        if name != "content-type":
            response.headers[name] = value
    return response
