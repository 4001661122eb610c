"""``similar`` edges of ``gno_graph`` (``includeSimilar``, ``threshold``, ``similarTopK``) over
the in-memory vector fake and the real SQLite vector index: among projection nodes only, one
edge per pair, at most top-k per node, above the threshold, deterministic, bounded by a compute
budget, and a clear warning when there is no model or no vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gno_core.contracts.graph import GraphResult
from gno_core.contracts.requests import GraphRequest
from gno_core.links import similar_edges
from tests.contract.store_support import apsw_index
from tests.schema_check import assert_valid
from tests.semantic_support import Env, HashEmbedder, make_env

NOTES = {
    "cats.md": "# Cats\n\nCats purr and hunt mice in the barn. [[dogs]]\n",
    "kittens.md": "# Kittens\n\nKittens purr and hunt mice in the barn too. [[cats]]\n",
    "dogs.md": "# Dogs\n\nDogs bark and fetch sticks in the park. [[cats]]\n",
    "rockets.md": "# Rockets\n\nRockets burn fuel to reach orbit. [[orbit]]\n",
    "orbit.md": "# Orbit\n\nAn orbit around the earth: rockets burn fuel to reach it.\n",
    "lone.md": "# Lone\n\nCats purr and hunt mice in the barn, alone.\n",
}


def _env(tmp_path: Path, backend: str, embedder: bool = True) -> Env:
    env = make_env(tmp_path / "files", NOTES, embedder=HashEmbedder(256) if embedder else None)
    if backend == "sqlite":
        env.stores.store = apsw_index(str(tmp_path / "index.db"))
    return env


def _pairs(res: object) -> list[tuple[str, str, float]]:
    links = res.links  # type: ignore[attr-defined]
    return [(k.source, k.target, k.weight) for k in links if k.type == "similar"]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_similar_edges_join_the_link_graph(tmp_path: Path, backend: str) -> None:
    env = _env(tmp_path, backend)
    env.gno.index()
    plain = env.gno.graph(GraphRequest())
    res = env.gno.graph(GraphRequest(include_similar=True, threshold=0.0, similar_top_k=2))
    assert_valid("graph", res.wire())
    ids = {n.id: n.uri for n in res.nodes}
    assert [n.uri for n in res.nodes] == [n.uri for n in plain.nodes]  # lone.md stays out
    pairs = _pairs(res)
    assert pairs and all(a in ids and b in ids and 0 < w <= 1 for a, b, w in pairs)
    assert len({frozenset((a, b)) for a, b, _ in pairs}) == len(pairs)  # one edge per pair
    assert len(pairs) <= 2 * len(ids)  # each node keeps at most two
    similar = [k for k in res.links if k.type == "similar"]
    assert all(k.confidence == "similarity" and k.audit.resolution == "similarity" for k in similar)
    # The two pairs that share most words are linked by meaning; strongest first.
    by_uri = {v: k for k, v in ids.items()}
    found = {frozenset((a, b)) for a, b, _ in pairs}
    for x, y in (("cats", "kittens"), ("rockets", "orbit")):
        assert frozenset((by_uri[f"gno://notes/{x}.md"], by_uri[f"gno://notes/{y}.md"])) in found
    assert [w for _, _, w in pairs] == sorted((w for _, _, w in pairs), reverse=True)
    assert [k for k in res.links if k.type != "similar"] == plain.links
    meta = res.meta
    assert meta.included_similar and meta.similar_available and meta.similar_top_k == 2
    assert not meta.similar_truncated_by_compute_budget and meta.warnings == []
    assert meta.returned_edges == len(res.links) == len(plain.links) + len(pairs)
    assert env.gno.graph(GraphRequest(include_similar=True, threshold=0.0, similar_top_k=2)) == res
    # What the transports send: the same answer, byte for byte, without a model per link.
    pre = env.gno.graph_wire(GraphRequest(include_similar=True, threshold=0.0, similar_top_k=2))
    assert json.dumps(pre.wire()) == json.dumps(res.wire())
    assert res == GraphResult.model_validate(pre.wire())  # built without validation, the same

    one = _pairs(env.gno.graph(GraphRequest(include_similar=True, threshold=0.0, similar_top_k=1)))
    assert len(one) <= len(ids) and set(one) <= set(pairs)
    strict = env.gno.graph(GraphRequest(include_similar=True, threshold=1.0))
    assert _pairs(strict) == [] and strict.meta.similar_available
    assert not strict.meta.included_similar
    threshold = sorted(w for _, _, w in pairs)[len(pairs) // 2]
    above = _pairs(env.gno.graph(GraphRequest(include_similar=True, threshold=threshold)))
    assert above and all(w >= threshold for _, _, w in above)
    capped = env.gno.graph(
        GraphRequest(include_similar=True, threshold=0.0, edge_limit=len(plain.links) + 1)
    )
    assert len(_pairs(capped)) == 1 and "left out by the edge limit" in capped.meta.warnings[0]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_similar_edges_degrade_and_stay_bounded(
    tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env(tmp_path, backend)
    env.gno.sync()  # not embedded yet
    res = env.gno.graph(GraphRequest(include_similar=True))
    assert_valid("graph", res.wire())
    assert _pairs(res) == [] and not res.meta.similar_available
    assert res.meta.warnings == [
        "similar edges skipped: no vectors for gno/hash-embedder (run gno embed)"
    ]
    env.gno.embed()
    monkeypatch.setattr(similar_edges, "NODE_BUDGET", 2)
    budget = env.gno.graph(GraphRequest(include_similar=True, threshold=0.0))
    assert budget.meta.similar_truncated_by_compute_budget
    assert "among the first 2 of 5 nodes only" in budget.meta.warnings[0]
    assert _pairs(budget)

    bare = _env(tmp_path / "bare", backend, embedder=False)
    bare.gno.sync()
    none = bare.gno.graph(GraphRequest(include_similar=True))
    assert none.meta.warnings == ["similar edges skipped: no embedding model available"]
    assert not none.meta.similar_available and none.links == bare.gno.graph(GraphRequest()).links
