"""The SQLite index beyond the port contracts: query plans, error translation, crash safety."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import apsw
import pytest

from gno_adapters.sqlite import connection as sqlite_connection
from gno_adapters.sqlite import lexical
from gno_adapters.sqlite.rows import DOC_COLUMNS
from gno_core.domain import SearchFilters, SyncBatch
from gno_core.errors import LockedError, RuntimeFailure
from gno_core.retrieval.query import parse_query
from tests.contract.store_support import apsw_index, conn_of, make_doc, put

REPO = Path(__file__).resolve().parents[2]
ALL_FILTERS = SearchFilters(
    collections=("a", "b"),
    path_prefix="p/",
    tags_all=("x",),
    tags_any=("y", "z"),
    since_ns=1,
    until_ns=2,
    categories=("c",),
    author="ann",
    lang="en",
    exclude_terms=("bad",),
)


def plan(conn: apsw.Connection, sql: str, params: tuple[object, ...]) -> list[str]:
    return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]


def fts_scans(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("SCAN documents_fts VIRTUAL TABLE")]


@pytest.mark.parametrize("filters", [SearchFilters(), ALL_FILTERS], ids=["none", "all"])
def test_search_runs_the_match_once_and_never_per_document(
    tmp_path: Path, filters: SearchFilters
) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        put(store, make_doc("a.md", "alpha"))
        where = lexical.filter_sql(filters)
        sql = lexical.search_sql(DOC_COLUMNS, where)
        lines = plan(conn_of(store), sql, ("alpha", *where.params, 10))
    scans = fts_scans(lines)
    assert lines[0] == "MATERIALIZE hits"
    # One MATCH scan ("M"), with no rowid constraint ("=" in FTS5's index string) pushed in.
    assert len(scans) == 1 and scans[0].endswith(":M3"), lines
    assert "SCAN hits" in lines and "SEARCH d USING INTEGER PRIMARY KEY (rowid=?)" in lines


def test_the_plan_check_catches_the_per_row_match_trap(tmp_path: Path) -> None:
    """The form that made the original take 22 s: the detector above must see it."""
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        lines = plan(
            conn_of(store),
            "SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? "
            "AND rowid IN (SELECT id FROM documents WHERE active = 1) ORDER BY rank LIMIT 10",
            ("alpha",),
        )
    scans = fts_scans(lines)
    assert len(scans) == 1 and "=" in scans[0].rsplit(":", 1)[1]


def test_match_expressions_quote_every_phrase() -> None:
    query = parse_query('kettle "brown fox" tea* -milk')
    assert lexical.match_expression(query, ("sugar cane",)) == (
        '("brown fox" AND ("brown fox" OR "kettle" OR "tea"*)) NOT ("milk" OR "sugar cane")'
    )
    assert lexical.match_expression(parse_query("检索 索")) == '("检索" OR "索"*)'


def test_database_errors_become_runtime_failures(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite"
    path.write_bytes(b"this is not a database file at all" * 200)
    with pytest.raises(RuntimeFailure) as info:
        apsw_index(str(path))
    assert info.value.code == "RUNTIME"
    assert isinstance(info.value.__cause__, apsw.Error)


def test_a_busy_database_is_a_typed_locked_error_not_an_apsw_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "i.sqlite")
    apsw_index(path).close()
    monkeypatch.setattr(sqlite_connection, "BUSY_TIMEOUT_MS", 50)
    writer = sqlite_connection.connect(path)
    try:
        writer.execute("BEGIN IMMEDIATE")
        with apsw_index(path) as store, pytest.raises(LockedError) as info:
            store.ledger.apply_batch(SyncBatch("notes", upserts=(make_doc("a.md", "a"),)))
        assert info.value.code == "LOCKED"
        assert "database is locked" not in info.value.message
        assert info.value.details["sqlite_error"] == "BusyError"
        writer.execute("ROLLBACK")
    finally:
        writer.close()


def test_close_is_idempotent(tmp_path: Path) -> None:
    store = apsw_index(str(tmp_path / "i.sqlite"))
    store.close()
    store.close()
    with pytest.raises(RuntimeFailure):
        store.stats.counts()


WRITER = textwrap.dedent(
    """
    import sys
    from gno_core.domain import IngestFailure, SyncBatch
    from tests.contract.store_support import apsw_index, make_doc

    store = apsw_index(sys.argv[1])
    k = 0
    while True:
        docs = tuple(make_doc(f"b{k}/{i}.md", f"batch {k} doc {i} " * 50) for i in range(40))
        store.ledger.apply_batch(SyncBatch(
            "notes",
            upserts=docs,
            deactivate=tuple(f"b{k - 1}/{i}.md" for i in range(0, 40, 2)),
            failures=(IngestFailure("notes", f"f{k}.pdf", "BINARY", "b"),),
        ))
        print(k, flush=True)
        k += 1
    """
)


def check_consistent(path: str) -> int:
    conn = apsw.Connection(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO documents_fts(documents_fts, rank) VALUES ('integrity-check', 0)")
        active = conn.execute("SELECT count(*) FROM documents WHERE active = 1").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM documents_fts").fetchone()[0] == active
        per_batch = dict(
            conn.execute(
                "SELECT substr(rel_path, 1, instr(rel_path, '/') - 1), count(*) FROM documents "
                "GROUP BY 1"
            )
        )
        assert all(n == 40 for n in per_batch.values()), per_batch
        failures = {r[0] for r in conn.execute("SELECT rel_path FROM ingest_errors")}
        assert failures == {f"f{b[1:]}.pdf" for b in per_batch}
        orphans = conn.execute(
            "SELECT count(*) FROM content c WHERE NOT EXISTS "
            "(SELECT 1 FROM documents d WHERE d.mirror_hash = c.mirror_hash)"
        ).fetchone()[0]
        missing = conn.execute(
            "SELECT count(*) FROM documents d WHERE NOT EXISTS "
            "(SELECT 1 FROM content c WHERE c.mirror_hash = d.mirror_hash)"
        ).fetchone()[0]
        assert (orphans, missing) == (0, 0)
        return len(per_batch)
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.013, 0.037])
def test_sigkill_during_writes_leaves_a_consistent_store(tmp_path: Path, delay: float) -> None:
    path = str(tmp_path / "i.sqlite")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, path], stdout=subprocess.PIPE, env=env, cwd=REPO
    )
    try:
        assert proc.stdout is not None
        for _ in range(3):  # let a few batches commit, then kill in the middle of another
            assert proc.stdout.readline(), "writer died"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    assert check_consistent(path) >= 3
    with apsw_index(path) as store:  # and it is still a usable store
        assert store.lexical.search(parse_query("batch"), SearchFilters(), 5)
        store.ledger.apply_batch(SyncBatch("notes", upserts=(make_doc("after.md", "after crash"),)))
