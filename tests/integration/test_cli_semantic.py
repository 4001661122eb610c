"""Semantic retrieval on the command line, in process: index, embed, vsearch, query, similar,
their exit codes and degradations, every ``--json`` validated against ``contracts/``. Uses the
bundled embedding model (its built graph is shared by the whole test session)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
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


def plain_and_model(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """``gno ARGV`` through the plain path, then through the pydantic request (the plain check
    made to decline): exit code, output and errors of each."""
    from gno_core.contracts import fields

    plain = cli(*argv)
    with monkeypatch.context() as m:
        m.setattr(fields, "plain_values", lambda specs, values: None)
        model = cli(*argv)
    return (plain.code, plain.out, plain.err), (model.code, model.out, model.err)


def test_vsearch_text_from_plain_hits_equals_the_contract_path(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``gno vsearch`` prints its text and ``--files`` from plain hits, without pydantic; the
    # same lines as through ``SearchRequest`` and the result contracts, errors included.
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
        plain, model = plain_and_model(cli, monkeypatch, ["vsearch", *argv])
        assert plain == model, argv
    assert cli.ok("vsearch", "pets that purr").out.startswith("1. gno://notes/")


def untimed(out: str) -> str:
    """``out`` without the explain line of stage timings (milliseconds differ run to run)."""
    return "".join(line for line in out.splitlines(True) if not line.startswith("  [timing] "))


def test_query_text_from_plain_hits_equals_the_contract_path(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``gno query`` prints its text and ``--files`` from plain hits, without pydantic; the same
    # lines as through ``QueryRequest`` and the result contracts, reranked by a tiny
    # cross-encoder or not, errors included (``--query-mode`` goes through the model).
    from tests.rerank_support import write_cross_encoder

    monkeypatch.setenv("GNO_RERANK_MODEL", str(write_cross_encoder(tmp_path / "rerank")))
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    cli.ok("index")
    lines = """
        'pets that purr'
        'pets that purr' --files -n 2
        pets -n 1 --explain
        pets --min-score 0.5 --intent cats
        pets -c notes --exclude dog --explain
        rockets --since 2000-01-01 --path-prefix work
        'latest rockets'
        bread --no-rerank --explain
        bread --fast --explain
        'bread dough' --thorough --explain
        'bread dough' --expand --explain
        rockets -C 3 --no-graph
        rockets --graph --explain
        rockets --query-mode term:orbit
        pets -c nope
        pets -n 0
        pets -C 101
        pets --since 'not a date'
        '   '
    """
    argvs = [shlex.split(line) for line in lines.strip().splitlines()]
    for argv in argvs:
        plain, model = plain_and_model(cli, monkeypatch, ["query", *argv])
        assert (plain[0], untimed(plain[1]), plain[2]) == (model[0], untimed(model[1]), model[2])
    reranked = cli.ok("query", "bread dough", "--explain").out
    assert "(mode hybrid, vectors, reranked)" in reranked and "[result] #1 gno://notes/" in reranked
    assert "[timing] " in reranked


def test_a_text_query_in_a_new_process_imports_no_pydantic(cli: Cli, tmp_path: Path) -> None:
    # Nor the sync and link values, nor the graph expansion it was not asked for.
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    cli.ok("index")
    unused = ("pydantic", "gno_core.domain", "gno_core.retrieval.graph_expansion")
    code = (
        "import sys; from gno_cli.main import main; "
        "rc = main(['query', 'pets that purr', '-n', '2', '--explain']); "
        f"print(*[m in sys.modules for m in {unused!r}], rc)"
    )
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(cli.home / "config"),
        "GNO_DATA_DIR": str(cli.home / "data"),
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert "(mode hybrid, vectors, not reranked)" in out and "[result] #2 gno://notes/" in out
    assert out.splitlines()[-1].split() == ["False"] * len(unused) + ["0"]


def test_a_mostly_unembedded_collection_says_so_on_stderr_and_in_json(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 22, failure 6: 5 notes embedded, then 15 more synced without embedding (25%).
    folder = corpus(tmp_path)
    cli.ok("collection", "add", str(folder), "--name", "notes")
    cli.ok("index")
    for i in range(15):
        (folder / f"rocket{i}.md").write_text(f"# Rocket {i}\n\nRockets reach orbit {i}.\n")
    cli.ok("update")
    note = (
        "Note: 25% of the chunks of notes have vectors (5 of 20); search by meaning sees only "
        "those: run `gno embed` (or `gno index`) to embed the rest\n"
    )
    for command in ("vsearch", "query"):
        plain, model = plain_and_model(cli, monkeypatch, [command, "rockets", "-c", "notes"])
        assert plain[0] == 0 and plain[2] == note and "Note:" not in plain[1]
        assert (plain[0], untimed(plain[1]), plain[2]) == (model[0], untimed(model[1]), model[2])
        meta = cli.ok(command, "rockets", "--json").json()["meta"]
        assert (
            meta["vectorCoverage"]["percent"] == 25 and meta["vectorCoverage"]["fix"] == "gno embed"
        )
        assert cli.ok(command, "rockets", "--json").err == ""
    explained = cli.ok("query", "rockets", "--explain").out
    assert "(mode hybrid, vectors (25% embedded), not reranked)" in explained
    assert "  [coverage] 25% of the chunks of the index have vectors (5 of 20)" in explained

    capsule = cli.ok("context", "rockets orbit", "--budget", "4000", "--format", "md")
    whole = note.replace("of notes", "of the index")  # no collection given: the whole index
    assert capsule.err == whole and "Warning: embedding_coverage_incomplete" in capsule.out
    as_json = cli.ok("context", "rockets orbit", "--budget", "4000", "--json")
    assert as_json.err == "" and "embedding_coverage_incomplete" in as_json.json()["warnings"]
    answer = cli.ok("ask", "which rockets reach orbit?")
    assert answer.err == whole

    before = {c: cli.ok(c, "rockets", "--json").json() for c in ("vsearch", "query")}
    cli.ok("embed")
    settled = cli.ok("context", "rockets orbit", "--budget", "4000", "--format", "md")
    assert settled.err == "" and "Warning:" not in settled.out
    for command in ("vsearch", "query"):
        run = cli.ok(command, "rockets", "-c", "notes")
        assert run.err == "" and "embedded)" not in run.out
        after = cli.ok(command, "rockets", "--json").json()
        assert "vectorCoverage" not in after["meta"] and "vectorCoverage" in before[command]["meta"]


def test_embedding_commands_yield_the_cpu(
    cli: Cli, tmp_path: Path, lowered_priority: list[int]
) -> None:
    """``gno index`` lowers its priority once its embed step begins (the sync, which holds the
    write lease, ran at normal priority); ``gno embed`` before it starts; ``--nice`` sets it."""
    cli.ok("collection", "add", str(corpus(tmp_path)), "--name", "notes")
    cli.ok("index", "--no-embed")
    assert lowered_priority == []
    cli.ok("index", "--nice", "7")
    assert lowered_priority == [7]
    cli.ok("embed", "--force")
    cli.ok("embed", "--dry-run")
    assert lowered_priority == [7, 10]
