"""``GET /api`` and the OpenAPI document (issue 23): every route ``gno serve`` registers is in the
route table, the index and the document, with its request model's fields as parameters or body;
the committed ``contracts/openapi.json`` is what the table and the contracts generate; and what
each route answers over the real facade validates against the document's schema for it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gno_adapters.http.app import create_app
from gno_adapters.rest.catalogue import BY_ROUTE, ROUTES
from gno_adapters.rest.openapi import openapi_document, render
from tests.http_support import in_process
from tests.schema_check import assert_valid
from tests.wire.real_facade import ALPHA, factory

OPENAPI = Path(__file__).resolve().parents[2] / "contracts" / "openapi.json"


def registered() -> set[tuple[str, str]]:
    """(method, path) of every ``/api`` route of a serve gateway with writes on."""
    with in_process(mode="serve", enable_write=True) as (gateway, _):
        app = create_app(gateway).app
        return {
            (method, rule.rule)
            for rule in app.url_map.iter_rules()  # type: ignore[attr-defined]
            if rule.rule.startswith("/api")
            for method in rule.methods or ()
            if method in ("GET", "POST")
        }


def test_committed_openapi_matches_the_routes_and_contracts() -> None:
    assert OPENAPI.read_text(encoding="utf-8") == render(openapi_document()), (
        "contracts/openapi.json drifted; run scripts/gen_contracts.py and review the diff"
    )


def test_every_registered_route_is_in_the_table_and_the_document() -> None:
    routes = registered()
    assert routes == set(BY_ROUTE), "a route is missing from gno_adapters/rest/catalogue.py"
    document = openapi_document()
    assert document["openapi"] == "3.1.0"
    documented = {(m.upper(), p) for p, ops in document["paths"].items() for m in ops}
    assert documented == routes
    schemas = document["components"]["schemas"]
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    for route in ROUTES:
        operation = document["paths"][route.path][route.method.lower()]
        assert operation["summary"] == route.summary
        if route.source == "query":
            from gno_adapters.rest.openapi import _model

            model = _model(route.request or "")
            fields = [f.alias or name for name, f in model.model_fields.items()]
            names = [p["name"] for p in operation["parameters"]]
            assert names == fields + [old for old, _ in route.deprecated], route.path
            assert all(p["in"] == "query" for p in operation["parameters"])
        elif route.source == "body":
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            closed = schemas[body["$ref"].rsplit("/", 1)[-1]] if "$ref" in body else body
            assert closed["additionalProperties"] is False, route.path
        else:
            assert "parameters" not in operation and "requestBody" not in operation


def test_doc_names_uri_as_the_deprecated_alias_of_ref() -> None:
    params = openapi_document()["paths"]["/api/doc"]["get"]["parameters"]
    by_name = {p["name"]: p for p in params}
    assert by_name["uri"]["deprecated"] is True and "deprecated" not in by_name["ref"]
    # A document is named ``ref`` wherever one document is named in the query string.
    refs = {
        path
        for path, ops in openapi_document()["paths"].items()
        for op in ops.values()
        for p in op.get("parameters", [])
        if p["name"] == "ref"
    }
    assert refs == {
        "/api/doc",
        "/api/links",
        "/api/backlinks",
        "/api/graph/query",
        "/api/graph/neighbors",
        "/api/diff",
        "/api/impact",
    }


#: One valid call per route over the real facade's notes: (method, path, input, status).
CALLS: list[tuple[str, str, dict[str, Any], int]] = [
    ("GET", "/api", {}, 200),
    ("GET", "/api/openapi.json", {}, 200),
    ("GET", "/api/health", {}, 200),
    ("GET", "/api/resident/status", {}, 200),
    ("GET", "/api/status", {}, 200),
    ("POST", "/api/search", {"query": "foam"}, 200),
    ("POST", "/api/query", {"query": "foam ideas"}, 200),
    ("POST", "/api/query/diagnose", {"query": "foam", "target": ALPHA}, 200),
    ("POST", "/api/context", {"goal": "foam notes", "budgetTokens": 4000}, 200),
    # The capsule the call above compiled (filled in when it is sent).
    ("POST", "/api/context/verify", {"capsule": None}, 200),
    ("POST", "/api/section", {"action": "create", "ref": ALPHA, "anchor": "Alpha"}, 200),
    ("POST", "/api/ask", {"query": "what links ideas?", "verify": True}, 200),
    ("GET", "/api/doc", {"ref": ALPHA, "fromLine": 4}, 200),
    ("GET", "/api/doc", {"uri": ALPHA}, 200),
    ("GET", "/api/links", {"ref": "notes/alpha.md"}, 200),
    ("GET", "/api/backlinks", {"ref": ALPHA}, 200),
    ("GET", "/api/graph", {}, 200),
    ("GET", "/api/graph/query", {"ref": ALPHA}, 200),
    ("GET", "/api/graph/neighbors", {"ref": ALPHA}, 200),
    ("GET", "/api/graph/path", {"from": ALPHA, "to": ALPHA}, 200),
    ("GET", "/api/changes", {"limit": 5}, 200),
    ("GET", "/api/traces", {"limit": 5}, 200),
    ("GET", "/api/traces/show", {"traceId": "trc_" + "0" * 32}, 404),
    (
        "POST",
        "/api/traces/judgments",
        {"traceId": "trc_" + "0" * 32, "label": "relevant", "eventId": 1},
        404,
    ),
    ("POST", "/api/traces/delete", {"traceId": "trc_" + "0" * 32}, 200),
    ("POST", "/api/traces/purge", {"confirm": True}, 200),
    ("POST", "/api/traces/export", {"traceIds": ["trc_" + "0" * 32]}, 404),
    ("GET", "/api/diff", {"ref": ALPHA}, 200),
    ("GET", "/api/impact", {"ref": ALPHA}, 200),
    ("POST", "/api/audit", {"category": "links", "maxFindings": 5}, 200),
    ("POST", "/api/memory/recall", {"query": "foam", "collection": "notes", "scopes": ["t"]}, 200),
    (
        "POST",
        "/api/memory/remember",
        {"text": "We meet on Tuesdays.", "collection": "notes", "scopes": ["t"], "decision": "add"},
        200,
    ),
    ("POST", "/api/capture", {"collection": "notes", "content": "# New\n\nA note.\n"}, 201),
    ("POST", "/api/docs/rename", {"ref": ALPHA, "name": "gamma.md"}, 200),
    ("POST", "/api/docs/move", {"ref": ALPHA, "folderPath": "moved"}, 200),
    ("POST", "/api/docs/duplicate", {"ref": ALPHA}, 200),
    ("GET", "/api/egress/policy", {"collection": "notes"}, 200),
    (
        "POST",
        "/api/egress/check",
        {
            "collections": ["notes"],
            "action": "serve",
            "destinationZone": "lan",
            "caller": {"authenticated": True, "operationAuthorized": True},
            "contentClass": "snippet",
            "partialResults": "explicit",
        },
        200,
    ),
    ("GET", "/api/egress/audits", {"limit": 5}, 200),
    ("GET", "/api/egress/audits/status", {}, 200),
    ("GET", "/api/egress/audit", {"auditId": "0" * 32}, 404),
    ("POST", "/api/egress/policy", {"collection": "notes", "policy": "local_only"}, 200),
    ("POST", "/api/egress/audits/delete", {"auditId": "0" * 32}, 404),
    ("POST", "/api/egress/audits/purge", {"confirm": True}, 200),
    # Refused: the error answers validate too.
    ("GET", "/api/doc", {"ref": "notes/nope.md"}, 404),
    ("GET", "/api/doc", {"ref": ALPHA, "uri": "notes/other.md"}, 400),
    ("POST", "/api/search", {"query": "q", "colection": "x"}, 400),
]


def memory_notes() -> Any:
    """The real facade's notes in a collection that also keeps memory (recall, remember)."""
    from gno_adapters.bootstrap import build, in_memory
    from tests.wire.real_facade import NOTES

    made = in_memory(NOTES)
    config = made.config.load()
    first = config.collections[0].model_copy(update={"memory_managed": True})
    made.config.save(config.model_copy(update={"collections": [first]}))
    with build(made) as gno:
        gno.sync()
        gno.embed()
    return factory(made)


