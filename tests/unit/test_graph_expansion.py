"""Graph expansion in hybrid retrieval: the candidate scores and their confidence weights (over a
scripted link store), then ``query`` through the facade on the in-memory adapters: linked notes
join the results with their receipts, ``graph: false`` / ``noGraph`` / ``fast`` turn it off, and
an index without links ranks exactly as without the stage."""

from __future__ import annotations

from collections.abc import Sequence

from gno_adapters.bootstrap import build, in_memory
from gno_core.contracts.requests import QueryRequest
from gno_core.domain import DocRef, DocumentMeta, Edge, SearchFilters, StoredDocument
from gno_core.retrieval import graph_expansion as ge
from gno_core.retrieval.fusion import Leg, fuse
from tests.schema_check import assert_valid


class ScriptedLinks:
    """``adjacent`` answers with fixed edges (those touching the asked documents)."""

    def __init__(self, edges: list[Edge]) -> None:
        self.edges = edges
        self.reads: list[list[tuple[str, str]]] = []

    def adjacent(
        self, documents: Sequence[tuple[str, str]], relation: str | None = None
    ) -> list[Edge]:
        self.reads.append(list(documents))
        wanted = set(documents)
        return [
            e
            for e in self.edges
            if (e.source.collection, e.source.rel_path) in wanted
            or (e.target.collection, e.target.rel_path) in wanted
        ]


class ScriptedDocuments:
    def __init__(self, docs: dict[tuple[str, str], StoredDocument]) -> None:
        self.docs = docs

    def get_documents(self, keys: list[tuple[str, str]]) -> list[StoredDocument]:
        return [self.docs[k] for k in keys if k in self.docs]


def _doc(key: str) -> StoredDocument:
    collection, rel = key.split("/", 1)
    return StoredDocument(
        collection,
        rel,
        f"/{key}",
        "#abcdef",
        "abcdef",
        "text/markdown",
        ".md",
        1,
        0,
        "m",
        DocumentMeta(),
        "native/markdown",
        "1",
        True,
        "",
    )


def _edge(src: str, dst: str, confidence: str = "explicit") -> Edge:
    s, d = src.split("/", 1), dst.split("/", 1)
    return Edge(DocRef(s[0], s[1]), DocRef(d[0], d[1]), "links_to", "wiki", "wikilink", confidence)


def _run(edges: list[Edge], ranked: list[str], filters: SearchFilters | None = None, cap: int = 20):
    all_keys = {k for e in edges for k in (_key(e.source), _key(e.target))} | set(ranked)
    docs = {k: _doc(k) for k in sorted(all_keys)}
    retrieved = {k: docs[k] for k in ranked}
    store = ScriptedDocuments({(d.collection, d.rel_path): d for d in docs.values()})
    links = ScriptedLinks(edges)
    out = ge.expand(links, store, ranked, retrieved, filters or SearchFilters(), cap)  # type: ignore[arg-type]
    return out, links


def _key(ref: DocRef) -> str:
    return f"{ref.collection}/{ref.rel_path}"


def test_confidence_and_seed_rank_weigh_candidates() -> None:
    edges = [
        _edge("n/s1.md", "n/x.md", "explicit"),
        _edge("n/s1.md", "n/y.md", "inferred"),
        _edge("n/z.md", "n/s1.md", "ambiguous"),  # a backlink of the seed
        _edge("n/s2.md", "n/w.md", "explicit"),
    ]
    out, links = _run(edges, ["n/s1.md", "n/s2.md"])
    assert links.reads == [[("n", "s1.md"), ("n", "s2.md")]]  # one read for the seed set
    assert [(k, v.score) for k, v in out.via.items()] == [
        ("n/x.md", 1.0),
        ("n/y.md", 0.65),
        ("n/w.md", 0.5),
        ("n/z.md", 0.35),
    ]
    assert out.via["n/z.md"].direction == "in" and out.via["n/x.md"].direction == "out"
    assert out.via["n/w.md"].seed == "n/s2.md" and out.via["n/w.md"].seed_rank == 2
    assert set(out.added) == {"n/x.md", "n/y.md", "n/w.md", "n/z.md"}
    assert out.confidence == {"explicit": 2, "inferred": 1, "ambiguous": 1}
    assert out.leg is not None and out.leg.name == "graph" and out.leg.weight == ge.WEIGHT_GRAPH
    # In the fused leg the share shrinks with the score: explicit beats ambiguous at equal rank.
    fused = {f.key: f for f in fuse([out.leg])}
    assert fused["n/x.md"].score > fused["n/y.md"].score > fused["n/w.md"].score
    assert "seeds=2, candidates=4/4" in out.summary(20)
    assert "explicit/inferred/ambiguous/similarity=2/1/1/0" in out.summary(20)


