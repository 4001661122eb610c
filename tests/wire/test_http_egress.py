"""Collection egress policy at the HTTP gateway (``gno_adapters.http.egress``), over the real
gateway app and the real facade of three collections, with callers at chosen socket peers:
what a LAN or remote peer gets of each collection, the partial answer of a ranked search that
mixes collections, refusals with the redacted audit, the epoch retry, and the property that no
answer ever carries content of a collection whose policy refuses the peer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.http.gateway import Gateway
from gno_adapters.http.settings import GatewaySettings
from gno_core.config import CollectionConfig, GnoConfig
from tests.http_support import (
    ACCEPT,
    MemoryBook,
    assert_refusal,
    client_for,
    initialize_body,
    set_policy,
    validate_contract,
)
from tests.wire import real_facade

TOKEN = "e" * 48
BEARER = {"Authorization": f"Bearer {TOKEN}"}
LAN_PEER = "192.168.7.20"
REMOTE_PEER = "203.0.113.9"
PEERS = {"loopback": "127.0.0.1", "lan": LAN_PEER, "remote": REMOTE_PEER}
COLLECTIONS = ("atlas", "bistro", "cobalt")
#: One word only each collection's notes hold; every note also says "quarterly".
MARK = {name: f"{name}mark" for name in COLLECTIONS}
REACHES = {"local_only": {"loopback"}, "lan": {"loopback", "lan"}, "remote": set(PEERS)}


def three_collections() -> Adapters:
    made = in_memory()
    tree: Any = made.tree  # the in-memory source tree: it can be written
    for name in COLLECTIONS:
        tree.mkdir(f"/{name}")
        for n in range(3):
            tree.write(
                f"/{name}/note-{n}.md",
                f"---\ntags: [{MARK[name]}-tag]\n---\n# {name} {n}\n\n"
                f"The quarterly {MARK[name]} note {n}.\n",
            )
    made.config.save(
        GnoConfig(collections=[CollectionConfig(name=n, path=f"/{n}") for n in COLLECTIONS])
    )
    with build(made) as gno:
        gno.sync()
        gno.embed()
    return made


def token_file(folder: Path) -> Path:
    """The bearer token a non-loopback gateway needs, readable by its owner only."""
    token = folder / "token"
    token.write_text(TOKEN)
    token.chmod(0o600)
    return token


def lan_settings(folder: Path, workers: int = 2) -> GatewaySettings:
    """A gateway that takes LAN callers: every interface, the bearer, exact Host and Origin."""
    return GatewaySettings(
        port=8765,
        workers=workers,
        host="0.0.0.0",
        token_file=token_file(folder),
        allowed_hosts=("127.0.0.1:8765",),
        allowed_origins=("http://127.0.0.1:8765",),
        rate_limit_per_minute=0,
    )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Gateway, MemoryBook]]:
    made = three_collections()
    book = MemoryBook(dict.fromkeys(COLLECTIONS, "local_only"))
    settings = lan_settings(tmp_path_factory.mktemp("egress"))
    gateway = Gateway(settings, lambda: build(made), port=8765, egress_book=lambda _: book)
    try:
        yield gateway, book
    finally:
        gateway.close()


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"method": "tools/call", "params": {"name": name, "arguments": arguments}}


def ask(gateway: Gateway, peer: str, message: dict[str, Any]) -> httpx.Response:
    """One sessionless (2026-07-28) request from ``peer``."""
    from tests.http_support import modern_body, modern_headers

    params = dict(message.get("params", {}))
    name = params.get("name") or params.get("uri")
    body = modern_body(message["method"], params)

    async def go() -> httpx.Response:
        async with client_for(gateway, peer) as client:
            headers = modern_headers(message["method"], name, **BEARER)
            return await client.post("/mcp", json=body, headers=headers)

    return asyncio.run(go())


def result_of(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body = response.json()
    assert "result" in body, body
    return dict(body["result"])


def test_a_lan_peer_gets_only_the_lan_collections_hits(
    served: tuple[Gateway, MemoryBook],
) -> None:
    gateway, book = served
    book.set({"atlas": "local_only", "bistro": "lan", "cobalt": "remote"})
    before = len(book.receipts)
    result = result_of(ask(gateway, LAN_PEER, call("gno_search", query="quarterly", limit=20)))
    text = json.dumps(result)
    assert MARK["atlas"] not in text and "gno://atlas/" not in text
    assert MARK["bistro"] in text and MARK["cobalt"] in text
    uris = {hit["uri"].split("/")[2] for hit in result["structuredContent"]["results"]}
    assert uris == {"bistro", "cobalt"}
    disclosure = result["_meta"]["gno/egress"]
    assert disclosure["mode"] == "partial"
    assert disclosure["omittedCollections"] == [
        {"collection": "atlas", "reason": "POLICY_LOCAL_ONLY"}
    ]
    # The model-visible text is rendered again from what is left.
    assert result["content"][0]["text"].startswith('Found 6 results for "quarterly"')
    (receipt,) = book.receipts[before:]
    assert receipt.mode == "partial" and receipt.decision == "allow" and receipt.zone == "lan"
    assert receipt.omitted == (("atlas", "POLICY_LOCAL_ONLY"),)
    assert receipt.collections == ("bistro", "cobalt") and receipt.operation == "gno_search"
    assert "quarterly" not in repr(book.receipts)  # content-free: no query, no text


def test_a_loopback_caller_is_never_filtered_and_leaves_no_receipt(
    served: tuple[Gateway, MemoryBook],
) -> None:
    gateway, book = served
    book.set(dict.fromkeys(COLLECTIONS, "local_only"))
    before = len(book.receipts)
    result = result_of(ask(gateway, "127.0.0.1", call("gno_search", query="quarterly", limit=20)))
    assert all(MARK[name] in json.dumps(result) for name in COLLECTIONS)
    assert "_meta" not in result or "gno/egress" not in result["_meta"]
    assert len(book.receipts) == before


def test_naming_a_refused_collection_is_refused_whole_with_the_audit(
    served: tuple[Gateway, MemoryBook],
) -> None:
    gateway, book = served
    book.set({"atlas": "local_only", "bistro": "lan", "cobalt": "remote"})
    for peer, message, omitted, reason in (
        (
            LAN_PEER,
            call("gno_search", query="quarterly", collection="atlas"),
            ["atlas"],
            "POLICY_LOCAL_ONLY",
        ),
        (LAN_PEER, call("gno_get", ref="gno://atlas/note-0.md"), ["atlas"], "POLICY_LOCAL_ONLY"),
        (REMOTE_PEER, call("gno_get", ref="gno://bistro/note-0.md"), ["bistro"], "POLICY_LAN_ONLY"),
        (
            LAN_PEER,
            {"method": "resources/read", "params": {"uri": "gno://atlas/note-1.md"}},
            ["atlas"],
            "POLICY_LOCAL_ONLY",
        ),
        # A tool whose answer cannot be split per collection, over an unnamed mixed scope.
        (LAN_PEER, call("gno_list_tags"), ["atlas"], "POLICY_LOCAL_ONLY"),
    ):
        response = ask(gateway, peer, message)
        body = assert_refusal(response, 403, "egress_denied")
        egress = body["error"]["data"]["egress"]
        assert egress["code"] == "EGRESS_DENIED" and egress["reason"] == reason, body
        assert [o["collection"] for o in egress["omittedCollections"]] == omitted
        assert egress["audit"]["destinationZone"] == ("lan" if peer == LAN_PEER else "remote")
        assert egress["remediation"]["code"] == reason
        assert MARK["atlas"] not in response.text and "quarterly" not in response.text
        assert book.receipts[-1].mode == "denied" and book.receipts[-1].decision == "deny"
        # Nothing went: the receipt withholds the whole scope, the named ones among it.
        assert set(omitted) <= {c for c, _ in book.receipts[-1].omitted}


def test_a_docid_reference_is_held_to_the_collection_of_the_answer(
    served: tuple[Gateway, MemoryBook],
) -> None:
    gateway, book = served
    book.set({"atlas": "local_only", "bistro": "lan", "cobalt": "remote"})
    local = result_of(ask(gateway, "127.0.0.1", call("gno_search", query="quarterly", limit=20)))
    docid = {h["uri"].split("/")[2]: h["docid"] for h in local["structuredContent"]["results"]}
    assert_refusal(
        ask(gateway, LAN_PEER, call("gno_get", ref=docid["atlas"])), 403, "egress_denied"
    )
    shared = result_of(ask(gateway, LAN_PEER, call("gno_get", ref=docid["bistro"])))
    assert MARK["bistro"] in json.dumps(shared)


def test_an_answer_admitted_under_an_older_epoch_is_replaced_by_the_retry(
    served: tuple[Gateway, MemoryBook],
) -> None:
    gateway, book = served
    book.set(dict.fromkeys(COLLECTIONS, "remote"))
    before = len(book.receipts)
    real = gateway.pool.get  # the policy changes while the search runs on its worker

    class Changing:
        def __init__(self, facade: Any) -> None:
            self._facade = facade

        def __getattr__(self, name: str) -> Any:
            return getattr(self._facade, name)

        def search(self, request: Any) -> Any:
            found = self._facade.search(request)
            book.set(dict.fromkeys(COLLECTIONS, "local_only"))
            return found

    gateway.pool.get = lambda: Changing(real())  # type: ignore[method-assign]
    try:
        response = ask(gateway, LAN_PEER, call("gno_search", query="quarterly"))
    finally:
        gateway.pool.get = real  # type: ignore[method-assign]
    body = assert_refusal(response, 409, "egress_policy_changed")
    assert body["error"]["data"]["egress"]["code"] == "EGRESS_POLICY_CHANGED"
    assert response.headers["retry-after"] == "1"
    assert all(MARK[name] not in response.text for name in COLLECTIONS)
    assert "quarterly" not in response.text
    assert len(book.receipts) == before  # no decision on content: nothing to keep


def test_the_refusal_bodies_follow_the_closed_contract(served: tuple[Gateway, MemoryBook]) -> None:
    gateway, book = served
    book.set(dict.fromkeys(COLLECTIONS, "local_only"))
    response = ask(gateway, REMOTE_PEER, call("gno_search", query="quarterly"))
    body = assert_refusal(response, 403, "egress_denied")
    validate_contract("mcp-http-error", body)
    assert body["error"]["message"] == "Operation blocked by collection egress policy"


MESSAGES = [
    call("gno_search", query="quarterly", limit=20),
    call("gno_query", query="quarterly", limit=20),
    call("gno_vsearch", query="quarterly", limit=20),
    call("gno_search", query="quarterly", collection="bistro"),
    call("gno_multi_get", pattern="*/note-1.md"),
    call("gno_get", ref="gno://cobalt/note-2.md"),
    call("gno_list_tags"),
    call("gno_status"),
    call("gno_context", goal="quarterly notes", budgetTokens=4000),
    call(
        "gno_context", goal="quarterly notes", budgetTokens=4000, collections=["bistro", "cobalt"]
    ),
    call("gno_ask", query="quarterly note", verify=True),
    call("gno_ask", query="quarterly note", verify=True, collection="cobalt"),
    {"method": "resources/read", "params": {"uri": "gno://atlas/note-0.md"}},
    {"method": "resources/read", "params": {"uri": "gno://tags"}},
    {"method": "resources/read", "params": {"uri": "gno://tags?collection=bistro"}},
    {"method": "resources/list", "params": {}},
]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    policies=st.lists(st.sampled_from(["local_only", "lan", "remote"]), min_size=3, max_size=3),
    zone=st.sampled_from(sorted(PEERS)),
    message=st.sampled_from(MESSAGES),
)
def test_no_answer_carries_content_of_a_collection_that_may_not_go(
    served: tuple[Gateway, MemoryBook], policies: list[str], zone: str, message: dict[str, Any]
) -> None:
    gateway, book = served
    book.set(dict(zip(COLLECTIONS, policies, strict=True)))
    assert_nothing_refused_went(ask(gateway, PEERS[zone], message), policies, zone)


def assert_nothing_refused_went(response: httpx.Response, policies: list[str], zone: str) -> None:
    """``response`` is an answer or a refusal, and holds no mark nor URI of a collection whose
    policy (``policies``, in ``COLLECTIONS`` order) refuses ``zone``."""
    assert response.status_code in (200, 403), response.text
    for name, policy in zip(COLLECTIONS, policies, strict=True):
        if zone not in REACHES[policy]:
            assert MARK[name] not in response.text, (name, policy, zone, response.text[:400])
            assert f"gno://{name}/" not in response.text


def rest(
    gateway: Gateway, method: str, path: str, *, proxied: bool, **kwargs: Any
) -> httpx.Response:
    """One REST request from loopback, relayed by a same-host proxy when ``proxied``."""
    headers = {**BEARER, **({"X-Forwarded-For": "198.51.100.4"} if proxied else {})}

    async def go() -> httpx.Response:
        async with client_for(gateway, "127.0.0.1") as client:
            return await client.request(method, path, headers=headers, **kwargs)

    return asyncio.run(go())


def test_rest_through_a_proxy_is_a_remote_destination(
    served: tuple[Gateway, MemoryBook],
) -> None:
    gateway, book = served
    book.set({"atlas": "local_only", "bistro": "lan", "cobalt": "remote"})
    direct = rest(
        gateway, "POST", "/api/search", proxied=False, json={"query": "quarterly", "limit": 20}
    )
    assert direct.status_code == 200 and all(MARK[n] in direct.text for n in COLLECTIONS)

    mixed = rest(gateway, "POST", "/api/search", proxied=True, json={"query": "quarterly"})
    assert mixed.status_code == 403, mixed.text
    error = mixed.json()["error"]
    assert error["code"] == "EGRESS_DENIED"
    assert [o["collection"] for o in error["details"]["omittedCollections"]] == ["atlas", "bistro"]
    assert error["details"]["audit"]["destinationZone"] == "remote"
    assert all(MARK[n] not in mixed.text for n in COLLECTIONS)

    named = rest(
        gateway,
        "POST",
        "/api/search",
        proxied=True,
        json={"query": "quarterly", "collection": "cobalt"},
    )
    assert named.status_code == 200, named.text
    assert MARK["cobalt"] in named.text
    assert MARK["atlas"] not in named.text and MARK["bistro"] not in named.text
    validate_contract("search-results", named.json())

    doc = rest(gateway, "GET", "/api/doc", proxied=True, params={"ref": "gno://bistro/note-0.md"})
    assert doc.status_code == 403 and doc.json()["error"]["details"]["reason"] == "POLICY_LAN_ONLY"
    assert MARK["bistro"] not in doc.text
    assert book.receipts[-1].mode == "denied" and book.receipts[-1].operation == "gno_get"


def test_a_stream_opened_before_a_policy_change_ends_with_the_retry_event(
    tmp_path: Path,
) -> None:
    """A 2025-era GET stream of a LAN session: the epoch it opened under is checked before
    every keepalive; after a change it carries the content-free retry event and ends."""
    book = MemoryBook({"notes": "lan"})
    settings = GatewaySettings(
        port=8765,
        workers=2,
        token_file=token_file(tmp_path),
        keepalive_seconds=0.05,
        rate_limit_per_minute=0,
    )
    gateway = Gateway(settings, real_facade.factory(), port=8765, egress_book=lambda _: book)

    async def go() -> tuple[str, httpx.Response]:
        async with client_for(gateway, LAN_PEER) as client:
            headers = {"Accept": ACCEPT, **BEARER}
            opened = await client.post("/mcp", json=initialize_body(), headers=headers)
            sid = opened.headers["mcp-session-id"]
            headers["Mcp-Session-Id"] = sid
            await client.post(
                "/mcp",
                json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                headers=headers,
            )
            asyncio.get_running_loop().call_later(0.3, book.set, {"notes": "local_only"})
            stream = await client.get("/mcp", headers={**headers, "Accept": "text/event-stream"})
            search = {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "gno_search", "arguments": {"query": "foam"}},
            }
            after = await client.post("/mcp", json=search, headers=headers)
            return stream.text, after

    try:
        text, after = asyncio.run(go())
    finally:
        gateway.close()
    assert text.startswith(": stream open\n\n: keepalive\n\n"), text
    assert text.endswith(
        'event: egress_policy_changed\ndata: {"code":"EGRESS_POLICY_CHANGED","retry":true}\n\n'
    ), text
    assert "foam" not in text.lower()
    # The session is still the caller's, but its next request is judged under the new policy.
    assert_refusal(after, 403, "egress_denied")
    assert "Foam" not in after.text


def test_web_pages_through_a_proxy_are_held_like_rest(served: tuple[Gateway, MemoryBook]) -> None:
    gateway, book = served
    book.set({"atlas": "local_only", "bistro": "lan", "cobalt": "remote"})
    local = rest(gateway, "GET", "/search", proxied=False, params={"q": "quarterly"})
    assert local.status_code == 200 and MARK["atlas"] in local.text
    mixed = rest(gateway, "GET", "/search", proxied=True, params={"q": "quarterly"})
    assert mixed.status_code == 403 and mixed.json()["error"]["code"] == "EGRESS_DENIED"
    assert all(MARK[n] not in mixed.text for n in COLLECTIONS)
    named = rest(
        gateway, "GET", "/search", proxied=True, params={"q": "quarterly", "collection": "cobalt"}
    )
    assert named.status_code == 200, named.text
    assert MARK["cobalt"] in named.text and MARK["atlas"] not in named.text
    page = rest(gateway, "GET", "/doc", proxied=True, params={"ref": "gno://atlas/note-0.md"})
    assert page.status_code == 403 and MARK["atlas"] not in page.text
    assert rest(gateway, "GET", "/", proxied=True).status_code == 403  # status of every one


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    """The gateway over the facade's own policy store (``facade_book``: effective policies,
    epoch and receipts of the in-memory index), not a test book."""
    made = three_collections()
    settings = lan_settings(tmp_path_factory.mktemp("egress-store"))
    gateway = Gateway(settings, lambda: build(made), port=8765)
    try:
        yield gateway
    finally:
        gateway.close()


def store_policies(gateway: Gateway, policies: dict[str, str]) -> None:
    """Set each collection's policy through the facade: tighten at once, relax confirmed."""

    def apply() -> None:
        gno: Any = gateway.pool.get()
        for name, target in policies.items():
            set_policy(gno, name, target)

    async def run() -> None:
        await gateway.pool.run(apply, write=True)

    asyncio.run(run())


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    policies=st.lists(st.sampled_from(["local_only", "lan", "remote"]), min_size=3, max_size=3),
    zone=st.sampled_from(sorted(PEERS)),
    message=st.sampled_from(MESSAGES),
)
def test_over_the_policy_store_no_answer_carries_a_refused_collection(
    stored: Gateway, policies: list[str], zone: str, message: dict[str, Any]
) -> None:
    store_policies(stored, dict(zip(COLLECTIONS, policies, strict=True)))
    assert_nothing_refused_went(ask(stored, PEERS[zone], message), policies, zone)