def answer_validator(document: dict[str, Any], method: str, path: str, status: int) -> Any:
    responses = document["paths"][path][method.lower()]["responses"]
    schema = responses.get(str(status), responses["default"])["content"]["application/json"]
    root = {**schema["schema"], "components": document["components"]}
    return Draft202012Validator(root)


def test_every_answer_validates_against_the_document() -> None:
    document = openapi_document()

    async def go() -> list[tuple[str, str, dict[str, Any], int, Any]]:
        out = []
        with in_process(mode="serve", enable_write=True, factory=memory_notes()) as (_, client):
            async with client:
                capsule: Any = None
                for method, path, listed, _status in CALLS:
                    given = {"capsule": capsule} if path == "/api/context/verify" else listed
                    if method == "POST":
                        response = await client.post(path, json=given)
                    else:
                        query = f"?{urlencode(given)}" if given else ""
                        response = await client.get(path + query)
                    out.append((method, path, given, response.status_code, response.json()))
                    if path == "/api/context":
                        capsule = response.json()
        return out

    answers = asyncio.run(go())
    covered = set()
    for (method, path, given, status, body), (*_, expected) in zip(answers, CALLS, strict=True):
        assert status == expected, (method, path, given, body)
        errors = list(answer_validator(document, method, path, status).iter_errors(body))
        assert not errors, (method, path, [e.message for e in errors[:5]])
        covered.add((method, path))
    assert covered == set(BY_ROUTE), "every route is called once with a valid input"
    index = answers[0][4]
    assert_valid("api-index", index)
    assert {(r["method"], r["path"]) for r in index["routes"]} == set(BY_ROUTE)
    served = answers[1][4]
    assert served == json.loads(render(document)), "the served document is the committed one"