def test_several_seeds_add_up_and_the_strongest_link_counts_once() -> None:
    edges = [
        _edge("n/s1.md", "n/x.md", "ambiguous"),
        _edge("n/s1.md", "n/x.md", "inferred"),
        _edge("n/s2.md", "n/x.md", "ambiguous"),
        _edge("n/s2.md", "n/s1.md", "explicit"),  # seeds lift each other
        _edge("n/s1.md", "n/s1.md", "explicit"),  # a self link is no candidate
    ]
    out, _ = _run(edges, ["n/s1.md", "n/s2.md"])
    assert out.via["n/x.md"].score == round(0.65 / 1 + 0.35 / 2, 6)
    assert out.via["n/x.md"].seed == "n/s1.md"  # 0.65 / 1 beats 0.35 / 2
    assert out.via["n/s1.md"].score == 0.5 and out.via["n/s2.md"].score == 1.0
    assert set(out.added) == {"n/x.md"}  # the seeds were retrieved already
    capped = {
        k: v.score
        for k, v in _run([*edges, _edge("n/s1.md", "n/q.md")], ["n/s1.md"])[0].via.items()
    }
    assert capped["n/q.md"] == 1.0  # min(1, ...)


def test_cap_filters_and_nothing_to_expand() -> None:
    edges = [_edge("n/s1.md", f"n/t{i}.md") for i in range(5)] + [_edge("n/s1.md", "m/other.md")]
    out, _ = _run(edges, ["n/s1.md"], cap=3)
    assert len(out.via) == 3 and out.found == 6
    scoped, _ = _run(edges, ["n/s1.md"], SearchFilters(collections=("n",)))
    assert "m/other.md" not in scoped.via and len(scoped.via) == 5
    prefixed, _ = _run(edges, ["n/s1.md"], SearchFilters(path_prefix="t1"))
    assert list(prefixed.via) == ["n/t1.md"]
    # A filter only the indexes can check: nothing new joins, retrieved documents still lift.
    tagged, _ = _run(edges, ["n/s1.md", "n/t2.md"], SearchFilters(tags_any=("x",)))
    assert set(tagged.via) == {"n/t2.md", "n/s1.md"} and not tagged.added and tagged.restricted
    assert "only retrieved documents lifted" in tagged.summary(20)
    empty, _ = _run([], ["n/s1.md"])
    assert empty.leg is None and not empty.via and empty.found == 0
    assert (
        ge.expand(ScriptedLinks([]), ScriptedDocuments({}), [], {}, SearchFilters(), 20).leg is None
    )  # type: ignore[arg-type]


def test_a_leg_without_scales_fuses_as_before() -> None:
    plain = fuse([Leg("bm25", 2.0, ["a", "b"], primary=True)])
    scaled = fuse([Leg("bm25", 2.0, ["a", "b"], primary=True, scales={"b": 0.5})])
    assert plain[0].score == scaled[0].score and scaled[1].score < plain[1].score


# -- through the facade, in memory ---------------------------------------------------------------

LINKED = {
    "kiln.md": "# Kiln firing\n\nThe kiln reaches cone six. See [[glaze-notes]] for the recipes.\n",
    "glaze-notes.md": "# Glaze recipes\n\nCeladon and tenmoku, mixed by weight.\n",
    "bread.md": "# Bread\n\nSourdough with a long proof.\n",
    "soup.md": "# Soup\n\nLentils and cumin.\n",
}
UNLINKED = {k: v.replace("[[glaze-notes]]", "the glaze notes") for k, v in LINKED.items()}