@pytest.fixture(scope="module")
def citing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Gateway, MemoryBook]]:
    """Two collections: ``cobalt``'s note cites ``gno://atlas/note-0.md`` in its own text."""
    folder = tmp_path_factory.mktemp("egress-citing")
    made = in_memory()
    tree: Any = made.tree
    for name in ("atlas", "cobalt"):
        tree.mkdir(f"/{name}")
    tree.write("/atlas/note-0.md", f"# atlas 0\n\nThe quarterly {MARK['atlas']} note.\n")
    tree.write(
        "/cobalt/note-0.md",
        f"# cobalt 0\n\nThe quarterly {MARK['cobalt']} note; see gno://atlas/note-0.md.\n",
    )
    made.config.save(
        GnoConfig(collections=[CollectionConfig(name=n, path=f"/{n}") for n in ("atlas", "cobalt")])
    )
    with build(made) as gno:
        gno.sync()
    book = MemoryBook({"atlas": "local_only", "cobalt": "remote"})
    settings = lan_settings(folder, workers=1)
    gateway = Gateway(settings, lambda: build(made), port=8765, egress_book=lambda _: book)
    try:
        yield gateway, book
    finally:
        gateway.close()


def test_a_note_that_cites_a_refused_collection_in_its_text_still_goes(
    citing: tuple[Gateway, MemoryBook],
) -> None:
    # The collections of an answer are the documents it is made of (its references), not
    # whatever its notes' text mentions: the cobalt note is cobalt's content.
    gateway, _ = citing
    ranked = result_of(ask(gateway, LAN_PEER, call("gno_search", query="quarterly", limit=20)))
    (hit,) = ranked["structuredContent"]["results"]
    assert hit["uri"] == "gno://cobalt/note-0.md"
    assert ranked["_meta"]["gno/egress"]["omittedCollections"] == [
        {"collection": "atlas", "reason": "POLICY_LOCAL_ONLY"}
    ]
    assert MARK["atlas"] not in json.dumps(ranked)
    named = result_of(
        ask(gateway, LAN_PEER, call("gno_search", query="quarterly", collection="cobalt"))
    )
    assert [h["uri"] for h in named["structuredContent"]["results"]] == ["gno://cobalt/note-0.md"]
    doc = result_of(ask(gateway, LAN_PEER, call("gno_get", ref="gno://cobalt/note-0.md")))
    assert "see gno://atlas/note-0.md" in json.dumps(doc) and MARK["atlas"] not in json.dumps(doc)
    page = rest(gateway, "GET", "/api/doc", proxied=True, params={"ref": "gno://cobalt/note-0.md"})
    assert page.status_code == 200, page.text
    # A docid reference is still held to the collection of the document it answers.
    local = result_of(ask(gateway, "127.0.0.1", call("gno_search", query="quarterly", limit=20)))
    docids = {h["uri"].split("/")[2]: h["docid"] for h in local["structuredContent"]["results"]}
    assert_refusal(
        ask(gateway, LAN_PEER, call("gno_get", ref=docids["atlas"])), 403, "egress_denied"
    )
    assert result_of(ask(gateway, LAN_PEER, call("gno_get", ref=docids["cobalt"])))
