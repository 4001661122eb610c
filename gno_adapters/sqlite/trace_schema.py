"""Migration 0013: the tables of the retrieval-trace store (``trace_store.py``), kept beside
``migrations.py`` so that module stays small."""

from __future__ import annotations

import apsw

__all__ = ["m0013_retrieval_traces"]


def m0013_retrieval_traces(conn: apsw.Connection) -> None:
    # Private retrieval traces (``gno_core.traces``), written only when ``retrievalTraces`` is
    # enabled: headers, the runs and evidence events each retrieval recorded, the person's
    # judgments (append-only, one per idempotency key) and export receipts.
    conn.execute(
        """
        CREATE TABLE retrieval_traces (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            trace_id TEXT NOT NULL UNIQUE,
            tool TEXT NOT NULL,
            redaction_mode TEXT NOT NULL,
            query_digest TEXT NOT NULL,
            query_shape TEXT NOT NULL,
            filters TEXT NOT NULL,
            fingerprints TEXT NOT NULL,
            query_text TEXT,
            created_ns INTEGER NOT NULL,
            expires_ns INTEGER NOT NULL,
            status TEXT NOT NULL,
            records INTEGER NOT NULL DEFAULT 0,
            size_bytes INTEGER NOT NULL,
            truncated INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX retrieval_traces_expiry ON retrieval_traces(expires_ns);
        CREATE TABLE retrieval_trace_runs (
            run_id INTEGER PRIMARY KEY AUTOINCREMENT,
            trace_seq INTEGER NOT NULL REFERENCES retrieval_traces(seq) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            mode TEXT NOT NULL,
            status TEXT NOT NULL,
            detail TEXT NOT NULL,
            created_ns INTEGER NOT NULL
        );
        CREATE INDEX retrieval_trace_runs_trace ON retrieval_trace_runs(trace_seq);
        CREATE TABLE retrieval_trace_events (
            event_id INTEGER PRIMARY KEY AUTOINCREMENT,
            trace_seq INTEGER NOT NULL REFERENCES retrieval_traces(seq) ON DELETE CASCADE,
            run_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            docid TEXT NOT NULL,
            uri TEXT NOT NULL,
            rank INTEGER,
            score REAL,
            start_line INTEGER,
            end_line INTEGER
        );
        CREATE INDEX retrieval_trace_events_trace ON retrieval_trace_events(trace_seq, event_id);
        CREATE TABLE retrieval_trace_judgments (
            judgment_id INTEGER PRIMARY KEY AUTOINCREMENT,
            trace_seq INTEGER NOT NULL REFERENCES retrieval_traces(seq) ON DELETE CASCADE,
            label TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            event_id INTEGER,
            document TEXT,
            created_ns INTEGER NOT NULL,
            UNIQUE (trace_seq, idempotency_key)
        );
        CREATE TABLE retrieval_trace_exports (
            export_id INTEGER PRIMARY KEY AUTOINCREMENT,
            format TEXT NOT NULL,
            trace_ids TEXT NOT NULL,
            digest TEXT NOT NULL,
            size_bytes INTEGER NOT NULL,
            created_ns INTEGER NOT NULL,
            UNIQUE (format, digest)
        );
        CREATE TABLE retrieval_trace_export_members (
            export_id INTEGER NOT NULL
                REFERENCES retrieval_trace_exports(export_id) ON DELETE CASCADE,
            trace_seq INTEGER NOT NULL REFERENCES retrieval_traces(seq) ON DELETE CASCADE,
            PRIMARY KEY (export_id, trace_seq)
        );
        CREATE INDEX retrieval_trace_export_members_trace
            ON retrieval_trace_export_members(trace_seq);
        """
    )
