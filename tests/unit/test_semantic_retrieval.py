"""vsearch, hybrid query and similar through the facade, over in-memory fakes (hash embedder,
overlap reranker): ranking, filters, degradation flags, explain receipts, contracts."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_core.contracts.requests import QueryMode, QueryRequest, SearchRequest
from gno_core.errors import ModelUnavailableError, NotFoundError, RuntimeFailure, ValidationError
from tests.schema_check import assert_valid
from tests.semantic_support import CORPUS, Env, HashEmbedder, OverlapReranker, make_env


def ready(tmp_path: Path, **kwargs: object) -> Env:
    kwargs.setdefault("embedder", HashEmbedder(256))
    env = make_env(tmp_path, CORPUS, collections=("notes", "work"), **kwargs)  # type: ignore[arg-type]
    env.gno.index()
    return env


def names(results: object) -> list[str]:
    return [r.uri.removeprefix("gno://") for r in results.results]  # type: ignore[attr-defined]


# -- vsearch -----------------------------------------------------------------------------------


def test_vsearch_ranks_by_meaning_with_distance_scores(tmp_path: Path) -> None:
    env = ready(tmp_path)
    res = env.gno.vsearch(SearchRequest(query="domestic felines purr", limit=3))
    assert_valid("search-results", res.wire())
    assert names(res)[0] == "notes/cats.md"
    assert res.meta.mode == "vector" and res.meta.vectors_used is True
    scores = [r.score for r in res.results]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    top = res.results[0]
    assert top.line == 3 and "felines" in top.snippet


def test_vsearch_applies_filters_before_the_limit(tmp_path: Path) -> None:
    env = ready(tmp_path)
    res = env.gno.vsearch(SearchRequest(query="rockets orbit", collection="work", limit=1))
    assert names(res) == ["work/plan.md"]
    res = env.gno.vsearch(SearchRequest(query="rockets orbit", exclude=["quarterly"], limit=5))
    assert "work/plan.md" not in names(res)
    res = env.gno.vsearch(SearchRequest(query="rockets orbit", min_score=0.99))
    assert res.results == []


def test_vsearch_without_vectors_or_model_is_a_clear_error(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    with pytest.raises(RuntimeFailure, match="gno embed"):
        env.gno.vsearch(SearchRequest(query="cats"))
    bare = make_env(tmp_path / "b", CORPUS, collections=("notes", "work"))
    with pytest.raises(ModelUnavailableError):
        bare.gno.vsearch(SearchRequest(query="cats"))


# -- query -------------------------------------------------------------------------------------


def test_query_fuses_keyword_and_vector_legs(tmp_path: Path) -> None:
    env = ready(tmp_path)
    res = env.gno.query(QueryRequest(query="cats kitchen baking", limit=3))
    assert_valid("search-results", res.wire())
    assert res.meta.mode == "hybrid" and res.meta.vectors_used is True
    assert res.meta.reranked is False and res.meta.expanded is False
    assert res.meta.candidate_limit == 20
    assert names(res)[0] == "notes/cooking.md"
    assert res.results[0].score == 1.0  # first in both legs: the fusion ceiling
    assert res.results[0].line == 5  # the lexical lines win the snippet
    assert res.meta.explain is None


def test_query_degrades_to_bm25_only(tmp_path: Path) -> None:
    no_model = make_env(tmp_path / "a", CORPUS, collections=("notes", "work"))
    no_model.gno.sync()
    res = no_model.gno.query(QueryRequest(query="rockets"))
    assert (res.meta.mode, res.meta.vectors_used) == ("bm25_only", False)
    assert names(res)[0] in ("notes/space.md", "work/plan.md")
    assert_valid("search-results", res.wire())
    not_embedded = make_env(
        tmp_path / "b", CORPUS, embedder=HashEmbedder(), collections=("notes", "work")
    )
    not_embedded.gno.sync()
    res = not_embedded.gno.query(QueryRequest(query="rockets", explain=True))
    assert (res.meta.mode, res.meta.vectors_used) == ("bm25_only", False)
    assert res.meta.explain is not None
    vector = next(line for line in res.meta.explain if line.stage == "vector")
    assert "no vectors" in vector.message


def test_query_reranks_when_a_reranker_is_present(tmp_path: Path) -> None:
    reranker = OverlapReranker()
    env = ready(tmp_path, reranker=reranker)
    res = env.gno.query(QueryRequest(query="bake bread dough", intent="recipes", limit=3))
    assert res.meta.reranked is True
    assert names(res)[0] == "notes/cooking.md"
    query, passages = reranker.calls[-1]
    assert query == "Intent: recipes\nQuery: bake bread dough"
    assert len(passages) == len(set(passages))
    assert all(0 <= r.score <= 1 for r in res.results)
    assert env.gno.query(QueryRequest(query="bread", fast=True)).meta.reranked is False
    assert env.gno.query(QueryRequest(query="bread", rerank=False)).meta.reranked is False


def test_candidate_limit_bounds_the_rerank_window(tmp_path: Path) -> None:
    reranker = OverlapReranker()
    env = ready(tmp_path, reranker=reranker)
    res = env.gno.query(QueryRequest(query="domestic cats dogs rockets", candidate_limit=2))
    assert res.meta.candidate_limit == 2
    assert len(reranker.calls[-1][1]) <= 2
    assert env.gno.query(QueryRequest(query="cats", thorough=True)).meta.candidate_limit == 40


def test_explain_has_stage_lines_and_score_receipts(tmp_path: Path) -> None:
    env = ready(tmp_path, reranker=OverlapReranker())
    res = env.gno.query(QueryRequest(query="rockets orbit", explain=True, limit=2))
    assert_valid("search-results", res.wire())
    assert res.meta.explain is not None
    stages = [line.stage for line in res.meta.explain]
    for stage in ("depth", "bm25", "vector", "expansion", "graph", "fusion", "rerank", "timing"):
        assert stage in stages
    receipts = [line for line in res.meta.explain if line.stage == "result"]
    assert [r.rank for r in receipts] == [1, 2]
    assert [r.uri for r in receipts] == [r.uri for r in res.results]
    first = receipts[0].scores
    assert first is not None
    assert {"fusion", "final", "bonus", "rerank"} <= set(first)
    assert first["final"] == res.results[0].score


def test_query_modes_add_legs(tmp_path: Path) -> None:
    env = ready(tmp_path)
    modes = [
        QueryMode(mode="term", text="bark fetch"),
        QueryMode(mode="hyde", text="Loyal canines bark at strangers and fetch sticks."),
        QueryMode(mode="intent", text="pets"),
    ]
    res = env.gno.query(QueryRequest(query="animals", query_modes=modes, explain=True))
    assert res.meta.explain is not None
    dogs = next(line for line in res.meta.explain if line.uri == "gno://notes/dogs.md")
    assert dogs.scores is not None
    assert (dogs.scores["term1Rank"], dogs.scores["hydeRank"]) == (1.0, 1.0)
    assert dogs.rank is not None and dogs.rank <= 2
    assert res.meta.query_modes is not None and len(res.meta.query_modes) == 3
    assert res.meta.explain is not None
    fusion = next(line for line in res.meta.explain if line.stage == "fusion")
    assert "term1(0.5)" in fusion.message and "hyde(0.7)" in fusion.message
    assert_valid("search-results", res.wire())


def test_query_modes_are_validated() -> None:
    with pytest.raises(ValueError, match="at most one hyde"):
        QueryRequest(
            query="q",
            query_modes=[QueryMode(mode="hyde", text="a"), QueryMode(mode="hyde", text="b")],
        )
    with pytest.raises(ValueError, match="must not be empty"):
        QueryMode(mode="term", text="   ")
    assert QueryMode(mode="term", text="  x  ").text == "x"
    with pytest.raises(ValueError):
        QueryRequest(query="q", fast=True, thorough=True)
    with pytest.raises(ValueError):
        QueryRequest.model_validate({"query": "q", "candidateLimit": 0})


def test_query_filters_exclusions_and_min_score(tmp_path: Path) -> None:
    env = ready(tmp_path)
    res = env.gno.query(QueryRequest(query="rockets orbit", collection="work"))
    assert names(res) == ["work/plan.md"]
    res = env.gno.query(QueryRequest(query="rockets orbit", exclude=["quarterly"]))
    assert "work/plan.md" not in names(res)
    res = env.gno.query(QueryRequest(query="rockets orbit", min_score=0.9))
    assert all(r.score >= 0.9 for r in res.results)
    with pytest.raises(NotFoundError):
        env.gno.query(QueryRequest(query="x", collection="nope"))


def test_hybrid_exclusions_inspect_author_and_categories(tmp_path: Path) -> None:
    files = {
        "a.md": "---\nauthor: Ann Smith\n---\n# Rockets A\n\nrockets orbit\n",
        "b.md": "---\ncategories: [draft]\n---\n# Rockets B\n\nrockets orbit\n",
        "c.md": "# Rockets C\n\nrockets orbit\n",
    }
    env = make_env(tmp_path, files, embedder=HashEmbedder())
    env.gno.index()
    res = env.gno.query(QueryRequest(query="rockets orbit", exclude=["smith", "draft"]))
    assert names(res) == ["notes/c.md"]


def test_query_validation_errors(tmp_path: Path) -> None:
    env = ready(tmp_path)
    with pytest.raises(ValidationError):
        env.gno.query(QueryRequest(query='"?!"'))  # no word to search
    env.gno.query(QueryRequest(query='"unbalanced'))  # a stray quote is text (issue 22)


# -- similar -----------------------------------------------------------------------------------


def test_similar_excludes_itself_and_stays_in_its_collection(tmp_path: Path) -> None:
    env = ready(tmp_path)
    res = env.gno.similar("notes/space.md", limit=3)
    assert_valid("similar", res.wire())
    uris = [s.uri for s in res.similar]
    assert "gno://notes/space.md" not in uris
    assert all(u.startswith("gno://notes/") for u in uris)
    assert res.meta.uri == "gno://notes/space.md" and res.meta.cross_collection is False
    assert res.wire()["meta"]["threshold"] is None
    cross = env.gno.similar("notes/space.md", limit=1, cross_collection=True)
    assert [s.uri for s in cross.similar] == ["gno://work/plan.md"]
    high = env.gno.similar("notes/space.md", threshold=0.99)
    assert high.similar == [] and high.meta.total_similar == 0


def test_similar_errors(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    with pytest.raises(RuntimeFailure, match="no embeddings"):
        env.gno.similar("notes/cats.md")
    with pytest.raises(NotFoundError):
        env.gno.similar("notes/none.md")
    with pytest.raises(ValidationError):
        env.gno.similar("notes/cats.md", limit=0)


def test_every_result_carries_categories_even_when_it_has_none(tmp_path: Path) -> None:
    """The spec: search result items "always include `categories`" (empty when the note has
    none), in every mode."""
    files = {
        "b.md": "---\ncategories: [Draft, notes]\n---\n# Rockets B\n\nrockets orbit\n",
        "c.md": "# Rockets C\n\nrockets orbit\n",
    }
    env = make_env(tmp_path, files, embedder=HashEmbedder())
    env.gno.index()
    request = SearchRequest(query="rockets orbit", limit=5)
    for res in (
        env.gno.search(request),
        env.gno.vsearch(request),
        env.gno.query(QueryRequest(query="rockets orbit")),
    ):
        wire = {r["uri"]: r["categories"] for r in res.wire()["results"]}
        assert wire == {"gno://notes/b.md": ["Draft", "notes"], "gno://notes/c.md": []}
