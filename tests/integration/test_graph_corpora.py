"""The graph reads on dendron-site through the CLI: the report is a valid ``graph@1.0`` that
agrees with the link totals and repeats exactly across runs; neighbours agree with backlinks
and links; every step of a path is a link ``gno links`` shows in the file it starts from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, monkeypatch, capsys)


def test_graph_reads_on_dendron(cli: Cli, shared_data: Path) -> None:
    vault = shared_data / "dendron-site" / "vault"
    cli.ok("collection", "add", str(vault), "--name", "dendron")
    cli.ok("update")

    graph = cli.ok("graph", "--json").json()
    assert_valid("graph", graph)
    meta, report = graph["meta"], graph["report"]
    status = cli.ok("status", "--json").json()["links"]
    assert (
        report["unresolvedLinks"]["total"] == status["unresolved"] == meta["totalEdgesUnresolved"]
    )
    assert sum(report["unresolvedLinks"]["byType"].values()) == status["unresolved"]
    assert report["edgeTypes"] == status["edgeTypes"]
    assert not meta["truncated"] and meta["returnedNodes"] == meta["totalNodes"] > 500
    docs = {n["id"] for n in graph["nodes"]}
    assert all(k["source"] in docs and k["target"] in docs for k in graph["links"])
    assert cli.ok("graph", "--json").json() == graph
    # The changelog links every release note: the biggest hub, a person can count them.
    assert report["hubs"][0]["uri"] == "gno://dendron/changelog.md"
    text = cli.ok("graph").out
    assert text.startswith(f"Link graph: {meta['returnedNodes']} notes, {meta['returnedEdges']}")
    assert "Hubs (most linked):" in text and "Isolated notes:" in text
    picture = cli.home / "graph.html"
    cli.ok("graph", "--html", str(picture))
    page = picture.read_text("utf-8")
    # Standalone: one dot per node and one line per link, no script, nothing fetched.
    assert page.count("<circle ") == meta["returnedNodes"]
    assert page.count("<line ") == meta["returnedEdges"]
    assert "<script" not in page and "src=" not in page and "href=" not in page
    assert cli.ok("graph", "--html", str(picture)).out == text
    assert picture.read_text("utf-8") == page

    near = cli.ok("graph", "neighbors", "dendron/tutorial.md", "--json").json()
    assert_valid("graph-neighbors", near)
    back = cli.ok("backlinks", "dendron/tutorial.md", "--json").json()
    incoming = {n["node"]["uri"] for n in near["neighbors"] if n["direction"] != "out"}
    assert incoming == {b["sourceDocUri"] for b in back["backlinks"]} - {
        "gno://dendron/tutorial.md"
    }

    start, end = "dendron/community.discord.roles.md", "dendron/dendron.topic.pod-v2.md"
    path = cli.ok("graph", "path", start, end, "--json").json()
    assert_valid("graph-path", path)
    assert path["found"] and path["hops"] == len(path["steps"]) >= 1
    uri_of = {d["id"]: d["uri"] for d in path["path"]}
    for step in path["steps"]:
        source, target = uri_of[step["source"]], uri_of[step["target"]]
        out = cli.ok("links", source, "--json").json()["links"]
        assert any(t["uri"] == target for link in out for t in link["targets"]), (source, target)
    assert cli("graph", "path", start, end, "--max-depth", "1").code == 1

    query = cli.ok(
        "graph",
        "query",
        "dendron/changelog.md",
        "--direction",
        "out",
        "--max-nodes",
        "20",
        "--json",
    ).json()
    assert_valid("graph-query", query)
    assert query["meta"]["truncated"] and "maxNodes" in query["meta"]["truncatedBy"]
    assert query["meta"]["returnedNodes"] == 20
