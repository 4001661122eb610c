"""A new user's path on real corpora: add, sync, search, get exact lines, status, in text and JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, monkeypatch, capsys)


def test_dendron_end_to_end(cli: Cli, shared_data: Path) -> None:
    vault = shared_data / "dendron-site" / "vault"
    cli.ok("collection", "add", str(vault), "--name", "Dendron")
    sync = cli.ok("update", "--json").json()
    assert_valid("sync-result", sync)
    added = sync["totalAdded"]
    assert added > 900 and sync["totalFailed"] == 0

    again = cli.ok("update", "--json").json()
    assert again["totalAdded"] == 0 and again["totalUnchanged"] == added

    res = cli.ok("search", "schema template", "--json").json()
    assert_valid("search-results", res)
    assert res["results"], "expected hits for 'schema template'"
    top = res["results"][0]
    assert top["uri"].startswith("gno://dendron/")
    assert top["snippetRange"]["startLine"] <= top["line"] <= top["snippetRange"]["endLine"]

    # The line anchor points at real lines of the mirror: a ranged get returns the snippet's line.
    got = cli.ok("get", top["uri"], "--from", str(top["line"]), "-l", "1", "--json").json()
    assert_valid("get", got)
    line_text = got["content"].rstrip("\n")
    assert line_text.startswith(top["snippet"].split("\n")[0].rstrip("…").rstrip()[:40])
    assert got["returnedLines"] == {"start": top["line"], "end": top["line"]}

    text = cli.ok("get", f"{top['uri']}:{top['line']}", "-l", "2", "--line-numbers").out
    assert text.startswith(f"{top['line']}: ")

    status = cli.ok("status", "--json").json()
    assert_valid("status", status)
    assert status["totalDocuments"] == added
    assert status["collections"][0]["name"] == "dendron"
    human = cli.ok("status").out
    assert "dendron" in human and str(added) in human

    peek = cli.ok("peek", "--json").json()
    assert_valid("peek", peek)
    assert peek["initialized"] is True and peek["counts"]["documents"] == added

    tags = cli.ok("tags", "--json").json()
    assert_valid("tags-list", tags)

    ls = cli.ok("ls", "dendron", "--limit", "5", "--json").json()
    assert_valid("ls", ls)
    assert ls["meta"]["returned"] == 5

    mg = cli.ok("multi-get", top["uri"], "dendron/nope.md", "--max-bytes", "200", "--json").json()
    assert_valid("multi-get", mg)
    assert mg["meta"] == {"requested": 2, "returned": 1, "skipped": 1, "maxBytes": 200}
    assert mg["skipped"][0]["reason"] == "not_found"


def test_fastapi_multilingual(cli: Cli, shared_data: Path) -> None:
    docs = shared_data / "fastapi-docs"
    cli.ok("collection", "add", str(docs), "--name", "fastapi")
    sync = cli.ok("update", "--json").json()
    assert sync["totalAdded"] > 1500
    hits = cli.ok("search", "dependency injection", "-n", "5", "--json").json()
    assert_valid("search-results", hits)
    assert len(hits["results"]) == 5
    # CJK substring search finds Chinese pages.
    zh = cli.ok("search", "依赖", "-n", "3", "--json").json()
    assert zh["results"] and all("/zh" in r["uri"] for r in zh["results"])
    files = cli.ok("search", "dependency injection", "--files").out.splitlines()
    assert files and files[0].startswith("#") and ",gno://fastapi/" in files[0]


def test_errors_are_enveloped(cli: Cli, tmp_path: Path) -> None:
    missing = cli("search", "anything", "--json")
    assert missing.code == 1
    assert_valid("error", missing.json())
    assert missing.json()["error"]["code"] == "NOT_INITIALIZED"

    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("# A\n\nalpha beta\n", encoding="utf-8")
    cli.ok("collection", "add", str(tmp_path / "notes"))
    cli.ok("update")
    bad = cli("search", '"?!', "--json")  # no word to search (a stray quote alone is text)
    assert bad.code == 1 and bad.json()["error"]["code"] == "VALIDATION"
    nf = cli("get", "notes/missing.md")
    assert nf.code == 1 and "Document not found" in nf.err
    assert cli("search", "alpha", "-c", "nope").code == 1
    assert cli("search", "alpha", "-n", "0").code == 1
    assert cli("collection", "add", "/").code == 1
    assert cli("collection", "add", str(tmp_path / "absent")).code == 1
    dup = cli("collection", "add", str(tmp_path / "notes"), "--name", "other")
    assert dup.code == 1 and "already" in dup.err
