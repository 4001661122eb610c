"""The graph capability over the real facade on the in-memory adapters: the projection and its
caps, the report (hubs, bridges, isolated notes, unresolved links, communities with stable
ids), neighbours, shortest paths and bounded typed traversal with every cap reported."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.contracts.requests import (
    GraphNeighborsRequest,
    GraphPathRequest,
    GraphQueryRequest,
    GraphRequest,
)
from gno_core.errors import NotFoundError, ValidationError
from tests.schema_check import assert_valid

# Two triangles (a*, b*) joined by a1 -> b1, a chain c1 -> c2 -> c3 -> c4, one lone note and
# one unresolved link; b2 carries a typed frontmatter edge to b3.
NOTES = {
    "a1.md": "# A1\n\n[[a2]] [[a3]] [[b1]]\n",
    "a2.md": "# A2\n\n[[a3]] [[a1]]\n",
    "a3.md": "# A3\n\n[[a1]] [[nowhere]]\n",
    "b1.md": "# B1\n\n[[b2]] [[b3]]\n",
    "b2.md": '---\nworks_at: "[[b3]]"\n---\n# B2\n\n[[b3]] [[b1]]\n',
    "b3.md": "# B3\n\n[[b1]] [b2](b2.md)\n",
    "c1.md": "# C1\n\n[[c2]]\n",
    "c2.md": "# C2\n\n[[c3]]\n",
    "c3.md": "# C3\n\n[[c4]]\n",
    "c4.md": "# C4\n",
    "lone.md": "# Lone\n",
}


@pytest.fixture(scope="module")
def adapters() -> Adapters:
    made = in_memory(NOTES)
    with build(made) as gno:
        gno.sync()
    return made


def _uris(docs: list[str]) -> list[str]:
    return [f"gno://notes/{d}.md" for d in docs]


def test_whole_graph_and_report(adapters: Adapters) -> None:
    with build(adapters) as gno:
        res = gno.graph(GraphRequest())
        assert_valid("graph", res.wire())
        by_uri = {n.uri: n for n in res.nodes}
        assert sorted(by_uri) == sorted(
            _uris(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "c4"])
        )
        assert res.meta.total_nodes == 10 and not res.meta.truncated and res.meta.linked_only
        # a1 -> a2 and a2 -> a1 are two links; b2's typed edge to b3 merges with its [[b3]]
        assert res.meta.total_edges == res.meta.returned_edges == 15
        assert by_uri["gno://notes/a1.md"].degree == 5
        report = res.report
        assert [h.uri for h in report.hubs[:2]] == _uris(["a1", "b1"])
        assert report.isolated.total == 1 and report.isolated.examples == _uris(["lone"])
        assert report.unresolved_links.total == 1 and report.unresolved_links.by_type == {"wiki": 1}
        assert report.edge_types == {"links_to": 15, "works_at": 1}
        communities = {c.id: set(c.members) for c in report.communities}
        assert report.total_communities == 3
        groups = sorted(sorted(m) for m in communities.values())
        assert groups[0] == _uris(["a1", "a2", "a3"])
        assert set(groups[1]) == set(_uris(["b1", "b2", "b3"]))
        # The community ids come from the smallest member and repeat across runs.
        again = gno.graph(GraphRequest())
        assert [(n.uri, n.community_id) for n in again.nodes] == [
            (n.uri, n.community_id) for n in res.nodes
        ]
        assert by_uri["gno://notes/a1.md"].community_id != by_uri["gno://notes/b1.md"].community_id
        assert [b.uri for b in report.bridge_candidates[:2]] == _uris(["a1", "b1"])


def test_limits_truncate_and_say_so(adapters: Adapters) -> None:
    with build(adapters) as gno:
        res = gno.graph(GraphRequest(limit=3, edge_limit=2))
        assert res.meta.truncated and res.meta.returned_nodes == 3 and res.meta.returned_edges == 2
        assert {n.uri for n in res.nodes} == set(_uris(["a1", "b1", "b2"]))
        ids = {n.id for n in res.nodes}
        assert all(link.source in ids and link.target in ids for link in res.links)
        everything = gno.graph(GraphRequest(linked_only=False))
        assert "gno://notes/lone.md" in {n.uri for n in everything.nodes}
        assert everything.meta.total_nodes == 11
        only = gno.graph(GraphRequest(collection="notes", include_similar=True))
        assert only.meta.collection == "notes" and only.meta.warnings
        with pytest.raises(NotFoundError):
            gno.graph(GraphRequest(collection="nope"))


def test_neighbors_and_path(adapters: Adapters) -> None:
    with build(adapters) as gno:
        near = gno.graph_neighbors(GraphNeighborsRequest(ref="notes/b3.md"))
        assert_valid("graph-neighbors", near.wire())
        seen = {(n.node.uri, n.direction, n.type) for n in near.neighbors}
        assert seen == {
            ("gno://notes/b1.md", "both", "wiki"),
            ("gno://notes/b2.md", "in", "wiki"),
            ("gno://notes/b2.md", "out", "markdown"),
        }
        out = gno.graph_neighbors(GraphNeighborsRequest(ref="notes/c2.md", direction="out"))
        assert [(n.node.uri, n.direction) for n in out.neighbors] == [("gno://notes/c3.md", "out")]

        path = gno.graph_path(
            GraphPathRequest.model_validate({"from": "notes/c1.md", "to": "notes/c4.md"})
        )
        assert_valid("graph-path", path.wire())
        assert path.found and path.hops == 3
        assert [d.uri for d in path.path] == _uris(["c1", "c2", "c3", "c4"])
        assert all(s.forward for s in path.steps)
        back = gno.graph_path(
            GraphPathRequest.model_validate({"from": "notes/c4.md", "to": "gno://notes/c1.md"})
        )
        assert back.found and not any(s.forward for s in back.steps)
        short = gno.graph_path(
            GraphPathRequest.model_validate(
                {"from": "notes/c1.md", "to": "notes/c4.md", "maxDepth": 2}
            )
        )
        assert not short.found and short.hops is None and short.path == []
        across = gno.graph_path(
            GraphPathRequest.model_validate({"from": "notes/a2.md", "to": "notes/b2.md"})
        )
        assert [d.uri for d in across.path] == _uris(["a2", "a1", "b1", "b2"])
        apart = gno.graph_path(
            GraphPathRequest.model_validate({"from": "notes/a2.md", "to": "notes/lone.md"})
        )
        assert not apart.found
        with pytest.raises(NotFoundError):
            gno.graph_path(
                GraphPathRequest.model_validate({"from": "notes/a2.md", "to": "notes/x.md"})
            )


def test_typed_traversal_and_its_caps(adapters: Adapters) -> None:
    with build(adapters) as gno:
        res = gno.graph_query(GraphQueryRequest(ref="notes/c1.md", direction="out", max_depth=6))
        assert_valid("graph-query", res.wire())
        assert [(n.uri, n.depth) for n in res.nodes] == list(
            zip(_uris(["c1", "c2", "c3", "c4"]), [0, 1, 2, 3], strict=True)
        )
        assert not res.meta.truncated and res.meta.truncated_by == []
        deep = gno.graph_query(GraphQueryRequest(ref="notes/c1.md", direction="out", max_depth=1))
        assert deep.meta.truncated_by == ["maxDepth"] and deep.meta.returned_nodes == 2
        inward = gno.graph_query(GraphQueryRequest(ref="notes/c1.md", direction="in"))
        assert inward.meta.returned_nodes == 1 and inward.edges == []
        typed = gno.graph_query(GraphQueryRequest(ref="notes/b2.md", relation="works_at"))
        assert [(e.edge_type, e.edge_source, e.relation_type) for e in typed.edges] == [
            ("works_at", "frontmatter-relation", "frontmatter")
        ]
        assert typed.meta.edge_type == "works_at"
        few = gno.graph_query(GraphQueryRequest(ref="notes/a1.md", max_nodes=2))
        assert few.meta.returned_nodes == 2 and few.meta.truncated_by == ["maxNodes"]
        visited = gno.graph_query(
            GraphQueryRequest(ref="notes/a1.md", visited_limit=3, max_depth=4)
        )
        assert visited.meta.visited_nodes == 3 and "visitedLimit" in visited.meta.truncated_by
        narrow = gno.graph_query(
            GraphQueryRequest(ref="notes/a1.md", frontier_limit=1, max_depth=3)
        )
        assert "frontierLimit" in narrow.meta.truncated_by
        with pytest.raises(ValueError, match="different edge types"):
            GraphQueryRequest(ref="notes/a1.md", edge_type="works_at", relation="links_to")
        with pytest.raises(ValidationError):
            gno.graphing.path("notes/a1.md", "notes/b1.md", 13, _limits())


def _limits() -> object:
    from gno_core.links.graph import GraphLimits

    return GraphLimits()


def _every_node_every_round(order: list[tuple[str, str]], links: list[Any]) -> list[int]:
    """Label propagation as specified (every node visited in every round): the reference the
    communities' skipping of unchanged neighbourhoods must match."""
    from gno_core.links.graph_projection import PROPAGATION_ROUNDS

    index = {k: i for i, k in enumerate(order)}
    near: list[dict[int, int]] = [{} for _ in order]
    for link in links:
        a, b = index[link.source], index[link.target]
        near[a][b] = near[a].get(b, 0) + link.count
        near[b][a] = near[b].get(a, 0) + link.count
    labels = list(range(len(order)))
    for _ in range(PROPAGATION_ROUNDS):
        changed = False
        for i in range(len(order)):
            weight: dict[int, int] = {}
            for j, w in near[i].items():
                weight[labels[j]] = weight.get(labels[j], 0) + w
            if not weight:
                continue
            best = max(weight.values())
            label = min(lab for lab, w in weight.items() if w == best)
            if weight.get(labels[i], 0) < best and label != labels[i]:
                labels[i], changed = label, True
        if not changed:
            break
    return labels


@pytest.mark.parametrize("seed", range(12))
def test_communities_match_full_label_propagation(seed: int) -> None:
    import random

    from gno_core.domain import DocRef
    from gno_core.links.graph_projection import Link, communities

    rng = random.Random(seed)
    size = rng.randrange(2, 80)
    keys = [("c", f"n{i:03d}.md") for i in range(size)]
    merged: dict[tuple[Any, Any], Link] = {}
    for _ in range(rng.randrange(1, 4 * size)):
        a, b = rng.sample(keys, 2)
        link = merged.setdefault((a, b), Link(a, b, "wiki"))
        link.count += rng.choice((1, 1, 1, 2, 5))
    links = list(merged.values())
    found = communities({k: DocRef(*k) for k in keys}, links)
    labels = _every_node_every_round(sorted(keys), links)
    groups: dict[int, set[tuple[str, str]]] = {}
    for key, label in zip(sorted(keys), labels, strict=True):
        groups.setdefault(label, set()).add(key)
    assert {frozenset(g) for g in groups.values()} == {
        frozenset(k for k in keys if found.ids[k] == cid) for cid in set(found.ids.values())
    }
