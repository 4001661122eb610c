"""Issue 22, failure 7, through MCP: ``gno_recall`` and ``gno_search`` (and every other
retrieval tool) answer a question with one stray double quote instead of refusing it with
``Unmatched double quote in query``; over the real SQLite (FTS5) index and the in-memory fakes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.bootstrap import build, in_memory, open_gno
from gno_core.config import CollectionConfig
from gno_core.fact_files import content_hash, fact_path, record_id, render_fact
from gno_core.facts import FactRecord
from tests.wire.real_facade import Peer

QUESTION = 'When did Joanna first watch "Eternal Sunshine of the Spotless Mind?'
NOTE = "# Films\n\nJoanna first watched Eternal Sunshine of the Spotless Mind in May 2019.\n"
FACT = "Joanna first watched Eternal Sunshine of the Spotless Mind in May 2019"
CREATED = "2026-12-01T09:00:00Z"


def fact_file() -> tuple[str, str]:
    digest = content_hash(FACT)
    rid = record_id(digest, CREATED, "cli:someone", "ppid:1", ("people",))
    record = FactRecord(rid, FACT, ("people",), "cli:someone", "ppid:1", CREATED, digest)
    return fact_path(CREATED, rid), render_fact(record)


def sqlite_facade(home: Path) -> Callable[[], Any]:
    notes, memory = home / "notes", home / "memory"
    rel, text = fact_file()
    (memory / rel).parent.mkdir(parents=True)
    (memory / rel).write_text(text, encoding="utf-8")
    notes.mkdir()
    (notes / "films.md").write_text(NOTE, encoding="utf-8")
    env = {
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
        "GNO_EMBED_MODEL": "none",
    }
    with open_gno(env=env) as gno:
        gno.add_collection(CollectionConfig(name="notes", path=str(notes)))
        gno.add_collection(CollectionConfig(name="mem", path=str(memory), memory_managed=True))
        gno.sync()
    return lambda: open_gno(env=env)


def memory_facade() -> Callable[[], Any]:
    """The fakes: one collection ``notes`` holding the note and the fact, memory-managed."""
    rel, text = fact_file()
    made = in_memory({"films.md": NOTE, rel: text})
    config = made.config.load()
    first = config.collections[0].model_copy(update={"memory_managed": True})
    made.config.save(config.model_copy(update={"collections": [first]}))
    with build(made) as gno:
        gno.sync()
        gno.embed()
    return lambda: build(made)


@pytest.fixture(params=["sqlite", "in-memory"])
def peer(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Peer]:
    facade = sqlite_facade(tmp_path) if request.param == "sqlite" else memory_facade()
    made = Peer(facade=facade)
    made.initialize()
    made.memory = "mem" if request.param == "sqlite" else "notes"  # type: ignore[attr-defined]
    yield made


def call(peer: Peer, tool: str, **arguments: Any) -> dict[str, Any]:
    response = peer.request("tools/call", {"name": tool, "arguments": arguments})
    result: dict[str, Any] = response["result"]
    if result.get("isError"):  # the SQLite index here has no embedding model: that alone
        assert result["_meta"]["gno/error"] == {"code": "MODEL_UNAVAILABLE"}, result["content"]
    return result


def uris(result: dict[str, Any]) -> list[str]:
    return [r["uri"] for r in result["structuredContent"]["results"]]


def test_gno_search_reads_the_stray_quote_as_text(peer: Peer) -> None:
    assert "gno://notes/films.md" in uris(
        call(peer, "gno_search", query=QUESTION, collection="notes")
    )


def test_gno_recall_reads_the_stray_quote_as_text(peer: Peer) -> None:
    memory: str = peer.memory  # type: ignore[attr-defined]
    out = call(peer, "gno_recall", query=QUESTION, collection=memory, scopes=["people"])
    assert [f["text"] for f in out["structuredContent"]["facts"]] == [FACT]


def test_every_other_retrieval_tool_reads_it_as_text(peer: Peer) -> None:
    assert "gno://notes/films.md" in uris(
        call(peer, "gno_query", query=QUESTION, collection="notes")
    )
    call(peer, "gno_vsearch", query=QUESTION, collection="notes")
    capsule = call(peer, "gno_context", goal=QUESTION, collections=["notes"], budgetTokens=4000)
    evidence = capsule["structuredContent"]["evidence"]
    assert evidence and all("films" in e["uri"] or "/mem-" in e["uri"] for e in evidence)
    call(peer, "gno_ask", query=QUESTION, collection="notes", verify=True)
    call(peer, "gno_query_diagnose", query=QUESTION, target="gno://notes/films.md")
