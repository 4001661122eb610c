"""Typed metadata filters end to end through the real CLI: ``gno update`` extracts ``gno.metadata``
at sync, ``--filter JSON`` on search/vsearch/query/ask/context, invalid predicates refused with
their field path, coverage warnings for documents not yet extracted or holding invalid metadata,
and ``gno update`` repairing an index made before extraction without new embeddings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import apsw
import pytest

from tests.integration.cli_helpers import Cli

APPROVED = {"op": "eq", "key": "status", "value": "approved"}


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    docs = {
        "approved.md": "gno:\n  metadata:\n    status: approved\n    score: 0.9\n",
        "draft.md": 'gno:\n  metadata:\n    status: draft\n    score: "0.9"\n',
        "plain.md": "title: Plain\n",
        "literal.md": '"gno.metadata":\n  status: approved\n',
        "broken.md": "gno:\n  metadata:\n    status: null\n",
    }
    for name, front in docs.items():
        (root / name).write_text(
            f"---\n{front}---\n\n# {name}\n\nRelease checklist for the kettle project.\n",
            encoding="utf-8",
        )
    return root


def _uris(run: Any) -> list[str]:
    return sorted(r["uri"] for r in run.json()["results"])


def _filter(predicate: dict[str, Any]) -> str:
    return json.dumps(predicate)


def test_search_filters_by_typed_metadata(cli: Cli, notes: Path) -> None:
    cli.ok("collection", "add", str(notes), "--name", "n")
    cli.ok("update")
    got = cli.ok("search", "kettle", "--json", "--filter", _filter(APPROVED))
    assert _uris(got) == ["gno://n/approved.md"]
    meta = got.json()["meta"]
    assert meta["filter"] == APPROVED
    # broken.md holds invalid metadata: the filtered answer says so
    assert meta["metadataCoverage"]["invalidDocuments"] == 1
    assert meta["metadataCoverage"]["complete"] is False
    number = cli.ok(
        "search",
        "kettle",
        "--json",
        "--filter",
        _filter({**APPROVED, "key": "score", "value": 0.9}),
    )
    assert _uris(number) == ["gno://n/approved.md"]
    text = cli.ok(
        "search",
        "kettle",
        "--json",
        "--filter",
        _filter({**APPROVED, "key": "score", "value": "0.9"}),
    )
    assert _uris(text) == ["gno://n/draft.md"]
    missing = {"op": "exists", "key": "status", "value": False}
    assert _uris(cli.ok("search", "kettle", "--json", "--filter", _filter(missing))) == [
        "gno://n/literal.md",
        "gno://n/plain.md",
    ]
    # the text output says it too, on stderr
    plain = cli.ok("search", "kettle", "--filter", _filter(APPROVED))
    assert "n/approved.md" in plain.out and "draft" not in plain.out
    assert "invalid gno.metadata" in plain.err


def test_invalid_predicates_fail_validation_with_a_field_path(cli: Cli, notes: Path) -> None:
    cli.ok("collection", "add", str(notes), "--name", "n")
    cli.ok("update")
    bad = cli(
        "search", "kettle", "--json", "--filter", _filter({"op": "in", "key": "k", "values": []})
    )
    assert bad.code != 0 and "values" in (bad.err + bad.out)
    proto = cli("search", "kettle", "--filter", _filter({**APPROVED, "key": "__proto__"}))
    assert proto.code != 0 and "key" in proto.err
    not_json = cli("search", "kettle", "--filter", "{status: approved}")
    assert not_json.code != 0 and "JSON" in not_json.err
    # a predicate written without "op" (or with an unknown one) is told which ops exist
    no_op = cli("search", "kettle", "--filter", _filter({"eq": {"key": "status", "value": "x"}}))
    assert no_op.code != 0 and 'no "op"' in no_op.err and "eq, ne, gt" in no_op.err
    nested = {"op": "and", "predicates": [{"op": "equals", "key": "status", "value": "x"}]}
    unknown = cli("search", "kettle", "--filter", _filter(nested))
    assert unknown.code != 0 and "filter.and.predicates.0" in unknown.err
    assert "'equals'" in unknown.err and "exists, and, or, not" in unknown.err


def test_update_repairs_an_index_made_before_extraction_without_new_embeddings(
    cli: Cli, notes: Path
) -> None:
    cli.ok("collection", "add", str(notes), "--name", "n")
    cli.ok("update")
    cli.ok("embed")
    status = cli.ok("status", "--json").json()
    assert status["embeddingBacklog"] == 0
    # an index written before metadata extraction: every row pending, older ingest version
    db = next((cli.home / "data").rglob("*.sqlite"))
    conn = apsw.Connection(str(db))
    conn.execute(
        "UPDATE documents SET metadata_state = 'pending', metadata = '{}', ingest_version = 6"
    )
    conn.close()
    pending = cli.ok("search", "kettle", "--json", "--filter", _filter(APPROVED)).json()
    assert pending["results"] == []
    assert pending["meta"]["metadataCoverage"]["pendingDocuments"] == 5
    result = cli.ok("update", "--json").json()
    assert result["totalUpdated"] == 5
    assert cli.ok("status", "--json").json()["embeddingBacklog"] == 0  # no re-embedding
    repaired = cli.ok("search", "kettle", "--json", "--filter", _filter(APPROVED))
    assert _uris(repaired) == ["gno://n/approved.md"]
    assert repaired.json()["meta"]["metadataCoverage"]["pendingDocuments"] == 0
    # the sources were never rewritten
    assert (notes / "approved.md").read_text(encoding="utf-8").startswith("---\ngno:\n")


def test_vsearch_query_context_and_ask_take_the_filter(cli: Cli, notes: Path) -> None:
    cli.ok("collection", "add", str(notes), "--name", "n")
    cli.ok("update")
    cli.ok("embed")
    f = _filter(APPROVED)
    assert _uris(cli.ok("vsearch", "kettle release", "--json", "--filter", f)) == [
        "gno://n/approved.md"
    ]
    assert _uris(cli.ok("query", "kettle release", "--json", "--filter", f)) == [
        "gno://n/approved.md"
    ]
    capsule = cli.ok(
        "context", "kettle release checklist", "--budget", "4000", "--filter", f
    ).json()
    assert capsule["schemaVersion"] == "1.2"
    assert capsule["scope"]["filter"] == APPROVED
    assert {e["uri"] for e in capsule["evidence"]} <= {"gno://n/approved.md"}
    assert "metadata_coverage_incomplete" in capsule["warnings"]  # broken.md
    assert capsule["coverage"]["complete"] is False
    ask = cli("ask", "what is the kettle release checklist", "--json", "--filter", f)
    assert ask.code in (0, 1), ask.err
    body = ask.json()
    capsule = body["verification"]["capsule"]
    assert capsule["scope"]["filter"] == APPROVED


def test_diagnose_tells_mismatch_invalid_and_backfill_apart(cli: Cli, notes: Path) -> None:
    cli.ok("collection", "add", str(notes), "--name", "n")
    cli.ok("update")
    f = _filter(APPROVED)

    def reasons(target: str) -> list[str]:
        run = cli("query", "kettle", "--diagnose", target, "--json", "--filter", f)
        body = run.json()
        assert body["target"]["status"] == "filtered_out", body
        return list(body["target"]["filterReasons"])

    assert reasons("n/draft.md") == ["its gno.metadata does not match the filter"]
    assert "draft" not in " ".join(reasons("n/draft.md"))  # never echoes the stored values
    assert reasons("n/broken.md") == ["its gno.metadata is invalid, so no typed filter matches it"]
    db = next((cli.home / "data").rglob("*.sqlite"))
    conn = apsw.Connection(str(db))
    conn.execute("UPDATE documents SET metadata_state = 'pending' WHERE rel_path = 'draft.md'")
    conn.close()
    assert reasons("n/draft.md") == [
        "its typed metadata is not yet extracted (gno update extracts it)"
    ]
    ok = cli("query", "kettle", "--diagnose", "n/approved.md", "--json", "--filter", f).json()
    assert ok["target"]["status"] == "diagnosed"
