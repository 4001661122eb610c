"""REST request fields come from the request models: ``/api/doc`` reads the ``GetRequest``
fields from the query string by alias, and ``/api/search`` takes exactly ``SearchRequest``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from quart import Quart

from gno_adapters.rest import register_rest

T = TypeVar("T")


class Wired:
    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload

    def wire(self) -> dict[str, Any]:
        return self.payload


class FakeFacade:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def get(self, ref: str, *, from_line: int | None = None, line_count: int | None = None) -> Any:
        self.calls.append(("get", (ref, from_line, line_count)))
        return Wired({"ref": ref})

    def search(self, request: Any) -> Any:
        self.calls.append(("search", request))
        return Wired({"results": []})

    def status(self) -> Any:
        return Wired({})


class Runner:
    """Runs each route's facade call inline (shared by the REST wire tests)."""

    def __init__(self, facade: Any) -> None:
        self.facade = facade

    def get(self) -> Any:
        return self.facade

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        return fn()


def client() -> tuple[Any, FakeFacade]:
    app = Quart(__name__)
    facade = FakeFacade()
    register_rest(app, Runner(facade), {"get", "search", "status"})
    return app.test_client(), facade


def run(path: str, *, body: Any = None) -> tuple[int, Any, FakeFacade]:
    async def go() -> tuple[int, Any, FakeFacade]:
        test_client, facade = client()
        if body is None:
            response = await test_client.get(path)
        else:
            response = await test_client.post(path, json=body)
        return response.status_code, await response.get_json(), facade

    return asyncio.run(go())


def test_doc_reads_the_get_request_fields_by_alias() -> None:
    status, _, facade = run("/api/doc?ref=%23abc123&fromLine=2&lineCount=3")
    assert status == 200
    assert facade.calls == [("get", ("#abc123", 2, 3))]
    status, _, facade = run("/api/doc?uri=gno://notes/a.md&fromLine=")
    assert status == 200
    assert facade.calls == [("get", ("gno://notes/a.md", None, None))]


def test_doc_refuses_bad_fields_as_validation() -> None:
    for query in ("fromLine=abc", "lineCount=0", ""):
        status, body, facade = run(f"/api/doc?{query}" + ("&ref=x" if query else ""))
        assert status == 400, query
        assert body["error"]["code"] == "VALIDATION"
        assert facade.calls == []


def test_search_takes_the_model_fields_by_alias_and_nothing_else() -> None:
    status, _, facade = run("/api/search", body={"query": "q", "tagsAll": ["a"], "pathPrefix": "p"})
    assert status == 200
    ((_, request),) = facade.calls
    assert (request.query, request.tags_all, request.path_prefix) == ("q", ["a"], "p")
    status, body, facade = run("/api/search", body={"query": "q", "projectHints": ["/x"]})
    assert status == 400 and body["error"]["code"] == "VALIDATION"
