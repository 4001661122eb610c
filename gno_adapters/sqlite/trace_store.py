"""``ApswTraceStore``: the ``TraceStore`` port over an open SQLite index (tables of migration
0013, ``trace_schema.py``). Each write is one immediate transaction, retention included."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.errors import translate_errors
from gno_adapters.sqlite.rows import Rows
from gno_core.errors import NotFoundError, ValidationError
from gno_core.traces.values import (
    NewEvent,
    NewExport,
    NewJudgment,
    NewRun,
    NewTrace,
    TraceEvent,
    TraceExport,
    TraceHeader,
    TraceJudgment,
    TraceRetention,
    TraceRun,
    TraceStatus,
    TraceUsage,
    fit,
)

__all__ = ["ApswTraceStore"]

_HEADER = (
    "seq, trace_id, tool, redaction_mode, query_digest, query_shape, filters, fingerprints, "
    "created_ns, expires_ns, status, query_text, records, size_bytes, truncated"
)
_EVENT = "event_id, run_id, kind, docid, uri, rank, score, start_line, end_line"
_JUDGMENT = "judgment_id, label, idempotency_key, event_id, document, created_ns"
_EXPORT = "export_id, format, trace_ids, digest, size_bytes, created_ns"


def _header(row: tuple[Any, ...]) -> TraceHeader:
    return TraceHeader(
        trace_id=row[1],
        tool=row[2],
        redaction_mode=row[3],
        query_digest=row[4],
        query_shape=json.loads(row[5]),
        filters=json.loads(row[6]),
        fingerprints=json.loads(row[7]),
        created_ns=row[8],
        expires_ns=row[9],
        status=row[10],
        query_text=row[11],
        records=row[12],
        size_bytes=row[13],
        truncated=bool(row[14]),
    )


def _export(row: tuple[Any, ...]) -> TraceExport:
    return TraceExport(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4], row[5])


class ApswTraceStore:
    """The ``TraceStore`` port."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows
        self._conn = rows.conn

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        row = self._conn.execute(sql, params).fetchone()
        assert row is not None
        return row[0]

    def _seq(self, trace_id: str) -> tuple[int, TraceHeader] | None:
        found = self._conn.execute(
            f"SELECT {_HEADER} FROM retrieval_traces WHERE trace_id = ?", (trace_id,)
        ).fetchone()
        return None if found is None else (int(found[0]), _header(found))

    def _drop(self, seqs: Sequence[int]) -> None:
        for seq in seqs:
            for table in (
                "retrieval_trace_events",
                "retrieval_trace_runs",
                "retrieval_trace_judgments",
                "retrieval_trace_export_members",
            ):
                self._conn.execute(f"DELETE FROM {table} WHERE trace_seq = ?", (seq,))
            self._conn.execute("DELETE FROM retrieval_traces WHERE seq = ?", (seq,))

    def _evict(self, retention: TraceRetention, now_ns: int, *, room: int, keep: int = 0) -> int:
        """Drop expired traces, then the oldest until ``room`` more fit under the count bound,
        then the oldest (never ``keep``) while the byte bound is exceeded."""
        gone = [
            int(r[0])
            for r in self._conn.execute(
                "SELECT seq FROM retrieval_traces WHERE expires_ns <= ? AND seq != ?",
                (now_ns, keep),
            )
        ]
        self._drop(gone)
        count = int(self._one("SELECT COUNT(*) FROM retrieval_traces"))
        excess = count + room - retention.max_traces
        if excess > 0:
            oldest = [
                int(r[0])
                for r in self._conn.execute(
                    "SELECT seq FROM retrieval_traces WHERE seq != ? ORDER BY seq LIMIT ?",
                    (keep, excess),
                )
            ]
            self._drop(oldest)
            gone += oldest
        total = int(self._one("SELECT COALESCE(SUM(size_bytes), 0) FROM retrieval_traces"))
        if total > retention.max_bytes:
            drop: list[int] = []
            for seq, size in self._conn.execute(
                "SELECT seq, size_bytes FROM retrieval_traces WHERE seq != ? ORDER BY seq",
                (keep,),
            ):
                if total <= retention.max_bytes:
                    break
                drop.append(int(seq))
                total -= int(size)
            self._drop(drop)
            gone += drop
        return len(gone)

    def open_trace(self, trace: NewTrace, retention: TraceRetention) -> TraceHeader:
        with translate_errors("opening a retrieval trace"), write_transaction(self._conn):
            self._evict(retention, trace.created_ns, room=1)
            trace_id = "trc_" + str(self._one("SELECT lower(hex(randomblob(16)))"))
            self._conn.execute(
                "INSERT INTO retrieval_traces(trace_id, tool, redaction_mode, query_digest, "
                "query_shape, filters, fingerprints, query_text, created_ns, expires_ns, status, "
                "size_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (
                    trace_id,
                    trace.tool,
                    trace.redaction_mode,
                    trace.query_digest,
                    json.dumps(trace.query_shape, sort_keys=True),
                    json.dumps(trace.filters, sort_keys=True),
                    json.dumps(trace.fingerprints, sort_keys=True),
                    trace.query_text,
                    trace.created_ns,
                    trace.created_ns + retention.max_age_ns,
                    trace.size,
                ),
            )
            found = self._seq(trace_id)
        assert found is not None
        return found[1]

    def record(
        self,
        trace_id: str,
        run: NewRun,
        events: Sequence[NewEvent],
        retention: TraceRetention,
        now_ns: int,
    ) -> int | None:
        with translate_errors("recording a retrieval trace"), write_transaction(self._conn):
            found = self._seq(trace_id)
            if found is None or found[1].status != "open" or found[1].expires_ns <= now_ns:
                return None
            seq, head = found
            room = retention.max_records_per_trace - head.records
            kept, size = fit(run, events, room, retention.max_bytes - head.size_bytes)
            if size == 0:  # not even the run fits in the record or byte bound
                self._conn.execute(
                    "UPDATE retrieval_traces SET truncated = 1 WHERE seq = ?", (seq,)
                )
                return None
            truncated = len(kept) < len(events)
            self._conn.execute(
                "INSERT INTO retrieval_trace_runs(trace_seq, kind, mode, status, detail, "
                "created_ns) VALUES (?, ?, ?, ?, ?, ?)",
                (seq, run.kind, run.mode, run.status, json.dumps(run.detail), now_ns),
            )
            run_id = int(self._conn.last_insert_rowid())
            self._conn.executemany(
                "INSERT INTO retrieval_trace_events(trace_seq, run_id, kind, docid, uri, rank, "
                "score, start_line, end_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (seq, run_id, e.kind, e.docid, e.uri, e.rank, e.score, e.start_line, e.end_line)
                    for e in kept
                ],
            )
            self._conn.execute(
                "UPDATE retrieval_traces SET records = records + ?, size_bytes = size_bytes + ?, "
                "truncated = MAX(truncated, ?) WHERE seq = ?",
                (1 + len(kept), size, int(truncated), seq),
            )
            self._evict(retention, now_ns, room=0, keep=seq)
            return run_id

    def finish(self, trace_id: str, status: TraceStatus) -> bool:
        with translate_errors("finishing a retrieval trace"), write_transaction(self._conn):
            self._conn.execute(
                "UPDATE retrieval_traces SET status = CASE WHEN truncated = 1 AND ? = "
                "'completed' THEN 'partial' ELSE ? END WHERE trace_id = ? AND status = 'open'",
                (status, status, trace_id),
            )
            return bool(self._conn.changes())

    def header(self, trace_id: str) -> TraceHeader | None:
        with translate_errors("reading a retrieval trace"):
            found = self._seq(trace_id)
        return None if found is None else found[1]

    def headers(self, *, before: str | None = None, limit: int = 50) -> list[TraceHeader]:
        where, params = "", ()  # type: tuple[str, tuple[Any, ...]]
        if before is not None:
            where = "WHERE seq < (SELECT seq FROM retrieval_traces WHERE trace_id = ?)"
            params = (before,)
        rows = self._db.rows(
            "listing retrieval traces",
            f"SELECT {_HEADER} FROM retrieval_traces {where} ORDER BY seq DESC LIMIT ?",
            (*params, limit),
        )
        return [_header(r) for r in rows]

    def runs(self, trace_id: str) -> list[TraceRun]:
        rows = self._db.rows(
            "reading a retrieval trace",
            "SELECT r.run_id, r.kind, r.mode, r.status, r.detail, r.created_ns "
            "FROM retrieval_trace_runs r JOIN retrieval_traces t ON t.seq = r.trace_seq "
            "WHERE t.trace_id = ? ORDER BY r.run_id",
            (trace_id,),
        )
        return [TraceRun(r[0], trace_id, r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    def events(self, trace_id: str, *, limit: int = 10_000) -> list[TraceEvent]:
        cols = ", ".join(f"e.{c.strip()}" for c in _EVENT.split(","))
        rows = self._db.rows(
            "reading a retrieval trace",
            f"SELECT {cols} FROM retrieval_trace_events e JOIN retrieval_traces t "
            "ON t.seq = e.trace_seq WHERE t.trace_id = ? ORDER BY e.event_id LIMIT ?",
            (trace_id, limit),
        )
        return [TraceEvent(r[0], trace_id, *r[1:]) for r in rows]

    def add_judgment(self, judgment: NewJudgment) -> tuple[TraceJudgment, bool]:
        with translate_errors("labelling a retrieval trace"), write_transaction(self._conn):
            found = self._seq(judgment.trace_id)
            if found is None:
                raise NotFoundError(
                    "No such retrieval trace", details={"traceId": judgment.trace_id}
                )
            seq = found[0]
            row = self._conn.execute(
                f"SELECT {_JUDGMENT} FROM retrieval_trace_judgments "
                "WHERE trace_seq = ? AND idempotency_key = ?",
                (seq, judgment.idempotency_key),
            ).fetchone()
            if row is not None:
                stored = TraceJudgment(row[0], judgment.trace_id, *row[1:])
                judgment.check_replay(stored)
                return stored, False
            document = judgment.document
            if judgment.event_id is not None:
                event = self._conn.execute(
                    "SELECT docid FROM retrieval_trace_events WHERE trace_seq = ? AND event_id = ?",
                    (seq, judgment.event_id),
                ).fetchone()
                if event is None:
                    raise ValidationError(
                        f"Event {judgment.event_id} is not recorded evidence of this trace",
                        details={"eventId": judgment.event_id},
                    )
                document = str(event[0])
            self._conn.execute(
                "INSERT INTO retrieval_trace_judgments(trace_seq, label, idempotency_key, "
                "event_id, document, created_ns) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    seq,
                    judgment.label,
                    judgment.idempotency_key,
                    judgment.event_id,
                    document,
                    judgment.created_ns,
                ),
            )
            jid = int(self._conn.last_insert_rowid())
        return (
            TraceJudgment(
                jid,
                judgment.trace_id,
                judgment.label,
                judgment.idempotency_key,
                judgment.event_id,
                document,
                judgment.created_ns,
            ),
            True,
        )

    def judgments(self, trace_id: str) -> list[TraceJudgment]:
        cols = ", ".join(f"j.{c.strip()}" for c in _JUDGMENT.split(","))
        rows = self._db.rows(
            "reading a retrieval trace",
            f"SELECT {cols} FROM retrieval_trace_judgments j JOIN retrieval_traces t "
            "ON t.seq = j.trace_seq WHERE t.trace_id = ? ORDER BY j.judgment_id",
            (trace_id,),
        )
        return [TraceJudgment(r[0], trace_id, *r[1:]) for r in rows]

    def add_export(self, export: NewExport) -> tuple[TraceExport, bool]:
        with translate_errors("recording a trace export"), write_transaction(self._conn):
            row = self._conn.execute(
                f"SELECT {_EXPORT} FROM retrieval_trace_exports WHERE format = ? AND digest = ?",
                (export.format, export.digest),
            ).fetchone()
            if row is not None:
                return _export(row), False
            self._conn.execute(
                "INSERT INTO retrieval_trace_exports(format, trace_ids, digest, size_bytes, "
                "created_ns) VALUES (?, ?, ?, ?, ?)",
                (
                    export.format,
                    json.dumps(list(export.trace_ids)),
                    export.digest,
                    export.size_bytes,
                    export.created_ns,
                ),
            )
            eid = int(self._conn.last_insert_rowid())
            self._conn.executemany(
                "INSERT OR IGNORE INTO retrieval_trace_export_members(export_id, trace_seq) "
                "SELECT ?, seq FROM retrieval_traces WHERE trace_id = ?",
                [(eid, t) for t in export.trace_ids],
            )
        return (
            TraceExport(
                eid,
                export.format,
                export.trace_ids,
                export.digest,
                export.size_bytes,
                export.created_ns,
            ),
            True,
        )

    def exports(self, trace_id: str) -> list[TraceExport]:
        cols = ", ".join(f"x.{c.strip()}" for c in _EXPORT.split(","))
        rows = self._db.rows(
            "reading a retrieval trace",
            f"SELECT {cols} FROM retrieval_trace_exports x JOIN retrieval_trace_export_members m "
            "ON m.export_id = x.export_id JOIN retrieval_traces t ON t.seq = m.trace_seq "
            "WHERE t.trace_id = ? ORDER BY x.export_id",
            (trace_id,),
        )
        return [_export(r) for r in rows]

    def delete(self, trace_id: str) -> bool:
        with translate_errors("deleting a retrieval trace"), write_transaction(self._conn):
            found = self._seq(trace_id)
            if found is None:
                return False
            self._drop([found[0]])
            return True

    def purge(self) -> int:
        with translate_errors("purging retrieval traces"), write_transaction(self._conn):
            count = int(self._one("SELECT COUNT(*) FROM retrieval_traces"))
            for table in (
                "retrieval_trace_export_members",
                "retrieval_trace_exports",
                "retrieval_trace_judgments",
                "retrieval_trace_events",
                "retrieval_trace_runs",
                "retrieval_traces",
            ):
                self._conn.execute(f"DELETE FROM {table}")
            return count

    def enforce(self, retention: TraceRetention, now_ns: int) -> int:
        with translate_errors("applying trace retention"), write_transaction(self._conn):
            return self._evict(retention, now_ns, room=0)

    def usage(self) -> TraceUsage:
        row = self._db.rows(
            "reading retrieval traces",
            "SELECT COUNT(*), COALESCE(SUM(records), 0), COALESCE(SUM(size_bytes), 0) "
            "FROM retrieval_traces",
        )[0]
        return TraceUsage(int(row[0]), int(row[1]), int(row[2]))
