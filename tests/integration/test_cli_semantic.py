"""Semantic retrieval on the command line, in process: index, embed, vsearch, query, similar,
their exit codes and degradations, every ``--json`` validated against ``contracts/``. Uses the
bundled embedding model (its built graph is shared by the whole test session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_adapters.bootstrap import model_wiring
from tests.embedding_support import models_dir
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid
from tests.semantic_support import CORPUS, FlakyEmbedder


@pytest.fixture
def cli(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Cli:
    runner = Cli(tmp_path, monkeypatch, capsys)
    shared_cache = models_dir(tmp_path_factory).parent / "gno-cache"
    monkeypatch.setenv("GNO_CACHE_DIR", str(shared_cache))
    for name in ("GNO_EMBED_MODEL", "GNO_EMBED_PRECISION", "GNO_RERANK_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return runner


def corpus(root: Path) -> Path:
    folder = root / "notes"
    for name, text in CORPUS.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def test_index_then_query_uses_vectors(cli: Cli, tmp_path: Path) -> None:
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    indexed = cli.ok("index", "--json").json()
    assert_valid("index-result", indexed)
    assert indexed["syncResult"]["totalAdded"] == 5
    assert indexed["embedSkipped"] is False and indexed["embedResult"]["embedded"] == 5
    assert indexed["embedResult"]["model"].startswith("sentence-transformers/all-MiniLM-L6-v2")

    status = cli.ok("status", "--json").json()
    assert_valid("status", status)
    assert status["embeddingBacklog"] == 0
    assert status["collections"][0]["embeddedCount"] == 5
    assert status["capabilities"]["hybrid"] is True

    again = cli.ok("embed", "--json").json()
    assert_valid("embed-result", again)
    assert (again["embedded"], again["pending"]) == (0, 0)

    res = cli.ok("query", "pets that purr", "--json").json()
    assert_valid("search-results", res)
    assert res["meta"]["mode"] == "hybrid" and res["meta"]["vectorsUsed"] is True
    assert res["meta"]["reranked"] is False  # no cross-encoder is installed here
    assert res["results"][0]["uri"] == "gno://notes/cats.md"

    explained = cli.ok("query", "space travel", "--explain", "--json", "-n", "2").json()
    assert_valid("search-results", explained)
    stages = {line["stage"] for line in explained["meta"]["explain"]}
    assert {"bm25", "vector", "fusion", "rerank", "result"} <= stages

    vec = cli.ok("vsearch", "space travel to orbit", "--json").json()
    assert_valid("search-results", vec)
    assert vec["meta"]["mode"] == "vector"
    assert vec["results"][0]["uri"] in ("gno://notes/space.md", "gno://notes/work/plan.md")

    similar = cli.ok("similar", "notes/space.md", "--json").json()
    assert_valid("similar", similar)
    assert "gno://notes/space.md" not in [s["uri"] for s in similar["similar"]]

    human = cli.ok("query", "bread", "--explain").out
    assert "mode hybrid" in human and "[fusion]" in human
    assert cli.ok("similar", "notes/cats.md").out.startswith("Similar to gno://notes/cats.md")


def test_without_a_model_query_degrades_and_vsearch_fails(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    indexed = cli.ok("index", "--json").json()
    assert_valid("index-result", indexed)
    assert indexed["embedSkipped"] is True
    res = cli.ok("query", "rockets", "--json").json()
    assert_valid("search-results", res)
    assert (res["meta"]["mode"], res["meta"]["vectorsUsed"]) == ("bm25_only", False)
    failed = cli("vsearch", "rockets", "--json")
    assert failed.code == 2
    assert_valid("error", failed.json())
    assert failed.json()["error"]["code"] == "MODEL_UNAVAILABLE"
    assert cli("embed").code == 2


def test_vsearch_before_embedding_exits_2_with_a_hint(cli: Cli, tmp_path: Path) -> None:
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    cli.ok("update")
    run = cli("vsearch", "rockets")
    assert run.code == 2 and "gno embed" in run.err


def test_failed_embedding_batches_exit_non_zero_with_the_count(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = corpus(tmp_path)
    (folder / "bad.md").write_text("# Bad\n\nPOISON here\n", encoding="utf-8")
    original = model_wiring.SemanticModels.__init__

    def flaky(self: model_wiring.SemanticModels, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        self.embedder = FlakyEmbedder()  # type: ignore[assignment]

    monkeypatch.setattr(model_wiring.SemanticModels, "__init__", flaky)
    cli.ok("collection", "add", str(folder), "--name", "notes")
    cli.ok("update")
    run = cli("embed", "--batch-size", "1", "--json")
    assert run.code == 2
    result = run.json()
    assert_valid("embed-result", result)
    assert (result["embedded"], result["errors"]) == (5, 1)
    assert "1 chunks failed to embed" in run.err


def test_bad_query_modes_are_validation_errors(cli: Cli, tmp_path: Path) -> None:
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    cli.ok("update")
    assert cli("query", "x", "--query-mode", "nonsense").code == 1
    assert cli("query", "x", "--query-mode", "hyde:a", "--query-mode", "hyde:b").code == 1
    assert cli("query", "x", "--query-mode", "term:   ").code == 1
    assert cli("query", "x", "-C", "0").code == 1


def test_vsearch_text_from_plain_hits_equals_the_contract_path(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``gno vsearch`` prints its text and ``--files`` from plain hits, without pydantic; the
    # same lines as through ``SearchRequest`` and the result contracts, errors included.
    from gno_core.contracts import fields

    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    cli.ok("index")
    argvs = [
        ["pets that purr"],
        ["pets that purr", "--files", "-n", "2"],
        ["pets", "--min-score", "0.6", "--intent", "cats"],
        ["pets", "-c", "notes", "--exclude", "dog"],
        ["pets", "-c", "nope"],
        ["pets", "-n", "0"],
    ]
    for argv in argvs:
        plain = cli("vsearch", *argv)
        with monkeypatch.context() as m:
            m.setattr(fields, "plain_values", lambda specs, values: None)
            model = cli("vsearch", *argv)
        assert (plain.code, plain.out, plain.err) == (model.code, model.out, model.err), argv
    assert cli.ok("vsearch", "pets that purr").out.startswith("1. gno://notes/")
