"""The OpenAPI 3.1 document of the REST routes, generated from the route table
(``gno_adapters.rest.catalogue``) and the same pydantic contracts the routes validate their input
with and answer in: a body route's ``requestBody`` is its request model, a query route's
``parameters`` are its request model's fields by alias, and every answer is its wire contract.

``GET /api/openapi.json`` serves the document of the routes that server registered;
``contracts/openapi.json`` is the document of every route (``scripts/gen_contracts.py`` writes
it, a test fails when it drifts).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gno_adapters.rest.catalogue import ERROR_MODEL, ROUTES, RestRoute
from gno_adapters.rest.catalogue import resolve_model as _model

#: The version of the REST API these routes form (not the package's version).
API_VERSION = "1.0.0"
OPENAPI_VERSION = "3.1.0"
DIALECT = "https://json-schema.org/draft/2020-12/schema"
REF_TEMPLATE = "#/components/schemas/{model}"
BOUNDARY_MODEL = "gno_core.contracts.gateway:HttpError"

#: The bodies of the routes whose input or answer is no request model or contract.
VERIFY_BODY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "capsule": {
            "type": "object",
            "description": "A saved Context Capsule (context-capsule-v1), as /api/context gave it",
        }
    },
    "required": ["capsule"],
    "additionalProperties": False,
}
HEALTH_ANSWER: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"const": True}},
    "required": ["ok"],
    "additionalProperties": False,
}
OPENAPI_ANSWER: dict[str, Any] = {
    "type": "object",
    "description": "This document",
    "required": ["openapi", "info", "paths"],
}


def _operation_id(route: RestRoute) -> str:
    words = route.path.removeprefix("/").replace(".", "_").replace("/", "_")
    return f"{route.method.lower()}_{words}"


def openapi_document(routes: Iterable[RestRoute] = ROUTES) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``routes`` (default: every route)."""
    from pydantic.json_schema import models_json_schema

    chosen = list(routes)
    names = sorted(
        {ERROR_MODEL, BOUNDARY_MODEL}
        | {r.request for r in chosen if r.request}
        | {name for r in chosen for name in r.response}
    )
    models = {name: _model(name) for name in names}
    refs, top = models_json_schema(
        [(models[name], "validation") for name in names], ref_template=REF_TEMPLATE
    )
    defs: dict[str, Any] = top.get("$defs", {})

    def ref(name: str) -> dict[str, Any]:
        return dict(refs[(models[name], "validation")])

    def resolved(name: str) -> dict[str, Any]:
        target = ref(name)["$ref"].rsplit("/", 1)[-1]
        found: dict[str, Any] = defs[target]
        return found

    error = {"oneOf": [ref(ERROR_MODEL), ref(BOUNDARY_MODEL)]}
    paths: dict[str, Any] = {}
    for route in chosen:
        operation: dict[str, Any] = {
            "operationId": _operation_id(route),
            "summary": route.summary,
        }
        if route.source == "body":
            schema = ref(route.request) if route.request else VERIFY_BODY
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": schema}},
            }
        elif route.source == "query" and route.request:
            operation["parameters"] = _parameters(route, resolved(route.request))
        if route.response:
            answer = (
                ref(route.response[0])
                if len(route.response) == 1
                else {"oneOf": [ref(name) for name in route.response]}
            )
        else:
            answer = OPENAPI_ANSWER if route.path.endswith("openapi.json") else HEALTH_ANSWER
        operation["responses"] = {
            str(route.status): {
                "description": "the answer's contract",
                "content": {"application/json": {"schema": answer}},
            },
            "default": {
                "description": (
                    "an error: the error@1.0 envelope, or a boundary refusal (mcp-http-error: "
                    "401, 403, 413, 429, 503)"
                    + ("; 403 WRITE_DISABLED unless writes are enabled" if route.write else "")
                ),
                "content": {"application/json": {"schema": error}},
            },
        }
        paths.setdefault(route.path, {})[route.method.lower()] = operation
    return {
        "openapi": OPENAPI_VERSION,
        "jsonSchemaDialect": DIALECT,
        "info": {
            "title": "gno REST API",
            "version": API_VERSION,
            "description": (
                "The REST routes of `gno serve` (loopback only). Bodies and answers are the "
                "contracts the CLI prints with --json, camelCase; unknown fields are refused "
                "(400 VALIDATION naming them). A document is named by `ref`: a gno:// URI, "
                "collection/path, or #docid."
            ),
        },
        "paths": paths,
        "components": {"schemas": defs},
    }


def _parameters(route: RestRoute, schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The query parameters of ``route``: its request model's fields by alias (the JSON
    Schema of each), then the deprecated names it still takes."""
    required = set(schema.get("required", ()))
    replaced = {field for _, field in route.deprecated}
    out: list[dict[str, Any]] = []
    for name, prop in schema.get("properties", {}).items():
        param: dict[str, Any] = {
            "name": name,
            "in": "query",
            # A field a deprecated name can stand for is required as one or the other.
            "required": name in required and name not in replaced,
            "schema": prop,
        }
        if "description" in prop:
            param["description"] = prop["description"]
        if name in replaced:
            param["description"] = f"{prop.get('description', name)} (required, or its alias)"
        out.append(param)
    for old, field in route.deprecated:
        out.append(
            {
                "name": old,
                "in": "query",
                "required": False,
                "deprecated": True,
                "description": f"Deprecated alias of {field}, kept for older callers",
                "schema": schema["properties"][field],
            }
        )
    return out


def render(document: dict[str, Any]) -> str:
    """Byte-stable text of ``document`` (``contracts/openapi.json``)."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
