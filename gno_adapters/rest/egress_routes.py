"""The egress REST routes (issue 26), the MCP egress tools' arguments as a JSON body or query
string: ``GET /api/egress/policy?collection=`` and ``POST /api/egress/policy`` (set: write
access), ``POST /api/egress/check``, ``GET /api/egress/audits`` (``?limit=&cursor=``),
``GET /api/egress/audit?auditId=``, ``GET /api/egress/audits/status``, and
``POST /api/egress/audits/delete`` and ``/purge`` (write access). Inputs are closed; the
answers are the four egress contracts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from quart import Quart, Response

from gno_adapters.rest import routes as r
from gno_core.surface import Facade


def register_egress(
    app: Quart, runner: r.Runner, capabilities: Iterable[str], enable_write: bool
) -> None:
    """Add the egress routes whose facade operation ``capabilities`` holds."""
    offered = set(capabilities)

    async def call(fn: Callable[[Facade], Any], *, write: bool = False) -> Response:
        def work() -> Any:
            return fn(runner.get()).wire()

        try:
            return r._json(200, await runner.run(work, write=write))
        except Exception as exc:
            return r._failure(exc)

    async def policy_get() -> Response:
        from gno_core.contracts.egress_requests import EgressPolicyGetRequest

        try:
            got = EgressPolicyGetRequest.model_validate(r._query_fields(EgressPolicyGetRequest))
        except Exception as exc:
            return r._failure(exc)
        return await call(lambda f: f.egress_policy_get(got.collection))

    async def policy_set() -> Response:
        from gno_core.contracts.egress_requests import EgressPolicySetRequest

        try:
            r._require_write(enable_write)
            body = EgressPolicySetRequest.model_validate(await r._body())
        except Exception as exc:
            return r._failure(exc)
        return await call(
            lambda f: f.egress_policy_set(body.collection, body.policy, body.confirmation),
            write=True,
        )

    async def check() -> Response:
        from gno_core.contracts.egress_requests import EgressCheckRequest

        try:
            body = EgressCheckRequest.model_validate(await r._body())
        except Exception as exc:
            return r._failure(exc)

        def decide(f: Facade) -> Any:
            return f.egress_check(
                collections=body.collections,
                action=body.action,
                zone=body.destination_zone,
                content_class=body.content_class,
                authenticated=body.caller.authenticated,
                authorized=body.caller.operation_authorized,
                partial=body.partial_results,
            )

        return await call(decide)

    async def audit_list() -> Response:
        from gno_core.contracts.egress_requests import EgressAuditListRequest

        try:
            got = EgressAuditListRequest.model_validate(r._query_fields(EgressAuditListRequest))
        except Exception as exc:
            return r._failure(exc)
        return await call(lambda f: f.egress_audit_list(got.limit, got.cursor))

    async def audit_show() -> Response:
        from gno_core.contracts.egress_requests import EgressAuditShowRequest

        try:
            got = EgressAuditShowRequest.model_validate(r._query_fields(EgressAuditShowRequest))
        except Exception as exc:
            return r._failure(exc)
        return await call(lambda f: f.egress_audit_show(got.audit_id))

    async def audit_status() -> Response:
        if (refused := r._refuse_any_query()) is not None:
            return refused
        return await call(lambda f: f.egress_audit_status())

    async def audit_delete() -> Response:
        from gno_core.contracts.egress_requests import EgressAuditDeleteRequest

        try:
            r._require_write(enable_write)
            body = EgressAuditDeleteRequest.model_validate(await r._body())
        except Exception as exc:
            return r._failure(exc)
        return await call(lambda f: f.egress_audit_delete(body.audit_id), write=True)

    async def audit_purge() -> Response:
        from gno_core.contracts.egress_requests import EgressAuditPurgeRequest

        try:
            r._require_write(enable_write)
            body = EgressAuditPurgeRequest.model_validate(await r._body())
        except Exception as exc:
            return r._failure(exc)
        return await call(lambda f: f.egress_audit_purge(body.confirm), write=True)

    table: tuple[tuple[str, str, str, Callable[[], Awaitable[Response]]], ...] = (
        ("GET", "/api/egress/policy", "egress_policy_get", policy_get),
        ("POST", "/api/egress/policy", "egress_policy_set", policy_set),
        ("POST", "/api/egress/check", "egress_check", check),
        ("GET", "/api/egress/audits", "egress_audit_list", audit_list),
        ("GET", "/api/egress/audit", "egress_audit_show", audit_show),
        ("GET", "/api/egress/audits/status", "egress_audit_status", audit_status),
        ("POST", "/api/egress/audits/delete", "egress_audit_delete", audit_delete),
        ("POST", "/api/egress/audits/purge", "egress_audit_purge", audit_purge),
    )
    for method, path, operation, view in table:
        if operation in offered:
            app.add_url_rule(path, endpoint=operation, view_func=view, methods=[method])
