"""Recall over the real ``Gno`` on the in-memory adapters: the Python API, ``gno_recall`` in
both protocol eras and ``POST /api/memory/recall``; contracts validated, ``MEMORY_*`` codes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from quart import Quart

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.rest import register_rest
from gno_core.contracts.memory_requests import RecallRequest
from gno_core.errors import MEMORY_ERRORS
from gno_core.facade import Gno
from gno_core.fact_files import (
    content_hash,
    fact_path,
    fact_record_id,
    normalize_fact_text,
    render_fact,
)
from gno_core.facts import FactRecord, MemoryIdentity
from gno_core.memory.receipts import Receipt
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

T = TypeVar("T")
CREATED = "2026-12-01T09:00:00Z"
ME = MemoryIdentity(caller="cli:test", session="s-1")


def fact(text: str, *scopes: str, supersedes: tuple[str, ...] = ()) -> tuple[str, str]:
    """A fact file as ``remember`` writes it: (its relPath, its text)."""
    normal = normalize_fact_text(text)
    digest = content_hash(normal)
    record = FactRecord(
        record_id="",
        text=normal,
        scopes=scopes,
        caller="cli:test",
        session="s-0",
        created_at=CREATED,
        content_hash=digest,
        supersedes=supersedes,
    )
    record = replace(record, record_id=fact_record_id(record))
    return fact_path(CREATED, record.record_id), render_fact(record)


OLD_TEAM = fact("The team standup is at 9:00", "team")
NEW_TEAM = fact(
    "The team standup moved to 10:00", "team", supersedes=(f"gno://notes/{OLD_TEAM[0]}",)
)
NOTES = dict(
    [
        OLD_TEAM,
        NEW_TEAM,
        fact("The family standup is at 8:00", "home"),
        ("facts/2026-12-01/mem-0000000000000004.md", "---\nmemory: [broken\n---\nstandup notes\n"),
        ("standup.md", "# Standup\n\nAn ordinary note about the standup.\n"),
    ]
)


def made(memory: bool = True, *, embedder: bool = True) -> Adapters:
    adapters = in_memory(NOTES, embedder=embedder)
    config = adapters.config.load()
    first = config.collections[0].model_copy(update={"memory_managed": memory})
    adapters.config.save(config.model_copy(update={"collections": [first]}))
    with build(adapters) as gno:
        gno.sync()
        if embedder:
            gno.embed()
    return adapters


@pytest.fixture(scope="module")
def adapters() -> Adapters:
    return made()


def recall(gno: Gno, **fields: Any) -> Any:
    return gno.recall(RecallRequest.model_validate(fields), ME)


def test_recall_returns_only_current_facts_of_the_named_scopes(adapters: Adapters) -> None:
    with build(adapters) as gno:
        out = recall(gno, query="when is the standup", collection="notes", scopes=["team"])
        assert_valid("memory-recall", out.wire())
        assert [f.text for f in out.facts] == ["The team standup moved to 10:00"]
        (got,) = out.facts
        assert got.uri == f"gno://notes/{NEW_TEAM[0]}"
        assert got.supersedes == [f"gno://notes/{OLD_TEAM[0]}"]
        assert got.span_hash == got.content_hash == content_hash(got.text)
        assert out.receipt.memory_ids == [got.docid]
        assert out.receipt.span_hashes == [got.content_hash]
        assert out.receipt.digest == Receipt.from_wire(out.receipt.wire()).digest
        assert (out.receipt.caller, out.receipt.session) == ("cli:test", "s-1")
        assert out.retrieval.mode == "hybrid" and out.hint is None
        both = recall(gno, query="standup", collection="notes", scopes=["home", "team"])
        assert sorted(f.text for f in both.facts) == [
            "The family standup is at 8:00",
            "The team standup moved to 10:00",
        ]
        none = recall(gno, query="standup", collection="notes", scopes=["work"])
        assert none.facts == [] and none.hint is not None and "gno remember" in none.hint
        tight = recall(
            gno, query="standup", collection="notes", scopes=["home", "team"], maxFacts=1
        )
        assert len(tight.facts) == 1 and tight.budget.omitted == 1
        status = gno.status()
        assert status.total_documents == 5  # the broken fact and the note stay searchable


def test_recall_errors_have_their_memory_codes(adapters: Adapters) -> None:
    cases = {
        "MEMORY_QUERY_REQUIRED": {"query": "  ", "collection": "notes", "scopes": ["team"]},
        "MEMORY_COLLECTION_REQUIRED": {"query": "x", "scopes": ["team"]},
        "MEMORY_COLLECTION_NOT_FOUND": {"query": "x", "collection": "nope", "scopes": ["a"]},
        "MEMORY_SCOPES_REQUIRED": {"query": "x", "collection": "notes"},
        "MEMORY_SCOPES_INVALID": {"query": "x", "collection": "notes", "scopes": ["a b"]},
        "MEMORY_BUDGET_INVALID": {
            "query": "x",
            "collection": "notes",
            "scopes": ["a"],
            "maxTokens": 9000,
        },
    }
    with build(adapters) as gno:
        for code, fields in cases.items():
            with pytest.raises(MEMORY_ERRORS[code]):
                recall(gno, **fields)
    with (
        build(made(memory=False)) as plain,
        pytest.raises(MEMORY_ERRORS["MEMORY_COLLECTION_UNMANAGED"]),
    ):
        recall(plain, query="x", collection="notes", scopes=["team"])


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_gno_recall_in_both_eras(adapters: Adapters, era: str) -> None:
    peer = Peer(facade=lambda: build(adapters))
    if era == "modern":
        peer.modern("server/discover")
    else:
        peer.initialize()

    def call(**arguments: Any) -> dict[str, Any]:
        params = {"name": "gno_recall", "arguments": arguments}
        response = (
            peer.modern("tools/call", params)
            if era == "modern"
            else peer.request("tools/call", params)
        )
        result: dict[str, Any] = response["result"]
        return result

    out = call(query="standup", collection="notes", scopes=["team"])
    assert_valid("memory-recall", out["structuredContent"])
    assert out["content"][0]["text"].startswith("1 fact (")
    receipt = out["structuredContent"]["receipt"]
    # Identity comes from the transport: the client's name, the server's instance on stdio.
    assert receipt["caller"] == ("wire-test" if era == "modern" else "t")
    assert receipt["session"].startswith("mcp:")
    assert call(query="standup", collection="notes")["isError"] is True  # schema: scopes
    refused = call(query="standup", collection="nope", scopes=["team"])
    assert refused["isError"] is True
    assert refused["_meta"]["gno/error"] == {"code": "MEMORY_COLLECTION_NOT_FOUND"}


class _Runner:
    def __init__(self, factory: Callable[[], Gno]) -> None:
        self.factory = factory

    def get(self) -> Gno:
        return self.factory()

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        return fn()


def test_rest_recall(adapters: Adapters) -> None:
    app = Quart(__name__)
    register_rest(app, _Runner(lambda: build(adapters)))

    async def go() -> list[tuple[int, Any]]:
        client = app.test_client()
        out = []
        for body in (
            {"query": "standup", "collection": "notes", "scopes": ["home"]},
            {"query": "standup", "collection": "nope", "scopes": ["home"]},
            {"query": "standup", "collection": "notes"},
        ):
            response = await client.post("/api/memory/recall", json=body)
            out.append((response.status_code, await response.get_json()))
        return out

    ok, missing, no_scope = asyncio.run(go())
    assert ok[0] == 200
    assert_valid("memory-recall", ok[1])
    assert [f["text"] for f in ok[1]["facts"]] == ["The family standup is at 8:00"]
    assert ok[1]["receipt"]["caller"] == "rest"
    assert missing[0] == 404 and missing[1]["error"]["code"] == "MEMORY_COLLECTION_NOT_FOUND"
    assert no_scope[0] == 400 and no_scope[1]["error"]["code"] == "MEMORY_SCOPES_REQUIRED"


def test_remember_candidates_add_supersede_and_fencing() -> None:
    from gno_core.contracts.memory_requests import RememberRequest

    adapters = made(embedder=False)  # lexical matching and recall: exact expectations
    me = MemoryIdentity(caller="agent", session="s-9")

    def remember(gno: Gno, **fields: Any) -> Any:
        fields.setdefault("collection", "notes")
        fields.setdefault("scopes", ["team"])
        out = gno.remember(RememberRequest.model_validate(fields), me)
        assert_valid("memory-remember", out.wire())
        return out

    with build(adapters) as gno:
        offered = "The team retro is on Fridays"
        first = remember(gno, text=offered)
        assert first.outcome == "candidates" and first.abs_path is None
        added = remember(gno, text=offered, decision="add", source="retro planning")
        assert added.outcome == "added" and added.sync.status == "completed"
        assert added.record.caller == "agent" and added.record.source == "retro planning"
        assert added.record.uri.startswith("gno://notes/facts/")
        again = remember(gno, text="  The team retro is on   Fridays ", decision="add")
        assert again.outcome == "existing" and again.record.uri == added.record.uri
        # Searchable at once, and recalled.
        hit = recall(gno, query="retro", collection="notes", scopes=["team"])
        assert [f.text for f in hit.facts] == [offered]
        near = remember(gno, text="The team retro is on Thursdays")
        assert near.outcome == "candidates"
        top = near.candidates[0]
        assert top.uri == added.record.uri and top.match in ("likely", "weak")
        newer = remember(
            gno,
            text="The team retro is on Thursdays",
            decision="supersede",
            predecessorUri=top.uri,
            predecessorHash=top.content_hash,
        )
        assert newer.outcome == "superseded" and newer.record.supersedes == [top.uri]
        hit = recall(gno, query="retro", collection="notes", scopes=["team"])
        assert [f.text for f in hit.facts] == ["The team retro is on Thursdays"]
        # The loser of a race: the predecessor already has a successor.
        with pytest.raises(MEMORY_ERRORS["MEMORY_SUPERSEDE_CONFLICT"]):
            remember(
                gno,
                text="The team retro is on Mondays",
                decision="supersede",
                predecessorUri=top.uri,
                predecessorHash=top.content_hash,
            )
        with pytest.raises(MEMORY_ERRORS["MEMORY_PREDECESSOR_HASH_MISMATCH"]):
            remember(
                gno,
                text="The team retro is on Mondays",
                decision="supersede",
                predecessorUri=newer.record.uri,
                predecessorHash="0" * 64,
            )
        with pytest.raises(MEMORY_ERRORS["MEMORY_PREDECESSOR_REQUIRED"]):
            remember(gno, text="x y", decision="supersede")
        with pytest.raises(MEMORY_ERRORS["MEMORY_DECISION_INVALID"]):
            remember(gno, text="x y", decision="maybe")
        # Fencing: replaying recalled text, or declaring a gno:// origin.
        receipt = hit.receipt.wire()
        with pytest.raises(MEMORY_ERRORS["MEMORY_FENCED_REPLAY"]):
            remember(gno, text="The team retro is on Thursdays", decision="add", receipt=receipt)
        with pytest.raises(MEMORY_ERRORS["MEMORY_FENCED_DERIVED"]):
            remember(gno, text="Something new", decision="add", derivedFrom=[newer.record.uri])
        with pytest.raises(MEMORY_ERRORS["MEMORY_TEXT_REQUIRED"]):
            remember(gno, text=" ")


def test_gno_remember_is_a_write_tool(adapters: Adapters) -> None:
    reader = Peer(facade=lambda: build(adapters))
    reader.initialize()
    names = [t["name"] for t in reader.request("tools/list")["result"]["tools"]]
    assert "gno_recall" in names and "gno_remember" not in names
    writer = Peer(facade=lambda: build(made()), enable_write=True, profile="core")
    writer.initialize()
    names = [t["name"] for t in writer.request("tools/list")["result"]["tools"]]
    assert "gno_remember" in names and "gno_recall" in names
    params = {
        "name": "gno_remember",
        "arguments": {
            "text": "Lunch is at noon",
            "collection": "notes",
            "scopes": ["team"],
            "decision": "add",
        },
    }
    out = writer.request("tools/call", params)["result"]
    assert_valid("memory-remember", out["structuredContent"])
    assert out["structuredContent"]["outcome"] == "added"
    assert out["structuredContent"]["record"]["caller"] == "t"
