"""``Gno.impact`` over the real facade on the in-memory adapters: the documents that depend on
one document by inbound links and typed edges, each with one deterministic evidence path to the
root, and every cap named when it cuts the walk."""

from __future__ import annotations

import pytest

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.contracts.integrity_requests import ImpactRequest
from gno_core.errors import NotFoundError
from tests.schema_check import assert_valid

# hub <- a, b (wiki links), t (typed frontmatter edge); a <- a2 <- a3 <- a4 (a chain four deep);
# hub links out to out.md (not a dependant) and to itself (not one either); z links to a and b;
# y links to t.
NOTES = {
    "hub.md": "# Hub\n\n[[out]] [[hub]]\n",
    "a.md": "# A\n\n[[hub]] [[b]]\n",
    "b.md": "# B\n\nSee [hub](hub.md).\n",
    "t.md": '---\ndepends_on: "[[hub]]"\n---\n# T\n',
    "a2.md": "# A2\n\n[[a]]\n",
    "a3.md": "# A3\n\n[[a2]]\n",
    "a4.md": "# A4\n\n[[a3]]\n",
    "z.md": "# Z\n\n[[b]] [[a]]\n",
    "y.md": "# Y\n\n[[t]]\n",
    "out.md": "# Out\n",
}


@pytest.fixture(scope="module")
def adapters() -> Adapters:
    made = in_memory(NOTES)
    with build(made) as gno:
        gno.sync()
    return made


def _paths(res: object) -> list[tuple[str, int]]:
    return [(i.document.rel_path, i.depth) for i in res.impacted]  # type: ignore[attr-defined]


def test_impact_walks_inbound_links_and_typed_edges(adapters: Adapters) -> None:
    with build(adapters) as gno:
        res = gno.impact(ImpactRequest(ref="notes/hub.md"))
        assert_valid("impact", res.wire())
        assert res.root.rel_path == "hub.md"
        assert _paths(res) == [
            ("a.md", 1),
            ("b.md", 1),
            ("t.md", 1),
            ("a2.md", 2),
            ("y.md", 2),
            ("z.md", 2),
            ("a3.md", 3),
        ]
        by = {i.document.rel_path: i for i in res.impacted}
        # one path per impacted document, from it to the root, one step per hop
        chain = by["a3.md"].evidence_path
        assert [(s.source_uri, s.target_uri) for s in chain] == [
            ("gno://notes/a3.md", "gno://notes/a2.md"),
            ("gno://notes/a2.md", "gno://notes/a.md"),
            ("gno://notes/a.md", "gno://notes/hub.md"),
        ]
        typed = by["t.md"].evidence_path[0]
        assert (typed.projection, typed.edge_type, typed.edge_source) == (
            "typed",
            "depends_on",
            "frontmatter-relation",
        )
        assert by["b.md"].evidence_path[0].link_type == "markdown"
        # z reaches the root through a and through b: the path goes through a (path order)
        assert [s.target_uri for s in by["z.md"].evidence_path] == [
            "gno://notes/a.md",
            "gno://notes/hub.md",
        ]
        # a4 is four links away: the walk says depth cut it
        assert res.meta.truncated and res.meta.truncated_by == ["maxDepth"]
        assert res.meta.returned_nodes == 7 and res.meta.visited_nodes == 8
        assert res.meta.warnings
        assert gno.impact(ImpactRequest(ref="notes/hub.md")) == res


def test_impact_whole_when_no_cap_is_hit(adapters: Adapters) -> None:
    with build(adapters) as gno:
        res = gno.impact(ImpactRequest(ref="Hub", max_depth=6))
        assert ("a4.md", 4) in _paths(res)
        assert not res.meta.truncated and res.meta.truncated_by == []
        assert "out.md" not in {p for p, _ in _paths(res)}
        leaf = gno.impact(ImpactRequest(ref="notes/a4.md"))
        assert leaf.impacted == [] and not leaf.meta.truncated


@pytest.mark.parametrize(
    ("caps", "cap", "count"),
    [
        ({"max_nodes": 2}, "maxNodes", 2),
        ({"max_edges": 1}, "maxEdges", 1),
        ({"visited_limit": 3}, "visitedLimit", 2),
        ({"frontier_limit": 1}, "frontierLimit", 6),
    ],
)
def test_every_cap_is_named_when_it_cuts(
    adapters: Adapters, caps: dict[str, int], cap: str, count: int
) -> None:
    with build(adapters) as gno:
        res = gno.impact(ImpactRequest(ref="notes/hub.md", **caps))  # type: ignore[arg-type]
        assert_valid("impact", res.wire())
        assert cap in res.meta.truncated_by and res.meta.truncated
        assert res.meta.returned_nodes == count == len(res.impacted)
        for item in res.impacted:
            assert len(item.evidence_path) == item.depth
            assert item.evidence_path[-1].target_uri == "gno://notes/hub.md"


def test_impact_of_an_unknown_document_is_not_found(adapters: Adapters) -> None:
    with build(adapters) as gno, pytest.raises(NotFoundError):
        gno.impact(ImpactRequest(ref="notes/nope.md"))
