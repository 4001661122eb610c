"""``/api/traces...``: the retrieval-trace receipts over REST. Reads take the query string
(``GET /api/traces``, ``GET /api/traces/show``); the mutations (``POST /api/traces/judgments``,
``/delete``, ``/purge``) take a JSON body and answer 403 ``WRITE_DISABLED`` unless the gateway
allows writes, before the body is read or the store is asked anything."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, NamedTuple

from quart import Quart, Response

__all__ = ["TRACE_ROUTES", "register_traces"]

#: (operation, method, path, request model name, write)
TRACE_ROUTES: tuple[tuple[str, str, str, str, bool], ...] = (
    ("trace_list", "GET", "/api/traces", "TraceListRequest", False),
    ("trace_show", "GET", "/api/traces/show", "TraceShowRequest", False),
    ("trace_label", "POST", "/api/traces/judgments", "TraceLabelRequest", True),
    ("trace_delete", "POST", "/api/traces/delete", "TraceDeleteRequest", True),
    ("trace_purge", "POST", "/api/traces/purge", "TracePurgeRequest", True),
    ("trace_export", "POST", "/api/traces/export", "TraceExportRequest", True),
)

Call = Callable[..., Awaitable[Response]]


class Inputs(NamedTuple):
    """What the REST routes share (``routes.py``): reading a query string or a JSON body,
    refusing a write, answering a failure."""

    query_fields: Callable[[Any], dict[str, Any]]
    body: Callable[[], Awaitable[Any]]
    require_write: Callable[[bool], None]
    failure: Callable[[Exception], Response]


def register_traces(
    app: Quart, call: Call, capabilities: Iterable[str], inputs: Inputs, *, enable_write: bool
) -> None:
    available = set(capabilities)
    for operation, method, path, model, write in TRACE_ROUTES:
        if operation in available:
            app.add_url_rule(
                path,
                endpoint=operation,
                view_func=_view(call, inputs, operation, model, write, enable_write),
                methods=[method],
            )


def _view(
    call: Call, inputs: Inputs, operation: str, model_name: str, write: bool, enable_write: bool
) -> Callable[[], Awaitable[Response]]:
    async def view() -> Response:
        from gno_core.contracts import trace_requests

        model: Any = getattr(trace_requests, model_name)
        try:
            if write:
                inputs.require_write(enable_write)  # refused before the body is read
                got = model.model_validate(await inputs.body())
            else:
                got = model.model_validate(inputs.query_fields(model))
        except Exception as exc:
            return inputs.failure(exc)
        if operation == "trace_export":
            # The route cannot name the peer's zone yet: an export over REST fails closed.
            return await call(lambda f: f.trace_export(got, zone="unknown"), write=True)
        return await call(lambda f: getattr(f, operation)(got), write=write)

    return view
