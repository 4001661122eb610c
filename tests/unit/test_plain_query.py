"""``Gno.query_hits`` (what ``gno query`` prints, from a request checked without pydantic) ranks
as ``Gno.query`` does through ``QueryRequest`` and the result contracts: the same documents in
the same order with the same scores, passages, flags and explain lines, with and without
vectors and a reranker, for each option the command line has."""

from __future__ import annotations

from typing import Any

import pytest

from gno_core.contracts.fields import plain_values
from gno_core.contracts.query_fields import QUERY_FIELDS
from gno_core.contracts.requests import QueryRequest
from gno_core.contracts.search import SearchResults
from gno_core.contracts.search_fields import SEARCH_FIELDS
from gno_core.retrieval.results import HybridHits
from tests.semantic_support import CORPUS, Env, HashEmbedder, OverlapReranker, make_env

FILES = {
    **CORPUS,
    "tagged.md": "---\ntags: [pets]\nauthor: Ann\n---\n# Pets\n\nCats and dogs share the sofa.\n",
}
CASES: list[dict[str, Any]] = [
    {"query": "cats kitchen baking"},
    {"query": "rockets orbit", "limit": 1},
    {"query": "domestic cats", "min_score": 0.5},
    {"query": "rockets orbit", "collection": "work"},
    {"query": "domestic cats dogs", "exclude": ["bark"], "explain": True},
    {"query": "cats", "tags_any": ["pets"], "author": "ann"},
    {"query": "bread", "since": "2000-01-01", "path_prefix": "c"},
    {"query": "latest rockets"},
    {"query": "bake bread dough", "intent": "recipes", "explain": True},
    {"query": "cats", "fast": True, "explain": True},
    {"query": "cats dogs", "thorough": True, "explain": True},
    {"query": "cats sofa", "expand": True, "explain": True},
    {"query": "domestic cats dogs rockets", "candidate_limit": 2, "explain": True},
    {"query": "cats", "rerank": False, "explain": True},
    {"query": "cats", "graph": True, "explain": True},
    {"query": "cats", "tags_all": ["no-such-tag"]},
]


def plain_view(found: HybridHits) -> tuple[object, ...]:
    hits = [
        (
            h.uri,
            h.document.docid,
            h.score,
            h.passage.best_line if h.passage else None,
            h.document.meta.title,
            h.passage.text if h.passage else "",
        )
        for h in found.hits
    ]
    explain = None if found.explain is None else [tuple(note) for note in found.explain]
    flags = (found.mode, found.vectors_used, found.reranked, found.expanded)
    return hits, flags, found.candidate_limit, explain


def contract_view(res: SearchResults) -> tuple[object, ...]:
    hits = [(r.uri, r.docid, r.score, r.line, r.title, r.snippet) for r in res.results]
    meta = res.meta
    explain = (
        None
        if meta.explain is None
        else [(e.stage, e.message, e.rank, e.uri, e.scores) for e in meta.explain]
    )
    flags = (meta.mode, meta.vectors_used, meta.reranked, meta.expanded)
    return hits, flags, meta.candidate_limit, explain


@pytest.fixture(scope="module", params=["vectors", "vectors+rerank", "keywords only"])
def env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Env:
    models: dict[str, Any] = {
        "vectors": {"embedder": HashEmbedder(256)},
        "vectors+rerank": {"embedder": HashEmbedder(256), "reranker": OverlapReranker()},
        "keywords only": {},
    }[request.param]
    built = make_env(
        tmp_path_factory.mktemp("plain-query"), FILES, collections=("notes", "work"), **models
    )
    built.gno.index() if models else built.gno.sync()
    return built


@pytest.mark.parametrize("values", CASES)
def test_plain_hits_are_the_contract_results(env: Env, values: dict[str, Any]) -> None:
    plain = plain_values(SEARCH_FIELDS + QUERY_FIELDS, values)
    assert plain is not None
    found = env.gno.query_hits(plain)
    assert plain_view(found) == contract_view(env.gno.query(QueryRequest.model_validate(values)))


def test_the_cases_exercise_what_the_query_can_do(env: Env) -> None:
    def run(values: dict[str, Any]) -> HybridHits:
        plain = plain_values(SEARCH_FIELDS + QUERY_FIELDS, values)
        assert plain is not None
        return env.gno.query_hits(plain)

    found = [run(values) for values in CASES]
    assert all(f.hits for f in found[:-1]) and not found[-1].hits
    assert any(len(f.hits) > 1 for f in found)
    stages = {note.stage for f in found for note in f.explain or []}
    assert {"result", "graph", "expansion", "rerank", "fusion"} <= stages
    assert any(f.expanded for f in found)
    reranks = env.gno._models.reranker is not None
    vectors = env.gno._models.embedder is not None
    assert any(f.reranked for f in found) is reranks
    assert all(f.vectors_used is vectors for f in found)
