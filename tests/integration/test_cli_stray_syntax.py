"""Issue 22, failure 7: a question with one stray double quote (or a stray dash, asterisk ...)
is text to search, never ``Unmatched double quote in query``. Every retrieval command of the
real CLI over a real SQLite (FTS5) index answers it, and finds the note it is about."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_core.fact_files import content_hash, fact_path, record_id, render_fact
from gno_core.facts import FactRecord
from tests.integration.cli_helpers import Cli

QUESTION = 'When did Joanna first watch "Eternal Sunshine of the Spotless Mind?'
NOTE = "# Films\n\nJoanna first watched Eternal Sunshine of the Spotless Mind in May 2019.\n"
FACT = "Joanna first watched Eternal Sunshine of the Spotless Mind in May 2019"
CREATED = "2026-12-01T09:00:00Z"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")  # keyword legs only: fast, no model
    run = Cli(tmp_path / "home", monkeypatch, capsys)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "films.md").write_text(NOTE, encoding="utf-8")
    (notes / "garden.md").write_text("# Garden\n\nTomatoes need full sun.\n", encoding="utf-8")
    memory = tmp_path / "memory"
    digest = content_hash(FACT)
    rid = record_id(digest, CREATED, "cli:someone", "ppid:1", ("people",))
    record = FactRecord(rid, FACT, ("people",), "cli:someone", "ppid:1", CREATED, digest)
    (memory / fact_path(CREATED, rid)).parent.mkdir(parents=True)
    (memory / fact_path(CREATED, rid)).write_text(render_fact(record), encoding="utf-8")
    run.ok("collection", "add", str(notes), "--name", "notes")
    run.ok("collection", "add", str(memory), "--name", "mem", "--memory")
    run.ok("update")
    return run


def test_search_and_query_read_the_stray_quote_as_text(cli: Cli) -> None:
    for command in ("search", "query"):
        out = cli.ok(command, QUESTION, "-c", "notes", "--json").json()
        assert [r["uri"] for r in out["results"]][:1] == ["gno://notes/films.md"], command
    explained = cli.ok("query", QUESTION, "-c", "notes", "--explain").out
    assert "[query] a double quote that closes no phrase on its line was read as text" in explained


def test_recall_reads_the_stray_quote_as_text(cli: Cli) -> None:
    out = cli.ok("recall", QUESTION, "-c", "mem", "--scope", "people", "--json").json()
    assert [f["text"] for f in out["facts"]] == [FACT]


def test_context_ask_and_diagnose_read_the_stray_quote_as_text(cli: Cli) -> None:
    capsule = cli.ok("context", QUESTION, "--collection", "notes", "--budget", "4000").json()
    assert [e["uri"] for e in capsule["evidence"]][:1] == ["gno://notes/films.md"]
    answer = cli.ok("ask", QUESTION, "-c", "notes", "--json").json()
    assert answer["answerStatus"] in {"answered", "abstained"}
    diagnosis = cli.ok("query", QUESTION, "--diagnose", "notes/films.md", "--json").json()
    assert diagnosis["target"]["uri"] == "gno://notes/films.md"


@pytest.mark.parametrize(
    "question",
    [
        "What does git push --force do?",
        "Is it -5 degrees in the garden?",
        "What is 2*3 * and ** in Joanna's notes?",
        "-tomatoes",
        "Joanna (see: Eternal Sunshine) ^ NEAR( OR AND NOT",
        "“Eternal Sunshine” — did Joanna «watch» it?",
        '5\'10" Joanna "watched',
        " ".join(f"word{i}" for i in range(80)) + " Joanna",
    ],
)
def test_stray_operators_never_fail_a_search(cli: Cli, question: str) -> None:
    for command in ("search", "query"):
        cli.ok(command, "--json", "--", question)  # "--": "-tomatoes" is no option


def test_a_long_goal_is_read_as_plain_words(cli: Cli) -> None:
    """A goal may be 16,384 characters; the keyword grammar reads 2,000. A goal is plain text:
    its first words are searched instead of the capsule failing ``Query is longer than ...``."""
    goal = (QUESTION + " " + " ".join(f"detail{i}" for i in range(2000)))[:16_000]
    capsule = cli.ok("context", goal, "--collection", "notes", "--budget", "30000").json()
    assert [e["uri"] for e in capsule["evidence"]][:1] == ["gno://notes/films.md"]
    assert len(capsule["retrieval"]["request"]["query"]) <= 2000
    assert cli.ok("ask", goal[:10_000], "-c", "notes", "--json").json()["answerStatus"]
