"""Closed REST inputs (issue 23): every route refuses a field it does not take, in a JSON body
or in the query string, with 400 ``VALIDATION`` naming the field (``details.fields``), before
the facade is asked anything. Each case's input without the misspelled field reaches the facade,
so the refusal is the misspelled field's alone."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlencode

import pytest
from quart import Quart

from gno_adapters.rest import register_rest
from gno_core.surface import OPERATIONS
from tests.wire.test_rest_params import Runner

TYPO = "colection"
CAPSULE: dict[str, Any] = {"schemaVersion": "context-capsule-v1"}

#: (method, path, the smallest valid input: a JSON body for POST, query fields for GET)
ROUTES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", "/api/search", {"query": "q"}),
    ("POST", "/api/query", {"query": "q"}),
    ("POST", "/api/capture", {"collection": "notes", "content": "c"}),
    ("POST", "/api/docs/rename", {"ref": "notes/a.md", "name": "b.md"}),
    ("POST", "/api/docs/move", {"ref": "notes/a.md", "folderPath": "sub"}),
    ("POST", "/api/docs/duplicate", {"ref": "notes/a.md"}),
    ("POST", "/api/context", {"goal": "g", "budgetTokens": 1000}),
    ("POST", "/api/query/diagnose", {"query": "q", "target": "notes/a.md"}),
    ("POST", "/api/section", {"action": "create", "ref": "notes/a.md", "line": 1}),
    ("POST", "/api/ask", {"query": "q", "verify": True}),
    ("POST", "/api/context/verify", {"capsule": CAPSULE}),
    ("POST", "/api/memory/recall", {"query": "q"}),
    ("POST", "/api/memory/remember", {"text": "t"}),
    ("GET", "/api/doc", {"ref": "notes/a.md"}),
    ("GET", "/api/links", {"ref": "notes/a.md"}),
    ("GET", "/api/backlinks", {"ref": "notes/a.md"}),
    ("GET", "/api/graph", {}),
    ("GET", "/api/graph/query", {"ref": "notes/a.md"}),
    ("GET", "/api/graph/neighbors", {"ref": "notes/a.md"}),
    ("GET", "/api/graph/path", {"from": "notes/a.md", "to": "notes/b.md"}),
    ("GET", "/api/changes", {}),
    ("GET", "/api/traces", {}),
    ("GET", "/api/traces/show", {"traceId": "trc_x"}),
    ("POST", "/api/traces/judgments", {"traceId": "trc_x", "label": "relevant"}),
    ("POST", "/api/traces/delete", {"traceId": "trc_x"}),
    ("POST", "/api/traces/purge", {"confirm": True}),
    ("POST", "/api/traces/export", {"traceIds": ["trc_x"]}),
    ("GET", "/api/diff", {"ref": "notes/a.md"}),
    ("GET", "/api/impact", {"ref": "notes/a.md"}),
    ("POST", "/api/audit", {"category": "links"}),
    ("GET", "/api/egress/policy", {"collection": "notes"}),
    ("POST", "/api/egress/policy", {"collection": "notes", "policy": "local_only"}),
    (
        "POST",
        "/api/egress/check",
        {
            "action": "serve",
            "destinationZone": "lan",
            "caller": {"authenticated": True, "operationAuthorized": True},
            "contentClass": "snippet",
        },
    ),
    ("GET", "/api/egress/audits", {}),
    ("GET", "/api/egress/audit", {"auditId": "0" * 32}),
    ("POST", "/api/egress/audits/delete", {"auditId": "0" * 32}),
    ("POST", "/api/egress/audits/purge", {"confirm": True}),
]


class Wired:
    def wire(self) -> dict[str, Any]:
        return {}


class Recording:
    """A facade whose every method records its name and answers an empty contract."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        def method(*args: Any, **kwargs: Any) -> Wired:
            self.calls.append(name)
            return Wired()

        return method


def send(method: str, path: str, given: dict[str, Any]) -> tuple[int, Any, list[str]]:
    async def go() -> tuple[int, Any, list[str]]:
        app = Quart(__name__)
        facade = Recording()
        register_rest(app, Runner(facade), OPERATIONS, enable_write=True)
        test_client = app.test_client()
        if method == "POST":
            response = await test_client.post(path, json=given)
        else:
            response = await test_client.get(f"{path}?{urlencode(given)}" if given else path)
        return response.status_code, await response.get_json(), facade.calls

    return asyncio.run(go())


def test_every_rest_route_is_covered() -> None:
    app = Quart(__name__)
    register_rest(app, Runner(Recording()), OPERATIONS, enable_write=True)
    served = {rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")}
    # The routes that take no input refuse any (tests/wire/test_rest_openapi.py).
    taking_nothing = {"/api/status", "/api/openapi.json", "/api/egress/audits/status"}
    assert served - taking_nothing == {path for _, path, _ in ROUTES}


@pytest.mark.parametrize(("method", "path", "given"), ROUTES)
def test_a_misspelled_field_is_refused_naming_it_before_the_facade(
    method: str, path: str, given: dict[str, Any]
) -> None:
    status, _, calls = send(method, path, given)
    assert status in {200, 201}, (path, status)
    assert calls, path

    status, body, calls = send(method, path, {**given, TYPO: "foam"})
    assert status == 400, (path, status, body)
    assert body["error"]["code"] == "VALIDATION"
    assert TYPO in body["error"]["message"]
    assert body["error"]["details"]["fields"] == [TYPO]
    assert calls == []


def test_a_nested_unknown_field_is_refused_with_its_path() -> None:
    body = {"query": "q", "queryModes": [{"mode": "term", "text": "a", "weight": 2}]}
    status, answer, calls = send("POST", "/api/query", body)
    assert status == 400
    assert answer["error"]["details"]["fields"] == ["queryModes.0.weight"]
    assert calls == []


def test_a_refused_value_reads_as_the_rule_without_the_library_prefix() -> None:
    """pydantic words a validator's refusal ``Value error, ...``: REST, the CLI and MCP say
    the rule alone (``goal: goal must not be empty``)."""
    status, body, calls = send("POST", "/api/context", {"goal": "  ", "budgetTokens": 1000})
    assert status == 400 and calls == []
    assert body["error"]["message"] == "goal: goal must not be empty"


def test_the_cli_words_a_refused_value_the_same_way(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "GNO_CONFIG_DIR": str(tmp_path / "c"), "GNO_DATA_DIR": str(tmp_path / "d")}
    done = subprocess.run(
        [sys.executable, "-m", "gno_cli.main", "context", "  ", "--budget", "2000"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "Error: Invalid input: goal: goal must not be empty"
