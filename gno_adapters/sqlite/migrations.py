"""Numbered schema migrations of the SQLite index and the runner that applies them.

Each migration is a function taking the connection, applied once, in its own transaction,
in version order. ``schema_meta`` holds the applied version (key ``schema_version``);
``schema_migrations`` records each migration's wire name. Names and numbers are contracts:
append new migrations, never rename, renumber or edit an applied one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import apsw

from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.trace_schema import m0013_retrieval_traces
from gno_core.errors import RuntimeFailure
from gno_core.text.cjk import SEGMENTER_ID

#: FTS5 tokenizer of the lexical index: Porter stemming over unicode61 (diacritics folded).
#: CJK text reaches it pre-segmented into bigrams (``gno_core.text.cjk``).
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"


class Migration(NamedTuple):
    version: int
    name: str
    apply: Callable[[apsw.Connection], None]


def _m0001_documents(conn: apsw.Connection) -> None:
    conn.execute(
        """
        CREATE TABLE content (
            mirror_hash TEXT PRIMARY KEY,
            markdown TEXT NOT NULL
        );
        CREATE TABLE documents (
            id INTEGER PRIMARY KEY,
            collection TEXT NOT NULL,
            rel_path TEXT NOT NULL,
            abs_path TEXT NOT NULL,
            source_hash TEXT NOT NULL,
            source_mime TEXT NOT NULL,
            source_ext TEXT NOT NULL,
            source_size INTEGER NOT NULL,
            source_mtime_ns INTEGER NOT NULL,
            mirror_hash TEXT NOT NULL REFERENCES content(mirror_hash),
            title TEXT,
            content_type TEXT,
            categories TEXT NOT NULL DEFAULT '[]',
            author TEXT,
            date TEXT,
            date_ns INTEGER NOT NULL,
            language TEXT,
            tags TEXT NOT NULL DEFAULT '[]',
            converter_id TEXT NOT NULL,
            converter_version TEXT NOT NULL,
            ingest_version INTEGER NOT NULL,
            active INTEGER NOT NULL DEFAULT 1,
            indexed_at TEXT NOT NULL,
            UNIQUE (collection, rel_path)
        );
        CREATE INDEX documents_source_hash ON documents(source_hash);
        CREATE INDEX documents_mirror_hash ON documents(mirror_hash);
        CREATE INDEX documents_recent ON documents(active, source_mtime_ns);
        CREATE TABLE chunks (
            mirror_hash TEXT NOT NULL REFERENCES content(mirror_hash) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            pos INTEGER NOT NULL,
            text TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            language TEXT,
            token_count INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (mirror_hash, seq)
        );
        CREATE TABLE doc_tags (
            doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            tag TEXT NOT NULL,
            PRIMARY KEY (doc_id, tag)
        ) WITHOUT ROWID;
        CREATE INDEX doc_tags_tag ON doc_tags(tag, doc_id);
        CREATE TABLE ingest_errors (
            id INTEGER PRIMARY KEY,
            collection TEXT NOT NULL,
            rel_path TEXT NOT NULL,
            code TEXT NOT NULL,
            message TEXT NOT NULL,
            size INTEGER NOT NULL DEFAULT 0,
            mtime_ns INTEGER NOT NULL DEFAULT 0,
            source_hash TEXT,
            occurred_at TEXT NOT NULL,
            UNIQUE (collection, rel_path)
        );
        """
    )


def _m0002_documents_fts(conn: apsw.Connection) -> None:
    # Contentless: the text lives in ``content``; the index stores only postings, and rows
    # can still be deleted (contentless_delete, SQLite >= 3.43). A row exists iff its document
    # is active, so searches need no per-row activity check inside the FTS5 query.
    conn.execute(
        f"""
        CREATE VIRTUAL TABLE documents_fts USING fts5(
            path, title, body,
            tokenize = '{FTS_TOKENIZER}',
            content = '',
            contentless_delete = 1
        );
        """
    )
    conn.execute(
        "INSERT OR REPLACE INTO schema_meta(key, value) VALUES ('fts_tokenizer', ?), "
        "('fts_segmenter', ?)",
        (FTS_TOKENIZER, SEGMENTER_ID),
    )


def _m0003_content_vectors(conn: apsw.Connection) -> None:
    # ``content_vectors`` is the source of truth (float32 little-endian blobs); each vector
    # space also gets a sqlite-vec ``vec0`` table (named in ``vector_spaces``) holding copies
    # under rowid = ``content_vectors.id``, created and rebuilt at run time because the
    # extension may be missing when migrations run. Vectors follow their chunk (cascade).
    # Deleted ids are queued in ``vector_tombstones`` by a trigger on the plain table, so
    # deleting never needs the extension; the next write that has it replays them on vec0.
    conn.execute(
        """
        CREATE TABLE vector_spaces (
            fingerprint TEXT PRIMARY KEY,
            model_id TEXT NOT NULL,
            dimensions INTEGER NOT NULL,
            vec_table TEXT NOT NULL UNIQUE,
            vec_synced INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        );
        CREATE TABLE content_vectors (
            id INTEGER PRIMARY KEY,
            mirror_hash TEXT NOT NULL,
            seq INTEGER NOT NULL,
            fingerprint TEXT NOT NULL,
            embedding BLOB NOT NULL,
            embedded_at TEXT NOT NULL,
            UNIQUE (fingerprint, mirror_hash, seq),
            FOREIGN KEY (mirror_hash, seq) REFERENCES chunks(mirror_hash, seq) ON DELETE CASCADE
        );
        CREATE INDEX content_vectors_chunk ON content_vectors(mirror_hash, seq);
        CREATE TABLE vector_tombstones (
            fingerprint TEXT NOT NULL,
            id INTEGER NOT NULL,
            PRIMARY KEY (fingerprint, id)
        ) WITHOUT ROWID;
        CREATE TRIGGER content_vectors_deleted AFTER DELETE ON content_vectors BEGIN
            INSERT OR IGNORE INTO vector_tombstones(fingerprint, id)
            VALUES (old.fingerprint, old.id);
        END;
        """
    )


def _m0004_links(conn: apsw.Connection) -> None:
    # Links belong to a document row (their meaning depends on where they are written) and are
    # replaced with it. ``link_keys`` finds the links a document's names could satisfy (by-key
    # lookups when a target appears, changes or goes); ``link_targets`` holds resolutions, with
    # the by-target index that backlinks read. ``doc_names`` are the names each document can
    # be linked by. Every row cascades from its document, so nothing outlives a purge.
    conn.execute(
        """
        CREATE TABLE doc_names (
            doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            PRIMARY KEY (doc_id, kind, key)
        ) WITHOUT ROWID;
        CREATE INDEX doc_names_key ON doc_names(key, kind, doc_id);
        CREATE TABLE doc_links (
            id INTEGER PRIMARY KEY,
            doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            link_type TEXT NOT NULL,
            edge_source TEXT NOT NULL,
            relation TEXT NOT NULL,
            target_ref TEXT NOT NULL,
            target_anchor TEXT,
            target_collection TEXT,
            link_text TEXT,
            alias TEXT,
            start_line INTEGER NOT NULL,
            start_col INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            end_col INTEGER NOT NULL,
            external INTEGER NOT NULL DEFAULT 0,
            embed INTEGER NOT NULL DEFAULT 0,
            context TEXT NOT NULL DEFAULT '',
            keys TEXT NOT NULL DEFAULT '[]',
            state TEXT NOT NULL DEFAULT 'pending',
            UNIQUE (doc_id, seq)
        );
        CREATE INDEX doc_links_pending ON doc_links(id) WHERE state = 'pending';
        CREATE TABLE link_keys (
            link_id INTEGER NOT NULL REFERENCES doc_links(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            PRIMARY KEY (link_id, key)
        ) WITHOUT ROWID;
        CREATE INDEX link_keys_key ON link_keys(key, link_id);
        CREATE TABLE link_targets (
            link_id INTEGER NOT NULL REFERENCES doc_links(id) ON DELETE CASCADE,
            dst_doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            confidence TEXT NOT NULL,
            method TEXT NOT NULL,
            PRIMARY KEY (link_id, dst_doc_id)
        ) WITHOUT ROWID;
        CREATE INDEX link_targets_dst ON link_targets(dst_doc_id, link_id);
        """
    )


def _m0005_converter_warnings(conn: apsw.Connection) -> None:
    # What a converter could not keep (pages without a text layer, dropped DOCX features), as
    # a JSON list: part of the document's conversion provenance in get and search results.
    conn.execute("ALTER TABLE documents ADD COLUMN converter_warnings TEXT NOT NULL DEFAULT '[]'")


def _m0006_memory(conn: apsw.Connection) -> None:
    # The fact record each ``facts/`` file states (``invalid_code`` set when it states none),
    # its scopes (the recall filter, by scope) and the facts it supersedes, by the predecessor's
    # path (the "is it current?" test looks successors up by it). Rows cascade from the document.
    conn.execute(
        """
        CREATE TABLE memory_facts (
            doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            record_id TEXT,
            fact_text TEXT,
            caller TEXT,
            session TEXT,
            created_at TEXT,
            content_hash TEXT,
            source TEXT,
            scopes TEXT NOT NULL DEFAULT '[]',
            supersedes TEXT NOT NULL DEFAULT '[]',
            invalid_code TEXT,
            invalid_message TEXT
        );
        CREATE INDEX memory_facts_hash ON memory_facts(content_hash) WHERE invalid_code IS NULL;
        CREATE TABLE memory_scopes (
            scope TEXT NOT NULL,
            doc_id INTEGER NOT NULL REFERENCES memory_facts(doc_id) ON DELETE CASCADE,
            PRIMARY KEY (scope, doc_id)
        ) WITHOUT ROWID;
        CREATE INDEX memory_scopes_doc ON memory_scopes(doc_id);
        CREATE TABLE memory_supersedes (
            collection TEXT NOT NULL,
            rel_path TEXT NOT NULL,
            successor INTEGER NOT NULL REFERENCES memory_facts(doc_id) ON DELETE CASCADE,
            PRIMARY KEY (collection, rel_path, successor)
        ) WITHOUT ROWID;
        CREATE INDEX memory_supersedes_successor ON memory_supersedes(successor);
        """
    )


def _m0007_fact_identity(conn: apsw.Connection) -> None:
    # Fact files are verified by their identity now (record id and path derived again at
    # ingest, supersession within one collection and a shared scope): every document under
    # ``facts/`` is read again by the next sync, so no fact stored before is trusted unchecked.
    conn.execute("UPDATE documents SET ingest_version = 0 WHERE rel_path LIKE 'facts/%'")


def _m0008_chunking_policy(conn: apsw.Connection) -> None:
    # The chunking policy each document's chunks were made with (``maxTokens:overlapPercent``),
    # so status can say whether the cached layouts follow the configured policy and sync can
    # chunk again what does not. NULL: indexed before, with the defaults (``legacy-default``).
    conn.execute("ALTER TABLE documents ADD COLUMN chunking TEXT")


def _m0009_typed_metadata(conn: apsw.Connection) -> None:
    # The typed ``gno.metadata`` map of each document (a JSON object), and its extraction state:
    # ``valid``, ``invalid`` (``metadata_error`` says why) or ``pending`` for documents indexed
    # before metadata was extracted, which match no typed filter until ``gno update`` reads them
    # again (``INGEST_VERSION`` 7; unchanged chunks keep their vectors).
    conn.execute(
        "ALTER TABLE documents ADD COLUMN metadata_state TEXT NOT NULL DEFAULT 'pending';"
        "ALTER TABLE documents ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';"
        "ALTER TABLE documents ADD COLUMN metadata_error TEXT;"
        "CREATE INDEX documents_metadata_unsettled ON documents(metadata_state) "
        "WHERE metadata_state != 'valid'"
    )


def _m0010_change_journal(conn: apsw.Connection) -> None:
    # The change journal (``gno_core.journal``): one entry per document change, written in the
    # transaction of the change; ``documents.structure`` keeps each document's structure (its
    # headings, links, typed edges, dates; never a body) for the delta of its next change. NULL:
    # indexed before the journal (its next change says its prior structure is unknown).
    # ``change_journal_state`` holds the journal's epoch (a cursor of another journal is
    # recognised), the last purged seq and the retained count and bytes.
    conn.execute(
        """
        ALTER TABLE documents ADD COLUMN structure TEXT;
        CREATE TABLE change_journal (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            observed_ns INTEGER NOT NULL,
            kind TEXT NOT NULL,
            collection TEXT NOT NULL,
            rel_path TEXT NOT NULL,
            previous_path TEXT,
            bytes INTEGER NOT NULL,
            payload TEXT NOT NULL
        );
        CREATE INDEX change_journal_document ON change_journal(collection, rel_path, seq);
        CREATE INDEX change_journal_renamed ON change_journal(collection, previous_path, seq)
            WHERE previous_path IS NOT NULL;
        CREATE TABLE change_journal_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO change_journal_state(key, value) VALUES
            ('epoch', lower(hex(randomblob(16)))),
            ('purged_through', '0'),
            ('entries', '0'),
            ('bytes', '0');
        """
    )


def _m0011_journal_collection_renames(conn: apsw.Connection) -> None:
    # A collection rename journals one ``rename`` per document, filed under the new name; the
    # old name is kept so a document is found by its old ``collection/path`` too.
    conn.execute(
        """
        ALTER TABLE change_journal ADD COLUMN previous_collection TEXT;
        CREATE INDEX change_journal_moved_collection
            ON change_journal(previous_collection, rel_path, seq)
            WHERE previous_collection IS NOT NULL;
        """
    )


def _m0012_egress(conn: apsw.Connection) -> None:
    # Egress policy (``gno_core.egress``): each collection's explicit policy, its revision
    # (rows are never deleted, so a revision never goes back) and the folder digest it was set
    # for (``binding``), the authorization epoch every
    # change advances, and the content-free receipts of decisions (their fields as canonical
    # JSON, never a query, text or path), newest first by (created_ms, audit_id).
    conn.execute(
        """
        CREATE TABLE egress_policies (
            collection TEXT PRIMARY KEY,
            policy TEXT NOT NULL CHECK (policy IN ('local_only', 'lan', 'remote')),
            revision INTEGER NOT NULL CHECK (revision > 0),
            binding TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE egress_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO egress_state(key, value) VALUES ('epoch', 0);
        CREATE TABLE egress_receipts (
            audit_id TEXT PRIMARY KEY,
            created_ms INTEGER NOT NULL,
            expires_ms INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            payload TEXT NOT NULL
        );
        CREATE INDEX egress_receipts_newest ON egress_receipts(created_ms, audit_id);
        """
    )


def _m0014_metadata_values(conn: apsw.Connection) -> None:
    # The typed metadata of each valid document as rows (``metadata_values``), kept by triggers
    # and built here from the stored maps, so that keyword search checks a typed filter inside
    # the full-text scan by primary-key probes (no re-sync needed)
    from gno_adapters.sqlite.metadata_values import create_metadata_values

    create_metadata_values(conn)


def _m0015_metadata_values_sparse(conn: apsw.Connection) -> None:
    # ``metadata_values`` of a new document written by the ledger instead of an insert trigger
    # (which cost a 38k-page sync about +13 % CPU, even where it did not fire), and no row for
    # a valid document whose map is empty (most of them)
    from gno_adapters.sqlite.metadata_values import rebuild_metadata_values

    rebuild_metadata_values(conn)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "0001_documents", _m0001_documents),
    Migration(2, "0002_documents_fts", _m0002_documents_fts),
    Migration(3, "0003_content_vectors", _m0003_content_vectors),
    Migration(4, "0004_links", _m0004_links),
    Migration(5, "0005_converter_warnings", _m0005_converter_warnings),
    Migration(6, "0006_memory", _m0006_memory),
    Migration(7, "0007_fact_identity", _m0007_fact_identity),
    Migration(8, "0008_chunking_policy", _m0008_chunking_policy),
    Migration(9, "0009_typed_metadata", _m0009_typed_metadata),
    Migration(10, "0010_change_journal", _m0010_change_journal),
    Migration(11, "0011_journal_collection_renames", _m0011_journal_collection_renames),
    Migration(12, "0012_egress", _m0012_egress),
    Migration(13, "0013_retrieval_traces", m0013_retrieval_traces),
    Migration(14, "0014_metadata_values", _m0014_metadata_values),
    Migration(15, "0015_metadata_values_sparse", _m0015_metadata_values_sparse),
)
LATEST_VERSION = MIGRATIONS[-1].version


def schema_version(conn: apsw.Connection) -> int:
    """The applied version (0 for a fresh database)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_meta'"
    ).fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT value FROM schema_meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: apsw.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> int:
    """Apply every pending migration, each in its own immediate transaction; returns the
    resulting version. A database newer than this code is refused with ``RUNTIME``."""
    latest = migrations[-1].version if migrations else 0
    current = schema_version(conn)
    if current > latest:
        raise RuntimeFailure(
            f"The index uses schema version {current}, newer than this gno ({latest}); "
            "upgrade gno or rebuild the index",
            details={"schema_version": current, "supported": latest},
        )
    if current == latest:
        return current  # the common case takes no write lock, so readers never wait on a sync
    with write_transaction(conn):
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
    for migration in migrations:
        if migration.version <= current:
            continue
        with write_transaction(conn):
            # Re-read under the write lock: another process may have migrated meanwhile.
            if schema_version(conn) < migration.version:
                migration.apply(conn)
                conn.execute(
                    "INSERT INTO schema_migrations(version, name, applied_at) "
                    "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                    (migration.version, migration.name),
                )
                conn.execute(
                    "INSERT OR REPLACE INTO schema_meta(key, value) VALUES ('schema_version', ?)",
                    (str(migration.version),),
                )
        current = migration.version
    return current
