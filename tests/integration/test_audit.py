"""``gno audit`` and ``Gno.audit`` on SQLite over real files: a vault that fails every rule
that can fail (the read-only proof hashes source files, config, every index row and the graph
edges before and after), stable finding ids, exact totals past ``maxFindings``, cancellation
and an index changing under the audit (never a clean report), and the exit codes 0/4/5."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import gno_core
from gno_core.config import CollectionConfig
from gno_core.contracts.integrity_requests import AuditRequest
from gno_core.facade import Gno
from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid

NOTES = {
    "hub.md": "# Hub\n\n[[missing-note]] [[dup]] [[old]] [[gone]] [[changed]] [[bad]]\n"
    "![pic](pic.png) [cap](inbox/2026-01-01/capture-0123456789ab.md)\n",
    "a/dup.md": "# Dup A\n\n[[hub]]\n",
    "b/dup.md": "# Dup B\n\n[[hub]]\n",
    "lone.md": "# Lone\n\nNobody links here.\n",
    "old.md": "---\ndate: 2001-01-01\n---\n# Old\n",
    "gone.md": "# Gone\n",
    "changed.md": "# Changed\n",
    "inbox/2026-01-01/capture-0123456789ab.md": "---\nsource:\n  kind: web\n---\n# Cap\n",
    # another tool's source: records (dendron-site has both kinds) are not gno captures
    "foreign.md": "---\nsource:\n  sourceFileHash: abc\n---\n# Foreign\n",
    "quoted.md": "---\nsource: https://example.org/page\n---\n# Quoted\n",
}
FACTS = {"facts/mem-broken.md": "---\nkind: fact\n---\nnot a valid fact\n"}
EVERY_RULE = {
    "links.local-targets": "fail",
    "links.ambiguous-targets": "fail",
    "links.orphans": "fail",
    "links.parser-boundary": "fail",
    "provenance.capture-source": "fail",
    # gno has no record adapters: nothing is a logical record, so this one cannot fail
    "provenance.logical-record": "skip",
    "provenance.memory-record": "fail",
    "freshness.source-readable": "fail",
    "freshness.source-index-drift": "fail",
    "freshness.index-revision": "fail",
    "freshness.configured-age-signal": "fail",
}


def _env(home: Path) -> dict[str, str]:
    return {
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _broken_vault(tmp: Path) -> tuple[Gno, Path]:
    vault, mem = tmp / "vault", tmp / "mem"
    _write(vault, NOTES)
    (vault / "pic.png").write_bytes(b"\x89PNG")
    (vault / "bad.md").write_bytes(b"# Bad \xff\xfe text\n")
    _write(mem, FACTS)
    gno = gno_core.open(env=_env(tmp / "home"))
    gno.add_collection(CollectionConfig(name="notes", path=str(vault)))
    gno.add_collection(CollectionConfig(name="mem", path=str(mem), memory_managed=True))
    gno.sync()
    # after the sync: a source deleted, one edited, one added, one document indexed by an
    # older gno (the only way to make an index from an older version here)
    (vault / "gone.md").unlink()
    (vault / "changed.md").write_text("# Changed\n\nSince the sync.\n", encoding="utf-8")
    (vault / "new.md").write_text("# New\n", encoding="utf-8")
    db = next((tmp / "home" / "data").glob("index-*.sqlite"))
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE documents SET ingest_version = 1 WHERE rel_path = 'lone.md'")
    return gno, vault


def _tree_digest(*roots: Path) -> str:
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(root.rglob("*")):
            st = path.lstat()
            digest.update(f"{path}\0{st.st_mode}\0{st.st_mtime_ns}\0{st.st_size}\n".encode())
            if path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _rows_digest(db: Path) -> str:
    """Every row of every table of the index, read through a read-only connection."""
    digest = hashlib.sha256()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"
            )
        ]
        for table in tables:
            digest.update(table.encode())
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                digest.update(repr(row).encode())
    finally:
        conn.close()
    return digest.hexdigest()


def _edges(gno: Gno) -> list[tuple[str, str, str, str, str]]:
    return sorted(
        (e.source.rel_path, e.target.rel_path, e.relation, e.link_type, e.confidence)
        for e in gno.handle.index.links.edges()
    )


@pytest.fixture
def broken(tmp_path: Path) -> Iterator[tuple[Gno, Path]]:
    gno, vault = _broken_vault(tmp_path)
    yield gno, vault
    gno.close()


def test_a_vault_that_fails_every_rule_and_the_audit_modifies_nothing(
    broken: tuple[Gno, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    gno, vault = broken
    home = tmp_path / "home"
    db = next((home / "data").glob("index-*.sqlite"))
    config = next((home / "config").rglob("*.yml"))
    before = (
        _tree_digest(vault, tmp_path / "mem"),
        config.read_bytes(),
        _rows_digest(db),
        _edges(gno),
        sorted(p.name for p in (home / "data").iterdir() if not p.name.endswith(("-wal", "-shm"))),
    )
    report = gno.audit(AuditRequest(max_age_days=30, max_findings=1000))
    cli = Cli(home, monkeypatch, capsys)
    run = cli("audit", "--max-age-days", "30", "--json")
    after = (
        _tree_digest(vault, tmp_path / "mem"),
        config.read_bytes(),
        _rows_digest(db),
        _edges(gno),
        sorted(p.name for p in (home / "data").iterdir() if not p.name.endswith(("-wal", "-shm"))),
    )
    assert after == before
    assert_valid("audit-report", report.wire())
    assert {r.id: r.status for r in report.rules} == EVERY_RULE
    assert report.status == "complete"
    assert run.code == 4 and run.json()["counts"] == report.wire()["counts"]
    by_rule: dict[str, list[str]] = {}
    for f in report.findings:
        by_rule.setdefault(f.rule, []).append(f.subject.rel_path)
    assert sorted(by_rule["links.local-targets"]) == ["hub.md"]  # missing-note; pic.png exists
    assert by_rule["links.ambiguous-targets"] == ["hub.md"]
    assert "lone.md" in by_rule["links.orphans"]
    assert by_rule["links.parser-boundary"] == ["bad.md"]
    assert by_rule["provenance.capture-source"] == ["inbox/2026-01-01/capture-0123456789ab.md"]
    assert by_rule["provenance.memory-record"] == ["facts/mem-broken.md"]
    assert by_rule["freshness.source-readable"] == ["gone.md"]
    assert sorted(by_rule["freshness.source-index-drift"]) == ["changed.md", "new.md"]
    assert by_rule["freshness.index-revision"] == ["lone.md"]
    assert by_rule["freshness.configured-age-signal"] == ["old.md"]
    for f in report.findings:
        assert 1 <= len(f.evidence) <= 8 and 1 <= len(f.guidance) <= 4


def test_ids_are_stable_and_totals_exact_past_max_findings(broken: tuple[Gno, Path]) -> None:
    gno, _ = broken
    whole = gno.audit(AuditRequest(max_findings=1000))
    again = gno.audit(AuditRequest(max_findings=1000))
    assert [f.id for f in whole.findings] == [f.id for f in again.findings]
    assert len({f.id for f in whole.findings}) == len(whole.findings)
    cut = gno.audit(AuditRequest(max_findings=2))
    assert [f.id for f in cut.findings] == [f.id for f in whole.findings[:2]]
    assert cut.counts.findings == whole.counts.findings == len(whole.findings)
    assert cut.truncation.truncated and cut.truncation.omitted == len(whole.findings) - 2
    assert cut.counts.by_rule == whole.counts.by_rule
    only = gno.audit(AuditRequest(category="provenance", collection="notes"))
    assert [r.id for r in only.rules] == [
        "provenance.capture-source",
        "provenance.logical-record",
        "provenance.memory-record",
    ]
    assert only.scope.collections == ["notes"]


def test_cancellation_gives_a_partial_report_never_a_clean_one(tmp_path: Path) -> None:
    vault = tmp_path / "clean"
    _write(vault, {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n\n[[a]]\n"})
    with gno_core.open(env=_env(tmp_path / "home")) as gno:
        gno.add_collection(CollectionConfig(name="clean", path=str(vault)))
        gno.sync()
        clean = gno.audit(AuditRequest())
        assert clean.status == "complete" and clean.counts.findings == 0
        calls = iter(range(10_000))
        report = gno.audit(AuditRequest(), cancelled=lambda: next(calls) >= 1)
        assert report.status == "partial"
        assert report.counts.findings == 0
        assert any(r.status == "inconclusive" and r.reason == "cancelled" for r in report.rules)
        assert not all(r.status in ("pass", "skip") for r in report.rules)


def test_an_index_changing_twice_during_the_audit_is_said(tmp_path: Path) -> None:
    vault = tmp_path / "busy"
    _write(vault, {"a.md": "# A\n", "b.md": "# B\n\n[[a]]\n"})
    env = _env(tmp_path / "home")
    with gno_core.open(env=env) as gno, gno_core.open(env=env) as writer:
        gno.add_collection(CollectionConfig(name="busy", path=str(vault)))
        gno.sync()
        turn = iter(range(10_000))
        lock = threading.Lock()  # the audit asks from its source readers too

        def busy() -> bool:
            with lock:
                n = next(turn)
                (vault / "a.md").write_text(f"# A\n\nedit {n}\n", encoding="utf-8")
                os.utime(vault / "a.md", ns=(n * 10**9, n * 10**9))
                writer.sync()
            return False

        report = gno.audit(AuditRequest(category="links"), cancelled=busy)
        assert report.status == "changed_during_audit"
        assert report.fingerprints.attempts == 2
        assert report.fingerprints.index_before != report.fingerprints.index_after


def test_exit_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = tmp_path / "v"
    _write(vault, {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n\n[[a]]\n"})
    cli = Cli(tmp_path / "home", monkeypatch, capsys)
    cli.ok("collection", "add", str(vault), "--name", "v")
    cli.ok("update")
    clean = cli("audit")
    assert clean.code == 0, clean.out
    assert clean.out.startswith("Audit of 2 documents (v; all): complete, 0 findings")
    # an entry note that names nothing: the orphan rule cannot decide, the report is partial
    partial = cli("audit", "links", "--orphan-root", "nowhere.md")
    assert partial.code == 5, partial.out
    assert "inconclusive" in partial.out and "Warning: rules that could not decide" in partial.out
    (vault / "a.md").write_text("# A\n\n[[b]] [[nope]]\n", encoding="utf-8")
    cli.ok("update")
    found = cli("audit", "links", "-o", str(tmp_path / "report.json"))
    assert found.code == 4
    assert "[error] links.local-targets  gno://v/a.md:3:" in found.out
    assert (tmp_path / "report.json").is_file()
    assert cli("audit", "--max-findings", "0").code == 1
    assert cli("audit", "--collection", "nope").code == 1


def test_a_note_linked_only_from_another_collection_is_no_orphan(tmp_path: Path) -> None:
    _write(tmp_path / "one", {"target.md": "# Target\n"})
    _write(tmp_path / "two", {"source.md": "# Source\n\n[[one:target]]\n"})
    with gno_core.open(env=_env(tmp_path / "home")) as gno:
        gno.add_collection(CollectionConfig(name="one", path=str(tmp_path / "one")))
        gno.add_collection(CollectionConfig(name="two", path=str(tmp_path / "two")))
        gno.sync()
        assert _edges(gno) == [("source.md", "target.md", "links_to", "wiki", "explicit")]
        report = gno.audit(AuditRequest(category="links", collection="one"))
        assert [f.subject.rel_path for f in report.findings] == []
        both = gno.audit(AuditRequest(category="links"))
        assert [f.subject.rel_path for f in both.findings] == ["source.md"]