@pytest.mark.parametrize("ref", [ALPHA, "notes/alpha.md", "#DOCID"])
def test_ref_takes_a_uri_a_collection_path_or_a_docid(ref: str) -> None:
    """Every route that names a document by ``ref`` takes the three forms."""
    from tests.wire.real_facade import docids

    ref = docids()["alpha"] if ref == "#DOCID" else ref
    paths = (
        "/api/doc",
        "/api/links",
        "/api/backlinks",
        "/api/graph/query",
        "/api/graph/neighbors",
        "/api/diff",
    )

    async def go() -> list[tuple[int, Any]]:
        with in_process(mode="serve") as (_, client):
            async with client:
                got = []
                for path in paths:
                    response = await client.get(f"{path}?{urlencode({'ref': ref})}")
                    got.append((response.status_code, response.json()))
                response = await client.post(
                    "/api/section", json={"action": "create", "ref": ref, "anchor": "Alpha"}
                )
                got.append((response.status_code, response.json()))
                return got

    for (status, body), path in zip(asyncio.run(go()), (*paths, "/api/section"), strict=True):
        assert status == 200, (path, body)


def test_the_routes_that_take_nothing_refuse_a_query_parameter() -> None:
    async def go() -> list[tuple[int, Any]]:
        with in_process(mode="serve") as (_, client):
            async with client:
                got = []
                for path in (
                    "/api",
                    "/api/openapi.json",
                    "/api/status",
                    "/api/egress/audits/status",
                ):
                    response = await client.get(f"{path}?colection=notes")
                    got.append((response.status_code, response.json()))
                return got

    for status, body in asyncio.run(go()):
        assert status == 400 and body["error"]["details"]["fields"] == ["colection"]
