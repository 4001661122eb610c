"""Test helpers for the resident gateway: a real Hypercorn on a free 127.0.0.1 port in a thread,
an in-process ASGI client with a chosen socket peer, and wire-request builders."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gno_adapters.http.app import create_app
from gno_adapters.http.egress import GateDecision
from gno_adapters.http.gateway import Gateway
from gno_adapters.http.runner import open_gateway, serve_gateway
from gno_adapters.http.settings import GatewaySettings
from gno_adapters.mcp.registry import ToolDef
from gno_core.egress.decision import CollectionPolicy, EgressRequest
from gno_core.egress.plan import plan
from gno_core.egress.receipts import ReceiptDraft, draft_of
from gno_core.egress.scope import sources_for
from tests.wire import real_facade
from tests.wire.real_facade import envelope

CONTRACTS = Path(__file__).resolve().parents[1] / "contracts"
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
ACCEPT = "application/json, text/event-stream"


Factory = Callable[[], Any]


class MemoryBook:
    """The gate's ``EgressBook`` over a dict: policies, an epoch, and the receipts the real
    store would keep (``draft_of`` the plan of each recorded decision), in order."""

    def __init__(self, policies: dict[str, str]) -> None:
        self.current = dict(policies)
        self.revision = 1
        self.receipts: list[ReceiptDraft] = []

    def set(self, policies: dict[str, str]) -> None:
        self.current = dict(policies)
        self.revision += 1

    def epoch(self) -> int:
        return self.revision

    def policies(self) -> list[CollectionPolicy]:
        return [
            CollectionPolicy(
                name, policy, "explicit" if policy != "local_only" else "config_default"
            )
            for name, policy in self.current.items()
        ]

    def record(self, decision: GateDecision) -> None:
        known = {p.collection: p for p in self.policies()}
        names = decision.collections or tuple(sorted(known))
        request = EgressRequest(
            collections=sources_for(names, known),
            action="serve",
            zone=decision.zone,
            content_class=decision.content_class,
            authenticated=decision.authenticated,
            authorized=True,
        )
        self.receipts.append(draft_of(plan(request, decision.partial), decision.operation))


def set_policy(gno: Any, collection: str, target: str) -> None:
    """Set ``collection``'s egress policy through the facade as the operator does: tighten at
    once, relax with the one-use confirmation of the current revision."""
    from gno_core.contracts.egress_requests import RelaxationConfirmationInput
    from gno_core.egress.values import POLICY_RANK

    state = gno.egress_policy_get(collection)
    confirmation = None
    if POLICY_RANK[target] > POLICY_RANK[state.effective_policy]:
        confirmation = RelaxationConfirmationInput(
            collection=collection,
            current_policy=state.effective_policy,
            current_revision=state.revision,
            target_policy=target,
            acknowledged=True,
        )
    gno.egress_policy_set(collection, target, confirmation)


class ServerThread:
    """A gateway served by Hypercorn on its own event loop in a thread; ``stop`` shuts it down
    gracefully and re-raises anything the server raised."""

    def __init__(self, gateway: Gateway, sock: Any) -> None:
        self.gateway = gateway
        self._sock = sock
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="gno-test-gateway", daemon=True)

    @property
    def port(self) -> int:
        return self.gateway.port

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.base + "/mcp"

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            await serve_gateway(self.gateway, self._sock, self._stop, ready=self._on_ready)

        try:
            asyncio.run(main())
        except BaseException as exc:
            self._error = exc
            self._ready.set()

    def _on_ready(self, gateway: Gateway) -> None:
        self._ready.set()

    def start(self) -> ServerThread:
        self._thread.start()
        assert self._ready.wait(20), "gateway did not start"
        if self._error is not None:
            raise self._error
        return self

    def request_stop(self) -> None:
        # A server a test already stopped has closed its loop: nothing left to ask.
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed between the check and the call
                self._loop.call_soon_threadsafe(self._stop.set)

    def stop(self) -> None:
        self.request_stop()
        self._thread.join(30)
        assert not self._thread.is_alive(), "gateway did not stop"
        if self._error is not None:
            raise self._error


@contextmanager
def served(
    settings: GatewaySettings | None = None,
    *,
    tools: tuple[ToolDef, ...] | None = None,
    factory: Factory | None = None,
    **changes: Any,
) -> Iterator[ServerThread]:
    """A real gateway on a free loopback port for the ``with`` block, over the real in-memory
    facade (``factory``: another one, e.g. ``FakeGno.factory()`` for slow calls)."""
    base = settings or GatewaySettings(port=0, workers=2)
    gateway, sock = open_gateway(
        replace(base, **changes), factory or real_facade.factory(), tools=tools
    )
    server = ServerThread(gateway, sock).start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def in_process(
    settings: GatewaySettings | None = None,
    *,
    peer: str = "127.0.0.1",
    port: int = 8765,
    tools: tuple[ToolDef, ...] | None = None,
    factory: Factory | None = None,
    **changes: Any,
) -> Iterator[tuple[Gateway, httpx.AsyncClient]]:
    """The gateway's ASGI app without a socket; ``peer`` is the socket address it sees. Over the
    real in-memory facade unless ``factory`` says otherwise."""
    base = settings or GatewaySettings(port=port, workers=2)
    gateway = Gateway(
        replace(base, **changes), factory or real_facade.factory(), port=port, tools=tools
    )
    try:
        yield gateway, client_for(gateway, peer)
    finally:
        gateway.close()


def client_for(gateway: Gateway, peer: str) -> httpx.AsyncClient:
    """An in-process client of ``gateway`` whose socket peer is ``peer``."""
    transport = httpx.ASGITransport(app=create_app(gateway), client=(peer, 40000))
    return httpx.AsyncClient(transport=transport, base_url=f"http://127.0.0.1:{gateway.port}")


def modern_headers(method: str, name: str | None = None, **extra: str) -> dict[str, str]:
    headers = {"Accept": ACCEPT, "MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    headers.update(extra)
    return headers


def modern_body(
    method: str, params: dict[str, Any] | None = None, rid: int | str | None = 1, **meta: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "jsonrpc": "2.0",
        "method": method,
        "params": {**(params or {}), "_meta": envelope(**meta)},
    }
    if rid is not None:
        body["id"] = rid
    return body


def initialize_body(version: str = LEGACY, rid: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "wire-test", "version": "1"},
        },
    }


def validate_contract(name: str, value: Any) -> None:
    schema = json.loads((CONTRACTS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(value)


def assert_refusal(response: httpx.Response, status: int, reason: str) -> dict[str, Any]:
    """A boundary refusal: the closed ``mcp-http-error@1.0`` body with this status and reason."""
    assert response.status_code == status, (response.status_code, response.text)
    body: dict[str, Any] = response.json()
    validate_contract("mcp-http-error", body)
    data = body["error"]["data"]
    assert {"status": data["status"], "reason": data["reason"]} == {
        "status": status,
        "reason": reason,
    }, body
    # Only an egress refusal carries more: its redacted evaluator audit.
    assert set(data) == (
        {"status", "reason", "egress"} if "egress" in data else {"status", "reason"}
    )
    assert ("egress" in data) == reason.startswith("egress_"), body
    return body