def _uris(res: object) -> list[str]:
    return [r.uri for r in res.results]  # type: ignore[attr-defined]


def test_query_adds_linked_notes_with_receipts() -> None:
    made = in_memory(LINKED)
    with build(made) as gno:
        gno.index()
        res = gno.query(QueryRequest(query="kiln cone", explain=True, rerank=False, graph=True))
        assert_valid("search-results", res.wire())
        assert _uris(res)[:2] == ["gno://notes/kiln.md", "gno://notes/glaze-notes.md"]
        explain = res.meta.explain or []
        stage = next(e for e in explain if e.stage == "graph")
        assert stage.message.startswith("seeds=") and "explicit/inferred/ambiguous" in stage.message
        glaze = next(e for e in explain if e.uri == "gno://notes/glaze-notes.md")
        assert glaze.scores is not None and glaze.scores["graphRank"] >= 1
        assert glaze.scores["graphScore"] > 0 and glaze.scores["graphSeedRank"] >= 1
        assert "graph: linked from seed #" in glaze.message and "(explicit)" in glaze.message
        # Off by default, and three ways when asked for: graph=false, noGraph, fast.
        for request in (
            QueryRequest(query="kiln cone", rerank=False, explain=True),
            QueryRequest(query="kiln cone", rerank=False, graph=False, explain=True),
            QueryRequest(query="kiln cone", rerank=False, graph=True, no_graph=True, explain=True),
            QueryRequest(query="kiln cone", fast=True, graph=True, explain=True),
        ):
            off = gno.query(request)
            assert "gno://notes/glaze-notes.md" not in _uris(off)[:1]
            lines = {e.stage: e.message for e in off.meta.explain or []}
            assert lines["graph"].startswith("skipped")
            assert all("graphRank" not in (e.scores or {}) for e in off.meta.explain or [])


def test_without_links_the_stage_changes_nothing() -> None:
    with build(in_memory(UNLINKED)) as gno:
        gno.index()
        for query in ("kiln cone", "glaze recipes", "sourdough", "lentils cumin"):
            on = gno.query(QueryRequest(query=query, rerank=False, graph=True))
            off = gno.query(QueryRequest(query=query, rerank=False, graph=False))
            assert on.wire() == off.wire()


def test_diagnose_reports_the_graph_stage() -> None:
    from gno_core.contracts.evidence_requests import DiagnoseRequest

    made = in_memory(LINKED)
    with build(made) as gno:
        gno.index()
        found = gno.query_diagnose(
            DiagnoseRequest(query="kiln cone", target="notes/glaze-notes.md", graph=True)
        )
        assert_valid("query-diagnose", found.wire())
        stage = next(s for s in found.wire()["stages"] if s["id"] == "graph")
        assert stage["status"] == "active" and stage["present"] and stage["rank"] >= 1
        assert (
            stage["reason"] == "graph candidate: linked from seed #1 gno://notes/kiln.md (explicit)"
        )
        far = gno.query_diagnose(
            DiagnoseRequest(query="kiln cone", target="notes/soup.md", graph=True)
        )
        stage = next(s for s in far.wire()["stages"] if s["id"] == "graph")
        assert (stage["present"], stage["dropReason"]) == (False, "not_in_candidate_set")
        assert stage["reason"].endswith("0 note(s) link to it, 0 of them top results")
        off = gno.query_diagnose(
            DiagnoseRequest(query="kiln cone", target="notes/glaze-notes.md", graph=False)
        )
        stage = next(s for s in off.wire()["stages"] if s["id"] == "graph")
        assert stage["status"] == "skipped"
        assert stage["reason"] == "skipped: off; 1 note(s) link to it, 1 of them top results"
        default = gno.query_diagnose(DiagnoseRequest(query="kiln cone", target="notes/soup.md"))
        stage = next(s for s in default.wire()["stages"] if s["id"] == "graph")
        assert stage["reason"].startswith("skipped: not requested;")
