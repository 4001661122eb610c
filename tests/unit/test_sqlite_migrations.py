"""Schema migrations of the SQLite index: numbering, idempotence, refusal of newer schemas."""

from __future__ import annotations

import time
from pathlib import Path

import apsw
import pytest

from gno_adapters.sqlite.connection import connect
from gno_adapters.sqlite.migrations import LATEST_VERSION, MIGRATIONS, migrate, schema_version
from gno_core.domain import INGEST_VERSION
from gno_core.errors import RuntimeFailure
from tests.contract.store_support import apsw_index


def test_migrations_are_numbered_in_order_with_unique_wire_names() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    names = [m.name for m in MIGRATIONS]
    assert len(set(names)) == len(names)
    for m in MIGRATIONS:
        assert m.name.startswith(f"{m.version:04d}_")
    # Wire names are contracts: these may never change.
    assert names[:3] == ["0001_documents", "0002_documents_fts", "0003_content_vectors"]


def test_fresh_database_is_migrated_to_the_latest_version(tmp_path: Path) -> None:
    path = str(tmp_path / "i.sqlite")
    apsw_index(path).close()
    conn = apsw.Connection(path)
    try:
        assert schema_version(conn) == LATEST_VERSION
        rows = list(conn.execute("SELECT version, name FROM schema_migrations ORDER BY version"))
        assert rows == [(m.version, m.name) for m in MIGRATIONS]
        meta = dict(conn.execute("SELECT key, value FROM schema_meta"))
        assert meta["fts_tokenizer"] == "porter unicode61 remove_diacritics 2"
        assert meta["fts_segmenter"] == "cjk-bigram-v1"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_connections_enforce_foreign_keys_and_wait_when_busy(tmp_path: Path) -> None:
    conn = connect(str(tmp_path / "i.sqlite"))
    try:
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    finally:
        conn.close()


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    conn = connect(str(tmp_path / "i.sqlite"))
    try:
        assert migrate(conn) == LATEST_VERSION
        before = list(conn.execute("SELECT * FROM schema_migrations"))
        assert migrate(conn) == LATEST_VERSION
        assert list(conn.execute("SELECT * FROM schema_migrations")) == before
    finally:
        conn.close()


def test_opening_a_current_index_takes_no_write_lock(tmp_path: Path) -> None:
    path = str(tmp_path / "i.sqlite")
    apsw_index(path).close()
    writer = connect(path)
    try:
        writer.execute("BEGIN IMMEDIATE")
        started = time.perf_counter()
        with apsw_index(path) as reader:  # a search while a sync holds the write lock
            assert reader.stats.counts() == []
        assert time.perf_counter() - started < 1.0
        writer.execute("ROLLBACK")
    finally:
        writer.close()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "i.sqlite")
    apsw_index(path).close()
    conn = apsw.Connection(path)
    conn.execute("UPDATE schema_meta SET value = '999' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(RuntimeFailure) as info:
        apsw_index(path)
    assert info.value.details["schema_version"] == 999


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    from gno_adapters.sqlite.migrations import Migration

    def broken(conn: apsw.Connection) -> None:
        conn.execute("CREATE TABLE half_done(x)")
        conn.execute("THIS IS NOT SQL")

    conn = connect(str(tmp_path / "i.sqlite"))
    try:
        with pytest.raises(apsw.SQLError):
            migrate(conn, (*MIGRATIONS, Migration(LATEST_VERSION + 1, "9999_broken", broken)))
        assert schema_version(conn) == LATEST_VERSION
        exists = conn.execute("SELECT 1 FROM sqlite_schema WHERE name = 'half_done'").fetchone()
        assert exists is None
    finally:
        conn.close()


def test_fact_documents_are_read_again_after_the_identity_migration(tmp_path: Path) -> None:
    from tests.contract.store_support import make_doc, put

    path = str(tmp_path / "i.sqlite")
    store = apsw_index(path)
    put(
        store,
        make_doc("facts/2026-01-01/mem-0123456789abcdef.md", "a fact", collection="mem"),
        make_doc("notes/facts.md", "a note", collection="mem"),
    )
    store.close()
    conn = connect(path)
    try:  # back to the index as version 6 left it
        conn.execute("DELETE FROM schema_migrations WHERE version = 7")
        conn.execute("UPDATE schema_meta SET value = '6' WHERE key = 'schema_version'")
        assert migrate(conn, MIGRATIONS[:7]) == 7
        versions = dict(conn.execute("SELECT rel_path, ingest_version FROM documents"))
        assert versions == {
            "facts/2026-01-01/mem-0123456789abcdef.md": 0,
            "notes/facts.md": INGEST_VERSION,
        }
    finally:
        conn.close()


def test_documents_indexed_before_the_chunking_column_read_as_unrecorded(tmp_path: Path) -> None:
    path = str(tmp_path / "i.sqlite")
    conn = connect(path)
    try:
        assert migrate(conn, MIGRATIONS[:7]) == 7
    finally:
        conn.close()
    store = apsw_index(path)  # opening migrates to the latest: the column exists, NULL
    try:
        from tests.contract.store_support import make_doc, put

        put(store, make_doc("a.md", "a"))
        assert store.ledger.source_states("notes")["a.md"].chunking is None
    finally:
        store.close()
