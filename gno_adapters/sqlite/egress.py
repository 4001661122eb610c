"""``ApswEgressPolicies`` and ``ApswEgressReceipts``: the egress ports over an open SQLite index
(migration 0012). A policy change and its epoch advance are one transaction, applied only while
the revision is the one the caller planned from; a receipt and its retention are one
transaction."""

from __future__ import annotations

import uuid
from typing import Any, cast

import apsw

from gno_adapters.sqlite.connection import write_transaction
from gno_adapters.sqlite.errors import translate_errors
from gno_core.egress.change import stale_revision
from gno_core.egress.receipts import Receipt, ReceiptDraft, ReceiptRetention
from gno_core.egress.values import Policy
from gno_core.ports.egress import ReceiptStats, StoredPolicy

__all__ = ["ApswEgressPolicies", "ApswEgressReceipts"]


class ApswEgressPolicies:
    """The ``EgressPolicyStore`` port."""

    def __init__(self, conn: apsw.Connection) -> None:
        self._conn = conn

    def get(self, collection: str) -> StoredPolicy | None:
        with translate_errors("reading an egress policy"):
            row = self._conn.execute(
                "SELECT collection, policy, revision, binding FROM egress_policies WHERE collection = ?",
                (collection,),
            ).fetchone()
        return _policy(row) if row else None

    def all(self) -> dict[str, StoredPolicy]:
        with translate_errors("reading egress policies"):
            rows = list(
                self._conn.execute(
                    "SELECT collection, policy, revision, binding FROM egress_policies"
                )
            )
        return {str(r[0]): _policy(r) for r in rows}

    def apply(
        self, collection: str, policy: Policy, expected_revision: int, binding: str = ""
    ) -> StoredPolicy:
        with translate_errors("changing an egress policy"), write_transaction(self._conn):
            row = self._conn.execute(
                "SELECT revision FROM egress_policies WHERE collection = ?", (collection,)
            ).fetchone()
            current = int(row[0]) if row else 0
            if current != expected_revision:
                raise stale_revision(collection, current)
            revision = current + 1
            self._conn.execute(
                "INSERT INTO egress_policies(collection, policy, revision, binding) "
                "VALUES (?, ?, ?, ?) ON CONFLICT(collection) DO UPDATE SET "
                "policy = excluded.policy, revision = excluded.revision, binding = excluded.binding",
                (collection, policy, revision, binding),
            )
            self._conn.execute("UPDATE egress_state SET value = value + 1 WHERE key = 'epoch'")
        return StoredPolicy(collection, policy, revision, binding)

    def epoch(self) -> int:
        with translate_errors("reading the egress epoch"):
            row = self._conn.execute(
                "SELECT value FROM egress_state WHERE key = 'epoch'"
            ).fetchone()
        return int(row[0]) if row else 0


def _policy(row: tuple[object, ...]) -> StoredPolicy:
    return StoredPolicy(str(row[0]), cast(Policy, row[1]), int(cast(int, row[2])), str(row[3]))


def _one(conn: apsw.Connection, sql: str, params: tuple[object, ...] = ()) -> tuple[Any, ...]:
    """The one row of an aggregate query."""
    row = conn.execute(sql, params).fetchone()
    assert row is not None  # an aggregate always answers one row
    return tuple(row)


_COLUMNS = "audit_id, created_ms, expires_ms, payload"


def _receipt(row: tuple[object, ...]) -> Receipt:
    return Receipt(
        str(row[0]),
        int(cast(int, row[1])),
        int(cast(int, row[2])),
        ReceiptDraft.from_payload(str(row[3])),
    )


class ApswEgressReceipts:
    """The ``EgressReceiptStore`` port."""

    def __init__(self, conn: apsw.Connection) -> None:
        self._conn = conn

    def append(self, draft: ReceiptDraft, now_ms: int, retention: ReceiptRetention) -> Receipt:
        payload = draft.payload()
        conn = self._conn
        with translate_errors("writing an egress receipt"), write_transaction(conn):
            receipt = Receipt(uuid.uuid4().hex, now_ms, now_ms + retention.max_age_ms, draft)
            conn.execute(
                f"INSERT INTO egress_receipts({_COLUMNS}, bytes) VALUES (?, ?, ?, ?, ?)",
                (receipt.audit_id, now_ms, receipt.expires_ms, payload, receipt.size),
            )
            conn.execute("DELETE FROM egress_receipts WHERE expires_ms <= ?", (now_ms,))
            count, size = _one(
                conn, "SELECT count(*), coalesce(sum(bytes), 0) FROM egress_receipts"
            )
            if count > retention.max_receipts or size > retention.max_bytes:
                rows = conn.execute(
                    "SELECT audit_id, bytes FROM egress_receipts ORDER BY created_ms, audit_id"
                )
                doomed = retention.overflow(((str(i), int(n)) for i, n in rows), count, size)
                conn.executemany(
                    "DELETE FROM egress_receipts WHERE audit_id = ?", [(i,) for i in doomed]
                )
        return receipt

    def page(self, now_ms: int, limit: int, before: tuple[int, str] | None = None) -> list[Receipt]:
        sql = f"SELECT {_COLUMNS} FROM egress_receipts WHERE expires_ms > ?"
        params: tuple[object, ...] = (now_ms,)
        if before is not None:
            sql += " AND (created_ms < ? OR (created_ms = ? AND audit_id < ?))"
            params += (before[0], before[0], before[1])
        sql += " ORDER BY created_ms DESC, audit_id DESC LIMIT ?"
        with translate_errors("listing egress receipts"):
            return [_receipt(r) for r in self._conn.execute(sql, (*params, limit))]

    def get(self, audit_id: str, now_ms: int) -> Receipt | None:
        with translate_errors("reading an egress receipt"):
            row = self._conn.execute(
                f"SELECT {_COLUMNS} FROM egress_receipts WHERE audit_id = ? AND expires_ms > ?",
                (audit_id, now_ms),
            ).fetchone()
        return _receipt(row) if row else None

    def delete(self, audit_id: str) -> bool:
        with translate_errors("deleting an egress receipt"), write_transaction(self._conn):
            self._conn.execute("DELETE FROM egress_receipts WHERE audit_id = ?", (audit_id,))
            return self._conn.changes() > 0

    def purge(self) -> int:
        with translate_errors("purging egress receipts"), write_transaction(self._conn):
            self._conn.execute("DELETE FROM egress_receipts")
            return int(self._conn.changes())

    def stats(self, now_ms: int) -> ReceiptStats:
        with translate_errors("reading egress receipt statistics"):
            count, size, oldest, newest = _one(
                self._conn,
                "SELECT count(*), coalesce(sum(bytes), 0), min(created_ms), max(created_ms) "
                "FROM egress_receipts WHERE expires_ms > ?",
                (now_ms,),
            )
        return ReceiptStats(
            int(count),
            int(size),
            None if oldest is None else int(oldest),
            None if newest is None else int(newest),
        )
