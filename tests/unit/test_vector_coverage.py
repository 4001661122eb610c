"""Issue 22, failure 6: a collection mostly without vectors answered ``vsearch`` and ``query``
as if it were searched by meaning. Every surface now says what search by meaning could not
see (the share, the counts, the fix); a fully embedded collection says nothing and its output
is unchanged. In-memory store, hash embedder; the real CLI is in ``test_cli_semantic``."""

from __future__ import annotations

import json
from pathlib import Path

from gno_core.contracts.requests import QueryRequest, SearchRequest
from tests.schema_check import assert_valid
from tests.semantic_support import CORPUS, Env, HashEmbedder, make_env
from tests.wire.test_mcp_semantic import RealPeer

MESSAGE = "25% of the chunks of notes have vectors (2 of 8)"


def quarter_embedded(tmp_path: Path) -> Env:
    """``notes``: two notes embedded, then six more synced without embedding (2 of 8)."""
    files = {"cats.md": CORPUS["cats.md"], "dogs.md": CORPUS["dogs.md"], "work/plan.md": "x\n"}
    env = make_env(tmp_path, files, embedder=HashEmbedder(256), collections=("notes", "work"))
    env.gno.index()
    for i in range(6):
        env.write(f"rocket{i}.md", f"# Rocket {i}\n\nRockets burn fuel to reach orbit {i}.\n")
    env.gno.sync()
    return env


def test_vsearch_says_three_quarters_are_not_searched_by_meaning(tmp_path: Path) -> None:
    env = quarter_embedded(tmp_path)
    res = env.gno.vsearch(SearchRequest(query="rockets orbit", collection="notes"))
    assert_valid("search-results", res.wire())
    coverage = res.wire()["meta"]["vectorCoverage"]
    assert coverage["embeddedChunks"] == 2 and coverage["totalChunks"] == 8
    assert coverage["percent"] == 25 and coverage["fix"] == "gno embed"
    assert coverage["message"].startswith(MESSAGE)
    plain = env.gno.vector_hits(SearchRequest(query="rockets orbit", collection="notes"))
    assert plain.gap is not None and plain.gap.coverage == (2, 8)
    # The whole index: the other collection's chunk is embedded too.
    whole = env.gno.vsearch(SearchRequest(query="rockets orbit")).meta.vector_coverage
    assert whole is not None and (whole.embedded_chunks, whole.total_chunks) == (3, 9)


def test_query_says_it_in_meta_and_in_explain(tmp_path: Path) -> None:
    env = quarter_embedded(tmp_path)
    res = env.gno.query(QueryRequest(query="rockets orbit", collection="notes", explain=True))
    assert_valid("search-results", res.wire())
    assert res.meta.mode == "hybrid" and res.meta.vector_coverage is not None
    assert res.meta.vector_coverage.percent == 25
    lines = [(e.stage, e.message) for e in res.meta.explain or []]
    assert any(stage == "coverage" and "2 of 8" in m for stage, m in lines), lines


def test_a_fully_embedded_collection_says_nothing(tmp_path: Path) -> None:
    env = quarter_embedded(tmp_path)
    env.gno.embed()
    for res in (
        env.gno.vsearch(SearchRequest(query="rockets orbit", collection="notes")),
        env.gno.query(QueryRequest(query="rockets orbit", collection="notes", explain=True)),
    ):
        wire = json.dumps(res.wire())
        assert "vectorCoverage" not in wire and "coverage" not in wire
    assert env.gno.vector_hits(SearchRequest(query="rockets orbit")).gap is None


def test_mcp_text_and_structured_content_say_it(tmp_path: Path) -> None:
    peer = RealPeer(quarter_embedded(tmp_path).gno)
    for tool in ("gno_vsearch", "gno_query"):
        result = peer.call(tool, query="rockets orbit", collection="notes")
        assert result["structuredContent"]["meta"]["vectorCoverage"]["percent"] == 25
        assert f"Note: {MESSAGE}" in result["content"][0]["text"]


def test_mcp_says_nothing_when_fully_embedded(tmp_path: Path) -> None:
    env = quarter_embedded(tmp_path)
    env.gno.embed()
    peer = RealPeer(env.gno)
    for tool in ("gno_vsearch", "gno_query"):
        result = peer.call(tool, query="rockets orbit", collection="notes")
        assert "vectorCoverage" not in result["structuredContent"]["meta"]
        assert "Note:" not in result["content"][0]["text"]
